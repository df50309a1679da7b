//! The task that runs a session after the handshake: one loop that reads frames, answers the
//! controller, sends the host's messages one at a time, retransmits and keeps the link alive.

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::sync::oneshot;
use tokio::time::{Instant, sleep_until};
use tokio_util::codec::Framed;

use crate::controller::codec::ControllerCodec;
use crate::controller::codes::NackReason;
use crate::controller::frame::{Frame, FrameError};
use crate::controller::link::{LinkConfig, LinkError, LinkEvent, Request, SendError};
use crate::controller::message::{Message, SentBy};

/// The reliable frame waiting for its answer (rule A3: one at a time).
#[derive(Debug)]
struct Outstanding {
    frame: Frame,
    sends: u8,
    resend_at: Instant,
    /// Where the answer goes; `None` for the driver's own Heartbeats.
    answer: Option<oneshot::Sender<Result<(), SendError>>>,
}

impl Outstanding {
    fn finish(self, result: Result<(), SendError>) {
        if let Some(answer) = self.answer {
            // The sender may have stopped waiting; the message was delivered all the same.
            let _ = answer.send(result);
        }
    }
}

/// Runs a session; await [`LinkDriver::run`] on a task of its own.
#[derive(Debug)]
pub struct LinkDriver<T> {
    framed: Framed<T, ControllerCodec>,
    config: LinkConfig,
    /// The protocol version the handshake agreed on, carried by every frame the host sends.
    version: u8,
    next_seq: u8,
    requests: mpsc::Receiver<Request>,
    events: mpsc::Sender<LinkEvent>,
    /// Where the arm's messages go ([`is_arm_message`]).
    arm_events: mpsc::Sender<LinkEvent>,
    outstanding: Option<Outstanding>,
    /// The last reliable frame from the controller that was answered, and the answer (A6).
    last_answer: Option<Frame>,
    /// When the host last sent a reliable frame, for the heartbeat.
    last_sent: Instant,
}

