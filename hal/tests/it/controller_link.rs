//! The host's session against a scripted controller over an in-memory pipe, on a paused clock:
//! handshake, acknowledgements, retransmission, duplicates, heartbeats and every way the link
//! can end.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use hal::controller::link::{
    Connection, LinkConfig, LinkError, LinkEvent, LinkHandle, SendError, connect,
};
use hal::controller::{
    Capabilities, ControllerCodec, Fault, FaultCode, FirmwareVersion, Frame, Message, MessageType,
    NackReason, Welcome,
};
use hal::device::{ButtonId, EyeFrame, Eyes};
use hal::{BoardSize, Error as _, ErrorKind, Occupancy};
use tokio::io::{AsyncWriteExt, DuplexStream, duplex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout};
use tokio_util::codec::Framed;

const WELCOME: Welcome = Welcome {
    version: 1,
    firmware: FirmwareVersion {
        major: 0,
        minor: 3,
        patch: 0,
    },
    board: Some(BoardSize::Squares32),
    capabilities: Capabilities(0x1F),
};

/// The controller's end of the pipe, driven by the test.
struct FakeController {
    framed: Framed<DuplexStream, ControllerCodec>,
}

impl FakeController {
    /// The next valid frame from the host.
    async fn recv(&mut self) -> Frame {
        match self.framed.next().await {
            Some(Ok(Ok(frame))) => frame,
            other => panic!("expected a frame from the host, got {other:?}"),
        }
    }

    /// The next frame, which must be a reliable one of this type; returns its sequence number.
    async fn recv_type(&mut self, ty: MessageType) -> u8 {
        let frame = self.recv().await;
        assert_eq!(frame.message.message_type(), ty, "{frame:?}");
        frame.seq
    }

    async fn send(&mut self, seq: u8, message: Message) {
        self.framed.send(Frame::new(1, seq, message)).await.unwrap();
    }

    async fn send_raw(&mut self, bytes: &[u8]) {
        self.framed.get_mut().write_all(bytes).await.unwrap();
    }

    /// Asserts that the host sends nothing for `duration`.
    async fn expect_silence(&mut self, duration: Duration) {
        if let Ok(item) = timeout(duration, self.framed.next()).await {
            panic!("expected silence, got {item:?}");
        }
    }
}

/// A session after a successful handshake, with its driver running on a task.
struct Session {
    handle: LinkHandle,
    events: mpsc::Receiver<LinkEvent>,
    arm_events: mpsc::Receiver<LinkEvent>,
    driver: JoinHandle<Result<(), LinkError>>,
    controller: FakeController,
}

async fn handshake(config: LinkConfig) -> Session {
    let (host_io, controller_io) = duplex(4096);
    let mut controller = FakeController {
        framed: Framed::new(controller_io, ControllerCodec::new()),
    };
    let answer_hello = async {
        let seq = controller.recv_type(MessageType::Hello).await;
        controller.send(seq, Message::Welcome(WELCOME)).await;
    };
    let (connected, ()) = tokio::join!(connect(host_io, config), answer_hello);
    let connection = connected.expect("handshake succeeds");
    assert_eq!(connection.welcome, WELCOME);
    let Connection {
        handle,
        events,
        arm_events,
        driver,
        ..
    } = connection;
    Session {
        handle,
        events,
        arm_events,
        driver: tokio::spawn(driver.run()),
        controller,
    }
}

async fn open() -> Session {
    handshake(LinkConfig::default()).await
}

fn eyes() -> Message {
    Message::Eyes(Eyes {
        left: EyeFrame::from_rows([1, 2, 3, 4, 5, 6, 7, 8]),
        right: EyeFrame::BLANK,
    })
}

fn press() -> Message {
    Message::Button {
        button: ButtonId::CONFIRM,
        pressed: true,
    }
}

#[tokio::test(start_paused = true)]
async fn accepted_messages_are_numbered_after_hello() {
    let Session {
        handle,
        mut controller,
        ..
    } = open().await;
    for expected_seq in [1, 2, 3] {
        let acknowledge = async {
            let seq = controller.recv_type(MessageType::Eyes).await;
            assert_eq!(seq, expected_seq);
            controller.send(seq, Message::Ack).await;
        };
        let (sent, ()) = tokio::join!(handle.send(eyes()), acknowledge);
        assert_eq!(sent, Ok(()));
    }
}

