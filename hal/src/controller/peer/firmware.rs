//! What a simulated controller does with the host's messages, apart from the session rules.

use std::collections::VecDeque;
use std::ops::RangeInclusive;

use crate::controller::codes::NackReason;
use crate::controller::message::{Message, Welcome};

/// Messages a [`Firmware`] wants to send in reply to a command, after its Ack (a Scan after a
/// `ScanRequest`). They join the driver's queue and go out reliably, in order.
#[derive(Debug, Default)]
pub struct Outbox {
    queued: VecDeque<Message>,
}

impl Outbox {
    /// Queues a message to send after the current answer.
    pub fn send(&mut self, message: Message) {
        self.queued.push_back(message);
    }

    pub(super) fn pop(&mut self) -> Option<Message> {
        self.queued.pop_front()
    }

    pub(super) fn clear(&mut self) {
        self.queued.clear();
    }
}

/// The hardware behind a controller: the session driver calls it for every new host command and
/// sends the answer it gives.
///
/// Calls are synchronous because a firmware must answer within 20 ms (rule A4): it decides at
/// once whether it accepts a command, and anything slow (a motion, a scan) reports later through
/// the [`Outbox`] or a [`PeerHandle`](super::PeerHandle).
pub trait Firmware {
    /// The protocol versions this firmware speaks; the session driver agrees on the newest one
    /// the host also speaks.
    fn versions(&self) -> RangeInclusive<u8>;

    /// A session in `version` (one of [`versions`](Firmware::versions)) starts: what the
    /// controller says about itself in its Welcome, which carries that version. Whatever the
    /// last session showed (lights) is cleared here.
    fn welcome(&mut self, version: u8) -> Welcome;

    /// Acts on a new command from the host: `Ok` is answered with Ack, `Err` with a Nack of that
    /// reason. Heartbeats, retransmissions and messages only a controller sends never get here.
    fn command(&mut self, message: Message, outbox: &mut Outbox) -> Result<(), NackReason>;

    /// The session ended (host silent, or a frame unanswered): make the hardware safe (rule L2).
    fn session_lost(&mut self);
}
