//! The task that runs the controller's end: one loop that answers the host, sends the
//! controller's own messages one at a time, retransmits, and notices a silent host.

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use tokio_util::codec::Framed;

use crate::controller::codec::ControllerCodec;
use crate::controller::codes::NackReason;
use crate::controller::frame::{Frame, FrameError};
use crate::controller::message::{Message, SentBy};
use crate::controller::peer::{Firmware, Outbox, PeerConfig, PeerError};

/// The controller's reliable frame waiting for the host's answer (rule A3).
#[derive(Debug, Clone, Copy)]
struct Outstanding {
    frame: Frame,
    sends: u8,
    resend_at: Instant,
}

/// Serves a controller session; await [`PeerDriver::run`] on a task of its own.
#[derive(Debug)]
pub struct PeerDriver<T, F> {
    framed: Framed<T, ControllerCodec>,
    config: PeerConfig,
    firmware: F,
    /// Messages from [`PeerHandle`](super::PeerHandle)s; `None` once every handle is gone.
    queued: Option<mpsc::UnboundedReceiver<Message>>,
    /// Messages the firmware queued while answering a command; they go before `queued`.
    outbox: Outbox,
    /// The version of the session, once a Hello has been answered with Welcome and while the
    /// session has not been lost since.
    session: Option<u8>,
    next_seq: u8,
    outstanding: Option<Outstanding>,
    /// The last host frame answered in this session and its answer (rule A6).
    last_answer: Option<Frame>,
    /// When the last valid frame arrived, for rule L2.
    last_heard: Instant,
}