#[tokio::test(start_paused = true)]
async fn a_lost_ack_is_recovered_by_resending_the_same_frame() {
    let Session {
        handle,
        mut controller,
        ..
    } = open().await;
    let lose_first_ack = async {
        let first = controller.recv().await;
        let sent_at = Instant::now();
        let second = controller.recv().await;
        assert_eq!(second, first);
        assert_eq!(sent_at.elapsed(), Duration::from_millis(100));
        controller.send(second.seq, Message::Ack).await;
    };
    let (sent, ()) = tokio::join!(handle.send(eyes()), lose_first_ack);
    assert_eq!(sent, Ok(()));
}

#[tokio::test(start_paused = true)]
async fn a_frame_unanswered_four_times_ends_the_session() {
    let Session {
        handle,
        driver,
        mut controller,
        ..
    } = open().await;
    let ignore = async {
        let first = controller.recv().await;
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(controller.recv().await, first);
        }
        assert_eq!(start.elapsed(), Duration::from_millis(300));
    };
    let (sent, ()) = tokio::join!(handle.send(eyes()), ignore);
    assert_eq!(sent, Err(SendError::LinkLost));
    assert_eq!(sent.unwrap_err().kind(), ErrorKind::Disconnected);
    let ended = driver.await.unwrap();
    assert!(
        matches!(
            ended,
            Err(LinkError::NoAnswer {
                ty: MessageType::Eyes,
                seq: 1,
                sends: 4
            })
        ),
        "{ended:?}"
    );
    assert_eq!(handle.send(eyes()).await, Err(SendError::LinkLost));
}

#[tokio::test(start_paused = true)]
async fn a_nack_is_reported_and_the_next_message_takes_a_new_number() {
    let Session {
        handle,
        mut controller,
        ..
    } = open().await;
    let refuse_then_accept = async {
        let seq = controller.recv().await.seq;
        controller.send(seq, Message::Nack(NackReason::BUSY)).await;
        let retry = controller.recv().await.seq;
        assert_eq!(retry, seq.wrapping_add(1));
        controller.send(retry, Message::Ack).await;
    };
    let handle = &handle;
    let sends = async {
        let first = handle.send(eyes()).await;
        let second = handle.send(eyes()).await;
        (first, second)
    };
    let ((first, second), ()) = tokio::join!(sends, refuse_then_accept);
    assert_eq!(first, Err(SendError::Nacked(NackReason::BUSY)));
    assert_eq!(second, Ok(()));
}

#[tokio::test(start_paused = true)]
async fn stale_answers_are_ignored() {
    let Session {
        handle,
        mut controller,
        ..
    } = open().await;
    let answer_late = async {
        let seq = controller.recv().await.seq;
        controller.send(seq.wrapping_sub(1), Message::Ack).await;
        controller
            .send(seq.wrapping_add(7), Message::Nack(NackReason::BUSY))
            .await;
        controller.send(seq, Message::Ack).await;
    };
    let (sent, ()) = tokio::join!(handle.send(eyes()), answer_late);
    assert_eq!(sent, Ok(()));
}

#[tokio::test(start_paused = true)]
async fn controller_events_are_acknowledged_and_delivered_once() {
    let Session {
        mut events,
        mut controller,
        ..
    } = open().await;
    let scan = Occupancy::from_squares(BoardSize::Squares32, [4, 9]).unwrap();
    controller.send(0, press()).await;
    assert_eq!(controller.recv().await, Frame::new(1, 0, Message::Ack));
    // The Ack was lost: the controller sends the same frame again.
    controller.send(0, press()).await;
    assert_eq!(controller.recv().await, Frame::new(1, 0, Message::Ack));
    controller.send(1, Message::Scan(scan)).await;
    assert_eq!(controller.recv().await, Frame::new(1, 1, Message::Ack));

    assert_eq!(events.recv().await, Some(LinkEvent::Message(press())));
    assert_eq!(
        events.recv().await,
        Some(LinkEvent::Message(Message::Scan(scan)))
    );
    assert!(events.try_recv().is_err());
}

