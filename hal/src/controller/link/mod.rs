//! The host's end of a controller session: handshake, acknowledgements, retransmission,
//! duplicate suppression and heartbeats (docs/protocol.md, sections 4 and 5), over any byte
//! stream.
//!
//! [`connect`] performs the handshake and returns a [`Connection`]: a [`LinkHandle`] that sends
//! messages and resolves when the controller accepted them, a receiver of [`LinkEvent`]s (what
//! the controller reports on its own), and the [`LinkDriver`] future that moves the bytes. The
//! caller spawns the driver, so this crate needs no runtime of its own and tests can drive it on
//! a paused clock. The driver returns when the link is lost; reconnecting means opening the port
//! again and calling [`connect`].

mod driver;
mod error;
mod handshake;

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{mpsc, oneshot};
use tokio_util::codec::Framed;

use crate::controller::codec::ControllerCodec;
use crate::controller::frame::FrameError;
use crate::controller::message::{Message, Welcome};

pub use driver::LinkDriver;
pub use error::{LinkError, SendError};

/// Timing and buffering of a session. The defaults are the protocol's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkConfig {
    /// How long to wait for an answer before sending a reliable frame again (rule A5).
    pub ack_timeout: Duration,
    /// How many times a reliable frame is sent again before the link counts as lost (A5).
    pub retransmissions: u8,
    /// How long the host may send nothing before it sends a Heartbeat.
    pub heartbeat_interval: Duration,
    /// How many controller events may wait unread; beyond that the controller is told `BUSY`
    /// and sends them again later, so a slow reader delays events instead of losing them.
    pub event_capacity: usize,
}

impl Default for LinkConfig {
    fn default() -> LinkConfig {
        LinkConfig {
            ack_timeout: Duration::from_millis(100),
            retransmissions: 3,
            heartbeat_interval: Duration::from_millis(500),
            event_capacity: 64,
        }
    }
}

/// What the controller reports without being asked, or what arrived damaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkEvent {
    /// A message from the controller (Scan, Button, `MotionDone`, Fault), already acknowledged.
    Message(Message),
    /// Bytes that were not a valid frame, for the log. The link has already answered what
    /// needed an answer and goes on.
    BadFrame(FrameError),
}

/// A live session, as [`connect`] returns it.
#[derive(Debug)]
pub struct Connection<T> {
    /// What the controller said about itself in the handshake.
    pub welcome: Welcome,
    /// Sends messages; clone it to share.
    pub handle: LinkHandle,
    /// The controller's events, in the order they arrived, except the arm's.
    pub events: mpsc::Receiver<LinkEvent>,
    /// The arm's events (`MotionDone`, and Faults with an arm code, 0x2x), kept apart so that
    /// the arm's driver waits for its motions while the board's reader is elsewhere: the two
    /// devices share one session but not one reader. Drop it when no arm is driven; the
    /// controller's arm messages are then acknowledged and dropped.
    pub arm_events: mpsc::Receiver<LinkEvent>,
    /// The future that runs the session; spawn it.
    pub driver: LinkDriver<T>,
}

/// A message waiting to be sent, with where to report its answer.
#[derive(Debug)]
struct Request {
    message: Message,
    answer: oneshot::Sender<Result<(), SendError>>,
}

/// Sends messages to the controller through the session's driver.
#[derive(Debug, Clone)]
pub struct LinkHandle {
    requests: mpsc::Sender<Request>,
}

impl LinkHandle {
    /// Sends `message` and waits until the controller accepted it (Ack) or refused it (Nack).
    ///
    /// Messages from all clones of the handle go out one at a time, in the order they were
    /// handed over. Dropping the returned future does not withdraw a message already handed
    /// over; it only stops waiting for the answer.
    pub async fn send(&self, message: Message) -> Result<(), SendError> {
        let (answer, answered) = oneshot::channel();
        self.requests
            .send(Request { message, answer })
            .await
            .map_err(|_| SendError::LinkLost)?;
        answered.await.unwrap_or(Err(SendError::LinkLost))
    }
}

/// Opens a session on a fresh byte stream: ends any partial frame the controller holds, says
/// Hello and waits for Welcome.
pub async fn connect<T>(io: T, config: LinkConfig) -> Result<Connection<T>, LinkError>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    let mut framed = Framed::new(io, ControllerCodec::new());
    let (welcome, next_seq) = handshake::hello(&mut framed, &config).await?;
    let (requests, request_queue) = mpsc::channel(16);
    let (event_sink, events) = mpsc::channel(config.event_capacity.max(1));
    let (arm_sink, arm_events) = mpsc::channel(config.event_capacity.max(1));
    Ok(Connection {
        welcome,
        handle: LinkHandle { requests },
        events,
        arm_events,
        driver: LinkDriver::new(
            framed,
            config,
            welcome.version,
            next_seq,
            request_queue,
            (event_sink, arm_sink),
        ),
    })
}
