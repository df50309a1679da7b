//! The controller's end of the session (the simulated board) against a scripted host over an
//! in-memory pipe, on a paused clock: handshake, `NOT_READY`, acknowledgements, duplicates,
//! retransmission, BUSY, loss of the session, and the versions with and without board lights.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use hal::BoardSize;
use hal::Occupancy;
use hal::controller::peer::PeerConfig;
use hal::controller::{
    Capabilities, ControllerCodec, Frame, Message, MessageType, NEWEST_VERSION, NackReason,
};
use hal::device::{ButtonId, EyeFrame, Eyes, Light, LightColour, LightMode, SquareLights};
use hal::sim::board::{SimBoardHandle, sim_board};
use tokio::io::{DuplexStream, duplex};
use tokio::time::{Instant, timeout};
use tokio_util::codec::Framed;

/// The host's end of the pipe, driven by the test.
struct FakeHost {
    framed: Framed<DuplexStream, ControllerCodec>,
    /// The version of the frames it sends.
    version: u8,
}

impl FakeHost {
    async fn send(&mut self, seq: u8, message: Message) {
        let frame = Frame::new(self.version, seq, message);
        self.framed.send(frame).await.unwrap();
    }

    async fn recv(&mut self) -> Frame {
        match self.framed.next().await {
            Some(Ok(Ok(frame))) => frame,
            other => panic!("expected a frame from the controller, got {other:?}"),
        }
    }

    /// Sends `message` and returns the controller's answer.
    async fn exchange(&mut self, seq: u8, message: Message) -> Frame {
        self.send(seq, message).await;
        self.recv().await
    }

    async fn hello(&mut self, seq: u8) {
        let answer = self.exchange(seq, hello()).await;
        assert_eq!(answer.seq, seq);
        assert!(matches!(answer.message, Message::Welcome(_)), "{answer:?}");
    }

    async fn expect_silence(&mut self, duration: Duration) {
        if let Ok(item) = timeout(duration, self.framed.next()).await {
            panic!("expected silence, got {item:?}");
        }
    }
}

fn hello() -> Message {
    Message::Hello {
        min_version: 1,
        max_version: 1,
    }
}

fn eyes() -> Message {
    Message::Eyes(Eyes {
        left: EyeFrame::from_rows([1, 2, 3, 4, 5, 6, 7, 8]),
        right: EyeFrame::BLANK,
    })
}

fn press(pressed: bool) -> Message {
    Message::Button {
        button: ButtonId::CONFIRM,
        pressed,
    }
}

fn pieces() -> Occupancy {
    Occupancy::from_squares(BoardSize::Squares32, [0, 1, 30]).unwrap()
}

fn start() -> (FakeHost, SimBoardHandle) {
    let (host_io, controller_io) = duplex(1024);
    let (board, driver) = sim_board(controller_io, pieces(), PeerConfig::default());
    tokio::spawn(driver.run());
    let host = FakeHost {
        framed: Framed::new(host_io, ControllerCodec::new()),
        version: 1,
    };
    (host, board)
}

#[tokio::test(start_paused = true)]
async fn commands_before_hello_are_refused_as_not_ready() {
    let (mut host, board) = start();
    assert_eq!(
        host.exchange(3, Message::ScanRequest).await,
        Frame::new(NEWEST_VERSION, 3, Message::Nack(NackReason::NOT_READY))
    );
    assert_eq!(board.scans_sent(), 0);
    host.hello(9).await;
    assert_eq!(
        host.exchange(10, Message::ScanRequest).await,
        Frame::new(1, 10, Message::Ack)
    );
    // The controller numbers its own frames from 0 after each Welcome (rule A1).
    assert_eq!(host.recv().await, Frame::new(1, 0, Message::Scan(pieces())));
    host.send(0, Message::Ack).await;
    host.expect_silence(Duration::from_millis(400)).await;
}

#[tokio::test(start_paused = true)]
async fn a_hello_outside_the_versions_spoken_is_refused() {
    let (mut host, _board) = start();
    let hello = Message::Hello {
        min_version: NEWEST_VERSION + 1,
        max_version: NEWEST_VERSION + 2,
    };
    assert_eq!(
        host.exchange(0, hello).await,
        Frame::new(
            NEWEST_VERSION,
            0,
            Message::Nack(NackReason::UNSUPPORTED_VERSION)
        )
    );
    assert_eq!(
        host.exchange(1, Message::Heartbeat).await,
        Frame::new(NEWEST_VERSION, 1, Message::Nack(NackReason::NOT_READY))
    );
}