#[tokio::test(start_paused = true)]
async fn a_slow_reader_makes_the_controller_wait_instead_of_losing_events() {
    let Session {
        mut events,
        mut controller,
        ..
    } = handshake(LinkConfig {
        event_capacity: 1,
        ..LinkConfig::default()
    })
    .await;
    let scan = Occupancy::from_squares(BoardSize::Squares32, [4, 9]).unwrap();
    controller.send(0, press()).await;
    assert_eq!(controller.recv().await, Frame::new(1, 0, Message::Ack));
    controller.send(1, Message::Scan(scan)).await;
    assert_eq!(
        controller.recv().await,
        Frame::new(1, 1, Message::Nack(NackReason::BUSY))
    );
    assert_eq!(events.recv().await, Some(LinkEvent::Message(press())));
    controller.send(2, Message::Scan(scan)).await;
    assert_eq!(controller.recv().await, Frame::new(1, 2, Message::Ack));
    assert_eq!(
        events.recv().await,
        Some(LinkEvent::Message(Message::Scan(scan)))
    );
}

#[tokio::test(start_paused = true)]
async fn the_arms_messages_go_to_the_arms_reader_and_the_rest_to_the_boards() {
    let Session {
        mut events,
        mut arm_events,
        mut controller,
        ..
    } = open().await;
    let done = Message::MotionDone { motion_id: 4 };
    let stall = Message::Fault(Fault {
        code: FaultCode::JOINT_STALL,
        subject: 1,
        active: true,
    });
    let sensor = Message::Fault(Fault {
        code: FaultCode::SENSOR,
        subject: 13,
        active: true,
    });
    for (seq, message) in [done, stall, sensor, press()].into_iter().enumerate() {
        controller.send(seq as u8, message).await;
        assert_eq!(
            controller.recv().await,
            Frame::new(1, seq as u8, Message::Ack)
        );
    }
    assert_eq!(arm_events.recv().await, Some(LinkEvent::Message(done)));
    assert_eq!(arm_events.recv().await, Some(LinkEvent::Message(stall)));
    assert_eq!(events.recv().await, Some(LinkEvent::Message(sensor)));
    assert_eq!(events.recv().await, Some(LinkEvent::Message(press())));
    assert!(events.try_recv().is_err() && arm_events.try_recv().is_err());
}

#[tokio::test(start_paused = true)]
async fn messages_the_controller_may_not_send_are_refused() {
    let Session {
        mut events,
        mut controller,
        ..
    } = open().await;
    controller.send(0, eyes()).await;
    assert_eq!(
        controller.recv().await,
        Frame::new(1, 0, Message::Nack(NackReason::WRONG_DIRECTION))
    );
    assert!(events.try_recv().is_err());
}

#[tokio::test(start_paused = true)]
async fn bad_frames_are_answered_when_intact_and_reported_either_way() {
    let Session {
        mut events,
        mut controller,
        ..
    } = open().await;
    // Noise: reported, never answered.
    controller.send_raw(&[0x13, 0x37, 0x00]).await;
    // An intact Button with `pressed` = 2: refused by its sequence number.
    let mut body = vec![1, 5, MessageType::Button.code(), 0, 2];
    let crc = hal::controller::crc16::crc16_ccitt_false(&body);
    body.extend_from_slice(&crc.to_be_bytes());
    let mut wire = Vec::new();
    hal::controller::cobs::encode(&body, &mut wire);
    wire.push(0);
    controller.send_raw(&wire).await;

    assert_eq!(
        controller.recv().await,
        Frame::new(1, 5, Message::Nack(NackReason::BAD_PAYLOAD))
    );
    assert!(matches!(events.recv().await, Some(LinkEvent::BadFrame(_))));
    assert!(matches!(
        events.recv().await,
        Some(LinkEvent::BadFrame(hal::controller::FrameError::Message {
            seq: 5,
            ..
        }))
    ));
    // The link goes on.
    controller.send(6, press()).await;
    assert_eq!(controller.recv().await, Frame::new(1, 6, Message::Ack));
}

#[tokio::test(start_paused = true)]
async fn an_idle_link_sends_heartbeats() {
    let Session {
        handle: _handle,
        mut controller,
        ..
    } = open().await;
    let start = Instant::now();
    let seq = controller.recv_type(MessageType::Heartbeat).await;
    assert_eq!(start.elapsed(), Duration::from_millis(500));
    assert_eq!(seq, 1);
    controller.send(seq, Message::Ack).await;
    let next = controller.recv_type(MessageType::Heartbeat).await;
    assert_eq!(start.elapsed(), Duration::from_secs(1));
    assert_eq!(next, 2);
}

