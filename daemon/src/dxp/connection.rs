//! One DXP connection's messages: bytes read from the stream are cut at each NUL
//! (`engine_protocols::dxp::framing`) and parsed, messages sent are written with their NUL.

use std::io;
use std::time::Duration;

pub use engine_protocols::dxp::framing::Incoming;
use engine_protocols::dxp::framing::{self, Deframer, MAX_MESSAGE_BYTES};
use engine_protocols::dxp::message::Message;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _};
use tokio::time::{Instant, sleep_until};

/// The least time between two messages this side sends. pydraughts' client reads a message
/// per `recv` and drops whatever follows the first NUL in that read, so two messages that
/// reach it together (a back-accept and the forced move right after it) would lose the
/// second; a few milliseconds apart they arrive in separate reads.
const MIN_GAP: Duration = Duration::from_millis(20);

/// DXP messages over a byte stream.
#[derive(Debug)]
pub struct Connection<S> {
    stream: S,
    deframer: Deframer,
    at_end: bool,
    last_sent: Option<Instant>,
}

/// Whether an error means the peer is gone (it reset or closed the connection), which ends
/// the session like a clean close rather than as a failure.
fn peer_gone(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
    )
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    /// Messages over `stream`.
    pub fn new(stream: S) -> Connection<S> {
        Connection {
            stream,
            deframer: Deframer::new(),
            at_end: false,
            last_sent: None,
        }
    }

    /// The next message, `None` once the peer closed the connection. Cancel safe: bytes read
    /// are kept in the deframer, and a read is only awaited with none taken.
    pub async fn receive(&mut self) -> io::Result<Option<Incoming>> {
        let mut buffer = [0; 512];
        loop {
            if let Some(incoming) = self.deframer.next_incoming() {
                tracing::debug!("DXP received {incoming:?}");
                return Ok(Some(incoming));
            }
            if self.at_end {
                return Ok(None);
            }
            let read = match self.stream.read(&mut buffer).await {
                Ok(read) => read,
                Err(error) if peer_gone(&error) => {
                    tracing::debug!("DXP: the peer is gone: {error}");
                    0
                }
                Err(error) => return Err(error),
            };
            if read == 0 {
                self.at_end = true;
                if self.deframer.has_partial() {
                    tracing::warn!(
                        "DXP: the peer closed the connection in the middle of a message"
                    );
                }
            } else {
                self.deframer.push(&buffer[..read]);
            }
        }
    }

    /// Sends a message, at least [`MIN_GAP`] after the last one. To a peer that is gone it
    /// sends nothing, and the next [`receive`](Self::receive) says it is gone.
    pub async fn send(&mut self, message: &Message) -> io::Result<()> {
        match self.write(message).await {
            Err(error) if peer_gone(&error) => {
                tracing::debug!("DXP: the peer is gone: {error}");
                Ok(())
            }
            result => result,
        }
    }

    async fn write(&mut self, message: &Message) -> io::Result<()> {
        if let Some(last) = self.last_sent {
            sleep_until(last + MIN_GAP).await;
        }
        let text = message.to_string();
        debug_assert!(text.len() <= MAX_MESSAGE_BYTES);
        tracing::debug!("DXP sends {text}");
        self.stream.write_all(&framing::frame(&text)).await?;
        self.stream.flush().await?;
        self.last_sent = Some(Instant::now());
        Ok(())
    }

    /// Closes this side of the connection: the peer reads its end.
    pub async fn close(&mut self) -> io::Result<()> {
        self.stream.shutdown().await
    }
}
