//! The controller's end of a session (docs/protocol.md, sections 4 and 5), for simulators and
//! tests: answers Hello with Welcome, refuses everything with `NOT_READY` before it, acknowledges
//! each host frame once by its sequence number, sends its own messages reliably one at a time,
//! and drops the session when the host falls silent.
//!
//! The reference firmware logic lives here rather than in each simulator so that every simulated
//! controller speaks exactly the session rules a real firmware must follow, and the host's link
//! is tested against an independent implementation of them instead of against itself.
//!
//! What the controller *does* with a message is a [`Firmware`]'s business; [`serve`] wraps one
//! into a [`PeerDriver`] future (spawn it) and a [`PeerHandle`] for messages the controller
//! sends on its own, such as button presses.

mod driver;
mod error;
mod firmware;

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use crate::controller::codec::ControllerCodec;
use crate::controller::message::Message;

pub use driver::PeerDriver;
pub use error::PeerError;
pub use firmware::{Firmware, Outbox};

/// Timing of the controller's session. The defaults are the protocol's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerConfig {
    /// How long to wait for the host's answer before sending a frame again (rule A5).
    pub ack_timeout: Duration,
    /// How many times a frame is sent again before the session counts as lost (A5, L2).
    pub retransmissions: u8,
    /// How long the host may stay silent before the session counts as lost (L2).
    pub host_timeout: Duration,
}

impl Default for PeerConfig {
    fn default() -> PeerConfig {
        PeerConfig {
            ack_timeout: Duration::from_millis(100),
            retransmissions: 3,
            host_timeout: Duration::from_millis(1500),
        }
    }
}

/// Queues messages the controller sends on its own (Scan, Button, Fault). Clone it to share.
///
/// Messages queued while no session is open wait for the next one; a Hello discards them
/// (rule S4), because the host asks for a fresh scan after every handshake anyway.
#[derive(Debug, Clone)]
pub struct PeerHandle {
    outbox: mpsc::UnboundedSender<Message>,
}

impl PeerHandle {
    /// Queues `message` for reliable delivery. Returns `false` when the driver has ended, so a
    /// simulator can tell that nobody will ever send it.
    pub fn send(&self, message: Message) -> bool {
        self.outbox.send(message).is_ok()
    }
}

/// Serves `firmware` on a byte stream, as a controller would on its serial port.
pub fn serve<T, F>(io: T, config: PeerConfig, firmware: F) -> (PeerHandle, PeerDriver<T, F>)
where
    T: AsyncRead + AsyncWrite + Unpin,
    F: Firmware,
{
    let (outbox, queued) = mpsc::unbounded_channel();
    let framed = Framed::new(io, ControllerCodec::new());
    (
        PeerHandle { outbox },
        PeerDriver::new(framed, config, firmware, queued),
    )
}