impl<T> LinkDriver<T>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    pub(super) fn new(
        framed: Framed<T, ControllerCodec>,
        config: LinkConfig,
        version: u8,
        next_seq: u8,
        requests: mpsc::Receiver<Request>,
        (events, arm_events): (mpsc::Sender<LinkEvent>, mpsc::Sender<LinkEvent>),
    ) -> LinkDriver<T> {
        LinkDriver {
            framed,
            config,
            version,
            next_seq,
            requests,
            events,
            arm_events,
            outstanding: None,
            last_answer: None,
            last_sent: Instant::now(),
        }
    }

    /// Runs the session until it is lost (an error) or every [`LinkHandle`] and the event
    /// receiver are gone (`Ok`). A message in flight when the link is lost is answered with
    /// [`SendError::LinkLost`].
    ///
    /// [`LinkHandle`]: crate::controller::link::LinkHandle
    pub async fn run(mut self) -> Result<(), LinkError> {
        let mut senders_left = true;
        loop {
            let resend_at = self.outstanding.as_ref().map(|sent| sent.resend_at);
            let heartbeat_at = self.last_sent + self.config.heartbeat_interval;
            let idle = resend_at.is_none();
            // Only polled while a frame is outstanding, so the fallback never fires.
            let resend_at = resend_at.unwrap_or(heartbeat_at);
            // Biased: incoming frames first, then timers, then new sends. A fixed order also
            // makes a simulation on a paused clock replay byte for byte.
            tokio::select! {
                biased;
                received = self.framed.next() => match received {
                    Some(item) => self.receive(item?).await?,
                    None => return Err(LinkError::Closed),
                },
                () = sleep_until(resend_at), if !idle => {
                    self.resend().await?;
                }
                request = self.requests.recv(), if idle && senders_left => match request {
                    Some(Request { message, answer }) => {
                        self.send_new(message, Some(answer)).await?;
                    }
                    // Events may still be read: the link stays up for them.
                    None => senders_left = false,
                },
                () = sleep_until(heartbeat_at), if idle => {
                    self.send_new(Message::Heartbeat, None).await?;
                }
                () = self.events.closed(), if !senders_left => return Ok(()),
            }
        }
    }

    async fn send_new(
        &mut self,
        message: Message,
        answer: Option<oneshot::Sender<Result<(), SendError>>>,
    ) -> Result<(), LinkError> {
        let frame = Frame::new(self.version, self.next_seq, message);
        self.next_seq = self.next_seq.wrapping_add(1);
        let now = Instant::now();
        self.outstanding = Some(Outstanding {
            frame,
            sends: 1,
            resend_at: now + self.config.ack_timeout,
            answer,
        });
        self.last_sent = now;
        self.framed.send(frame).await?;
        Ok(())
    }

    /// Sends the outstanding frame again, or gives the link up after the last retransmission.
    async fn resend(&mut self) -> Result<(), LinkError> {
        let Some(sent) = self.outstanding.as_mut() else {
            return Ok(());
        };
        if sent.sends > self.config.retransmissions {
            let sent = self.outstanding.take().expect("checked above");
            let error = LinkError::NoAnswer {
                ty: sent.frame.message.message_type(),
                seq: sent.frame.seq,
                sends: sent.sends,
            };
            sent.finish(Err(SendError::LinkLost));
            return Err(error);
        }
        sent.sends += 1;
        let now = Instant::now();
        sent.resend_at = now + self.config.ack_timeout;
        self.last_sent = now;
        let frame = sent.frame;
        self.framed.send(frame).await?;
        Ok(())
    }

    async fn receive(&mut self, item: Result<Frame, FrameError>) -> Result<(), LinkError> {
        let frame = match item {
            Ok(frame) => frame,
            Err(error) => {
                if let Some((seq, reason)) = error.nack() {
                    self.answer(seq, Message::Nack(reason)).await?;
                }
                // Diagnostics only: when the reader is behind, dropping them is harmless.
                let _ = self.events.try_send(LinkEvent::BadFrame(error));
                return Ok(());
            }
        };
        match frame.message {
            Message::Ack => self.answered(frame.seq, Ok(())),
            Message::Nack(reason) => self.answered(frame.seq, Err(SendError::Nacked(reason))),
            // A Welcome after the handshake answers a Hello of an earlier session.
            Message::Welcome(_) => Ok(()),
            message => self.receive_reliable(frame.seq, message).await,
        }
    }

    /// Settles the outstanding frame if `seq` answers it; other answers are stale (rule A2).
    fn answered(&mut self, seq: u8, result: Result<(), SendError>) -> Result<(), LinkError> {
        if self
            .outstanding
            .as_ref()
            .is_none_or(|sent| sent.frame.seq != seq)
        {
            return Ok(());
        }
        let sent = self.outstanding.take().expect("checked above");
        sent.finish(result);
        if result == Err(SendError::Nacked(NackReason::NOT_READY)) {
            return Err(LinkError::ControllerRestarted);
        }
        Ok(())
    }

    /// Answers a reliable frame from the controller, once per sequence number (rule A6).
    async fn receive_reliable(&mut self, seq: u8, message: Message) -> Result<(), LinkError> {
        if let Some(last) = self.last_answer.filter(|last| last.seq == seq) {
            self.framed.send(last).await?;
            return Ok(());
        }
        let answer = if message.message_type().sent_by() == SentBy::Controller {
            let events = if is_arm_message(&message) {
                &self.arm_events
            } else {
                &self.events
            };
            match events.try_send(LinkEvent::Message(message)) {
                // Nobody listens: accept, so the controller does not repeat it for ever.
                Ok(()) | Err(TrySendError::Closed(_)) => Message::Ack,
                Err(TrySendError::Full(_)) => Message::Nack(NackReason::BUSY),
            }
        } else {
            Message::Nack(NackReason::WRONG_DIRECTION)
        };
        self.answer(seq, answer).await
    }

    async fn answer(&mut self, seq: u8, answer: Message) -> Result<(), LinkError> {
        let frame = Frame::new(self.version, seq, answer);
        self.last_answer = Some(frame);
        self.framed.send(frame).await?;
        Ok(())
    }
}

/// Whether a controller message is the arm's business: a motion finished, or a fault of the
/// pump or a joint (codes 0x20 to 0x2F).
pub(crate) fn is_arm_message(message: &Message) -> bool {
    match message {
        Message::MotionDone { .. } => true,
        Message::Fault(fault) => fault.code.0 & 0xF0 == 0x20,
        _ => false,
    }
}