impl<T, F> PeerDriver<T, F>
where
    T: AsyncRead + AsyncWrite + Unpin,
    F: Firmware,
{
    pub(super) fn new(
        framed: Framed<T, ControllerCodec>,
        config: PeerConfig,
        firmware: F,
        queued: mpsc::UnboundedReceiver<Message>,
    ) -> PeerDriver<T, F> {
        PeerDriver {
            framed,
            config,
            firmware,
            queued: Some(queued),
            outbox: Outbox::default(),
            session: None,
            next_seq: 0,
            outstanding: None,
            last_answer: None,
            last_heard: Instant::now(),
        }
    }

    /// Serves sessions one after another until the host closes the port (`Ok`) or the port
    /// fails. Lost sessions are not errors: like a firmware, the driver waits for the next Hello.
    pub async fn run(mut self) -> Result<(), PeerError> {
        loop {
            if self.session.is_some()
                && self.outstanding.is_none()
                && let Some(message) = self.outbox.pop()
            {
                self.send_new(message).await?;
                continue;
            }
            let resend_at = self.outstanding.map(|sent| sent.resend_at);
            let waiting = resend_at.is_some();
            let silent_at = self.last_heard + self.config.host_timeout;
            let may_send = self.session.is_some() && !waiting && self.queued.is_some();
            // Biased: incoming frames first, then timers, then new sends. A fixed order also
            // makes a simulation on a paused clock replay byte for byte.
            tokio::select! {
                biased;
                received = self.framed.next() => match received {
                    Some(item) => self.receive(item?).await?,
                    None => return Ok(()),
                },
                () = sleep_until(resend_at.unwrap_or(silent_at)), if waiting => {
                    self.resend().await?;
                }
                () = sleep_until(silent_at), if self.session.is_some() => self.lose_session(),
                message = recv(self.queued.as_mut()), if may_send => match message {
                    Some(message) => self.send_new(message).await?,
                    None => self.queued = None,
                },
            }
        }
    }

    /// The version of the frames the controller sends: the session's, or outside a session
    /// (answers to Hello, `NOT_READY`) its newest (rule S1).
    fn version(&self) -> u8 {
        self.session
            .unwrap_or_else(|| *self.firmware.versions().end())
    }

    fn frame(&self, seq: u8, message: Message) -> Frame {
        Frame::new(self.version(), seq, message)
    }

    async fn send_new(&mut self, message: Message) -> Result<(), PeerError> {
        let frame = self.frame(self.next_seq, message);
        self.next_seq = self.next_seq.wrapping_add(1);
        self.outstanding = Some(Outstanding {
            frame,
            sends: 1,
            resend_at: Instant::now() + self.config.ack_timeout,
        });
        self.framed.send(frame).await?;
        Ok(())
    }

    /// A host that is `BUSY` (its reader is behind) gets the message again as a new frame after
    /// one answer timeout (rule A7), so events are delayed, never lost. It waits as the
    /// outstanding frame with no send yet, which keeps later messages behind it.
    fn retry_later(&mut self, message: Message) {
        let frame = self.frame(self.next_seq, message);
        self.next_seq = self.next_seq.wrapping_add(1);
        self.outstanding = Some(Outstanding {
            frame,
            sends: 0,
            resend_at: Instant::now() + self.config.ack_timeout,
        });
    }

    /// Sends the outstanding frame again, or drops the session after the last retransmission.
    async fn resend(&mut self) -> Result<(), PeerError> {
        let Some(sent) = self.outstanding.as_mut() else {
            return Ok(());
        };
        if sent.sends > self.config.retransmissions {
            self.lose_session();
            return Ok(());
        }
        sent.sends += 1;
        sent.resend_at = Instant::now() + self.config.ack_timeout;
        let frame = sent.frame;
        self.framed.send(frame).await?;
        Ok(())
    }

    fn end_session(&mut self) {
        self.session = None;
        self.framed.codec_mut().set_version(None);
    }

    /// Forgets everything of the session (rules S4, L2).
    fn reset(&mut self) {
        self.outstanding = None;
        self.last_answer = None;
        self.outbox.clear();
        if let Some(queued) = self.queued.as_mut() {
            while queued.try_recv().is_ok() {}
        }
    }

    fn lose_session(&mut self) {
        self.end_session();
        self.reset();
        self.firmware.session_lost();
    }

    async fn receive(&mut self, item: Result<Frame, FrameError>) -> Result<(), PeerError> {
        let frame = match item {
            Ok(frame) => frame,
            Err(error) => {
                // Intact frames the controller cannot take are refused; damaged ones are not
                // answered, because their header cannot be trusted (rule F4).
                if let Some((seq, reason)) = error.nack() {
                    let refusal = self.frame(seq, Message::Nack(reason));
                    self.framed.send(refusal).await?;
                }
                return Ok(());
            }
        };
        self.last_heard = Instant::now();
        match frame.message {
            Message::Ack | Message::Nack(_) => {
                // Stale answers are ignored (rule A2).
                let Some(sent) = self.outstanding.filter(|sent| sent.frame.seq == frame.seq) else {
                    return Ok(());
                };
                self.outstanding = None;
                if frame.message == Message::Nack(NackReason::BUSY) {
                    self.retry_later(sent.frame.message);
                }
                Ok(())
            }
            Message::Welcome(_) => Ok(()),
            Message::Hello {
                min_version,
                max_version,
            } => self.hello(frame.seq, min_version, max_version).await,
            message => self.command(frame.seq, message).await,
        }
    }

    /// Every Hello starts a new session (rule S4), even a retransmitted one, in the newest
    /// version both ends speak.
    async fn hello(&mut self, seq: u8, min_version: u8, max_version: u8) -> Result<(), PeerError> {
        self.reset();
        self.next_seq = 0;
        self.end_session();
        let spoken = self.firmware.versions();
        let newest = max_version.min(*spoken.end());
        let answer = if newest >= min_version.max(*spoken.start()) {
            Message::Welcome(self.firmware.welcome(newest))
        } else {
            Message::Nack(NackReason::UNSUPPORTED_VERSION)
        };
        let answer = self.frame(seq, answer);
        self.framed.send(answer).await?;
        if let Message::Welcome(welcome) = answer.message {
            self.session = Some(welcome.version);
            self.framed.codec_mut().set_version(self.session);
        }
        Ok(())
    }

    /// Answers a reliable host frame, acting on each sequence number once (rule A6).
    async fn command(&mut self, seq: u8, message: Message) -> Result<(), PeerError> {
        if self.session.is_none() {
            let refusal = self.frame(seq, Message::Nack(NackReason::NOT_READY));
            self.framed.send(refusal).await?;
            return Ok(());
        }
        if let Some(last) = self.last_answer.filter(|last| last.seq == seq) {
            self.framed.send(last).await?;
            return Ok(());
        }
        let answer = if message.message_type().sent_by() == SentBy::Controller {
            Message::Nack(NackReason::WRONG_DIRECTION)
        } else if message == Message::Heartbeat {
            Message::Ack
        } else {
            match self.firmware.command(message, &mut self.outbox) {
                Ok(()) => Message::Ack,
                Err(reason) => Message::Nack(reason),
            }
        };
        let answer = self.frame(seq, answer);
        self.last_answer = Some(answer);
        self.framed.send(answer).await?;
        Ok(())
    }
}

/// Receives from the handles' queue; only polled while it exists.
async fn recv(queued: Option<&mut mpsc::UnboundedReceiver<Message>>) -> Option<Message> {
    match queued {
        Some(queued) => queued.recv().await,
        None => std::future::pending().await,
    }
}