#[tokio::test(start_paused = true)]
async fn traffic_postpones_the_heartbeat() {
    let Session {
        handle,
        mut controller,
        ..
    } = open().await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let acknowledge = async {
        let seq = controller.recv().await.seq;
        controller.send(seq, Message::Ack).await;
    };
    let (sent, ()) = tokio::join!(handle.send(eyes()), acknowledge);
    assert_eq!(sent, Ok(()));
    controller.expect_silence(Duration::from_millis(499)).await;
    controller.recv_type(MessageType::Heartbeat).await;
}

#[tokio::test(start_paused = true)]
async fn a_restarted_controller_ends_the_session() {
    let Session {
        handle,
        driver,
        mut controller,
        ..
    } = open().await;
    let refuse = async {
        let seq = controller.recv().await.seq;
        controller
            .send(seq, Message::Nack(NackReason::NOT_READY))
            .await;
    };
    let (sent, ()) = tokio::join!(handle.send(eyes()), refuse);
    assert_eq!(sent, Err(SendError::Nacked(NackReason::NOT_READY)));
    assert_eq!(sent.unwrap_err().kind(), ErrorKind::Disconnected);
    assert!(matches!(
        driver.await.unwrap(),
        Err(LinkError::ControllerRestarted)
    ));
}

#[tokio::test(start_paused = true)]
async fn a_closed_port_ends_the_session() {
    let Session {
        handle,
        driver,
        controller,
        ..
    } = open().await;
    drop(controller);
    assert!(matches!(driver.await.unwrap(), Err(LinkError::Closed)));
    assert_eq!(handle.send(eyes()).await, Err(SendError::LinkLost));
}

#[tokio::test(start_paused = true)]
async fn the_session_ends_quietly_when_nobody_uses_it() {
    let Session {
        handle,
        events,
        driver,
        mut controller,
        ..
    } = open().await;
    drop(handle);
    // Events are still read, so the link stays up and answers the controller.
    controller.send(0, press()).await;
    assert_eq!(controller.recv().await, Frame::new(1, 0, Message::Ack));
    let start = Instant::now();
    drop(events);
    assert!(matches!(driver.await.unwrap(), Ok(())));
    assert_eq!(start.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn hello_is_repeated_then_given_up() {
    let (host_io, controller_io) = duplex(4096);
    let mut controller = FakeController {
        framed: Framed::new(controller_io, ControllerCodec::new()),
    };
    let ignore = async {
        let start = Instant::now();
        for _ in 0..4 {
            controller.recv_type(MessageType::Hello).await;
        }
        assert_eq!(start.elapsed(), Duration::from_millis(300));
    };
    let (connected, ()) = tokio::join!(connect(host_io, LinkConfig::default()), ignore);
    assert!(matches!(
        connected,
        Err(LinkError::NoAnswer {
            ty: MessageType::Hello,
            sends: 4,
            ..
        })
    ));
}

#[tokio::test(start_paused = true)]
async fn hello_ignores_leftovers_of_an_earlier_session() {
    let (host_io, controller_io) = duplex(4096);
    let mut controller = FakeController {
        framed: Framed::new(controller_io, ControllerCodec::new()),
    };
    let answer = async {
        let seq = controller.recv_type(MessageType::Hello).await;
        controller.send(seq, Message::Ack).await;
        controller.send(seq, Message::Nack(NackReason::BUSY)).await;
        controller.send(seq.wrapping_add(3), press()).await;
        controller.send(seq, Message::Welcome(WELCOME)).await;
    };
    let (connected, ()) = tokio::join!(connect(host_io, LinkConfig::default()), answer);
    assert_eq!(connected.unwrap().welcome, WELCOME);
}

#[tokio::test(start_paused = true)]
async fn a_version_mismatch_is_reported_not_retried() {
    for (answer, chosen) in [
        (Message::Nack(NackReason::UNSUPPORTED_VERSION), None),
        (
            Message::Welcome(Welcome {
                version: 3,
                ..WELCOME
            }),
            Some(3),
        ),
    ] {
        let (host_io, controller_io) = duplex(4096);
        let mut controller = FakeController {
            framed: Framed::new(controller_io, ControllerCodec::new()),
        };
        let refuse = async {
            let seq = controller.recv_type(MessageType::Hello).await;
            controller.send(seq, answer).await;
        };
        let (connected, ()) = tokio::join!(connect(host_io, LinkConfig::default()), refuse);
        let error = connected.unwrap_err();
        assert!(
            matches!(error, LinkError::Version { min: 1, max: 2, chosen: c } if c == chosen),
            "{error:?}"
        );
        assert_eq!(error.kind(), ErrorKind::Protocol);
    }
}