#[tokio::test(start_paused = true)]
async fn a_repeated_frame_is_answered_again_but_acted_on_once() {
    let (mut host, board) = start();
    host.hello(0).await;
    assert_eq!(
        host.exchange(1, eyes()).await,
        Frame::new(1, 1, Message::Ack)
    );
    assert_eq!(
        host.exchange(1, eyes()).await,
        Frame::new(1, 1, Message::Ack)
    );
    assert_eq!(board.eyes().len(), 1);
    assert_eq!(
        host.exchange(2, eyes()).await,
        Frame::new(1, 2, Message::Ack)
    );
    assert_eq!(board.eyes().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn refusals_name_the_reason() {
    let (mut host, _board) = start();
    host.hello(0).await;
    assert_eq!(
        host.exchange(1, Message::Scan(pieces())).await,
        Frame::new(1, 1, Message::Nack(NackReason::WRONG_DIRECTION))
    );
    let pump = Message::PumpValve {
        pump_on: true,
        valve_open: false,
    };
    assert_eq!(
        host.exchange(2, pump).await,
        Frame::new(1, 2, Message::Nack(NackReason::UNSUPPORTED))
    );
    assert_eq!(
        host.exchange(3, Message::Heartbeat).await,
        Frame::new(1, 3, Message::Ack)
    );
}

#[tokio::test(start_paused = true)]
async fn presses_are_sent_in_order_and_retransmitted_until_answered() {
    let (mut host, board) = start();
    host.hello(0).await;
    assert!(board.press(ButtonId::CONFIRM));
    let first = host.recv().await;
    assert_eq!(first, Frame::new(1, 0, press(true)));
    let sent_at = Instant::now();
    // The Ack was lost: the same frame comes again after the answer timeout.
    assert_eq!(host.recv().await, first);
    assert_eq!(sent_at.elapsed(), Duration::from_millis(100));
    host.send(0, Message::Ack).await;
    assert_eq!(host.recv().await, Frame::new(1, 1, press(false)));
    host.send(1, Message::Ack).await;
    host.expect_silence(Duration::from_millis(400)).await;
}

#[tokio::test(start_paused = true)]
async fn a_busy_host_gets_the_message_again_as_a_new_frame() {
    let (mut host, board) = start();
    host.hello(0).await;
    assert!(board.press(ButtonId::CONFIRM));
    assert_eq!(host.recv().await, Frame::new(1, 0, press(true)));
    host.send(0, Message::Nack(NackReason::BUSY)).await;
    let refused_at = Instant::now();
    assert_eq!(host.recv().await, Frame::new(1, 1, press(true)));
    assert_eq!(refused_at.elapsed(), Duration::from_millis(100));
    host.send(1, Message::Ack).await;
    assert_eq!(host.recv().await, Frame::new(1, 2, press(false)));
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_frame_ends_the_session() {
    let (mut host, board) = start();
    host.hello(0).await;
    assert!(board.press(ButtonId::CONFIRM));
    let first = host.recv().await;
    for _ in 0..3 {
        assert_eq!(host.recv().await, first);
    }
    // Given up 100 ms after the fourth send (rule L2): nothing more comes.
    host.expect_silence(Duration::from_millis(150)).await;
    assert_eq!(board.sessions_lost(), 1);
    assert_eq!(
        host.exchange(1, eyes()).await,
        Frame::new(NEWEST_VERSION, 1, Message::Nack(NackReason::NOT_READY))
    );
    // The queued release was discarded with the session (rule S4).
    host.hello(2).await;
    host.expect_silence(Duration::from_millis(400)).await;
}

#[tokio::test(start_paused = true)]
async fn a_silent_host_ends_the_session_after_1500_ms() {
    let (mut host, board) = start();
    host.hello(0).await;
    tokio::time::sleep(Duration::from_millis(1499)).await;
    assert_eq!(
        host.exchange(1, Message::Heartbeat).await,
        Frame::new(1, 1, Message::Ack)
    );
    tokio::time::sleep(Duration::from_millis(1501)).await;
    assert_eq!(board.sessions_lost(), 1);
    assert_eq!(
        host.exchange(2, Message::Heartbeat).await,
        Frame::new(NEWEST_VERSION, 2, Message::Nack(NackReason::NOT_READY))
    );
}

#[tokio::test(start_paused = true)]
async fn a_new_hello_restarts_the_numbering() {
    let (mut host, board) = start();
    host.hello(0).await;
    assert!(board.press(ButtonId::CONFIRM));
    assert_eq!(host.recv().await, Frame::new(1, 0, press(true)));
    host.send(0, Message::Ack).await;
    assert_eq!(host.recv().await, Frame::new(1, 1, press(false)));
    host.send(1, Message::Ack).await;
    host.hello(5).await;
    assert!(board.press(ButtonId::CONFIRM));
    let frame = host.recv().await;
    assert_eq!(frame, Frame::new(1, 0, press(true)));
    assert_eq!(frame.message.message_type(), MessageType::Button);
}

fn lights() -> SquareLights {
    let mut lights = SquareLights::dark(BoardSize::Squares32);
    let fill = Light::new(LightMode::Blinking, LightColour::Green);
    lights.set(13, fill).unwrap();
    lights
}

/// Says Hello offering versions 1 and 2 and returns the Welcome's version and capabilities;
/// the host speaks the chosen version from then on.
async fn hello_offering_both(host: &mut FakeHost, seq: u8) -> (u8, Capabilities) {
    let offer = Message::Hello {
        min_version: 1,
        max_version: 2,
    };
    let answer = host.exchange(seq, offer).await;
    let Message::Welcome(welcome) = answer.message else {
        panic!("expected a Welcome, got {answer:?}");
    };
    host.version = welcome.version;
    (welcome.version, welcome.capabilities)
}

#[tokio::test(start_paused = true)]
async fn a_board_with_lights_speaks_version_2_and_shows_them() {
    let (mut host, board) = start();
    let (version, capabilities) = hello_offering_both(&mut host, 0).await;
    assert_eq!(version, 2);
    assert!(capabilities.contains(Capabilities::BOARD_LIGHTS));
    assert_eq!(
        host.exchange(1, Message::SquareLights(lights())).await,
        Frame::new(2, 1, Message::Ack)
    );
    assert_eq!(board.lights(), Some(lights()));
    // A frame of version 1 in a version 2 session is refused (rule S2).
    host.version = 1;
    assert_eq!(
        host.exchange(2, Message::Heartbeat).await,
        Frame::new(2, 2, Message::Nack(NackReason::UNSUPPORTED_VERSION))
    );
    // Lights for another board than this one are refused.
    host.version = 2;
    let wrong = Message::SquareLights(SquareLights::dark(BoardSize::Squares50));
    assert_eq!(
        host.exchange(3, wrong).await,
        Frame::new(2, 3, Message::Nack(NackReason::BAD_PAYLOAD))
    );
    // A new session starts dark.
    hello_offering_both(&mut host, 4).await;
    assert_eq!(board.lights(), None);
}

#[tokio::test(start_paused = true)]
async fn a_version_1_board_announces_no_lights_and_does_not_know_the_message() {
    let (mut host, board) = start();
    board.set_newest_version(1);
    let (version, capabilities) = hello_offering_both(&mut host, 0).await;
    assert_eq!(version, 1);
    assert!(!capabilities.contains(Capabilities::BOARD_LIGHTS));
    assert_eq!(
        host.exchange(1, Message::SquareLights(lights())).await,
        Frame::new(1, 1, Message::Nack(NackReason::UNKNOWN_TYPE))
    );
    assert_eq!(board.lights(), None);
}

#[tokio::test(start_paused = true)]
async fn a_lost_session_darkens_the_lights() {
    let (mut host, board) = start();
    hello_offering_both(&mut host, 0).await;
    host.exchange(1, Message::SquareLights(lights())).await;
    assert_eq!(board.lights(), Some(lights()));
    tokio::time::sleep(Duration::from_millis(1501)).await;
    assert_eq!(board.sessions_lost(), 1);
    assert_eq!(board.lights(), None);
    assert_eq!(board.lights_history(), vec![lights()]);
}
