//! DXP messages over a TCP connection, on the caller's thread: every wait has a deadline (a
//! read timeout a little at a time), and every write a time limit, so that a peer that stops
//! reading or answering can never hold the robot. The bytes are cut into messages and read by
//! `engine_protocols::dxp::framing`, as `checkerbot dxp` does on its side.

use std::io::{self, Read as _, Write as _};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs as _};
use std::time::{Duration, Instant};

use engine_protocols::dxp::framing::{self, Deframer, Incoming};
use engine_protocols::dxp::message::Message;

/// How long one write may block: a peer that reads nothing fills the socket's buffers, and
/// then it is as good as gone.
const WRITE_TIME: Duration = Duration::from_secs(5);

/// The shortest read timeout: zero means none to the operating system.
const SHORTEST_WAIT: Duration = Duration::from_millis(1);

/// What a wait brought.
#[derive(Debug)]
pub(super) enum Heard {
    /// A message (or one that could not be read).
    Message(Incoming),
    /// Nothing before the deadline.
    Nothing,
    /// The peer closed the connection, or it failed: why, in words.
    Closed(String),
}

/// One connection to a DXP program.
#[derive(Debug)]
pub(super) struct Link {
    stream: TcpStream,
    address: SocketAddr,
    deframer: Deframer,
    /// Why the connection is over, once it is: the messages read before are still handed out.
    closed: Option<String>,
}

impl Link {
    /// Resolves `host` and connects to the first of its addresses that answers, each given
    /// `timeout`; the error names the address that failed last.
    pub(super) fn connect(host: &str, port: u16, timeout: Duration) -> io::Result<Link> {
        let mut failed = io::Error::new(
            io::ErrorKind::NotFound,
            format!("{host} resolves to no address"),
        );
        for address in (host, port).to_socket_addrs()? {
            match TcpStream::connect_timeout(&address, timeout) {
                Ok(stream) => {
                    // Moves are small messages that must go out at once.
                    stream.set_nodelay(true)?;
                    stream.set_write_timeout(Some(WRITE_TIME))?;
                    return Ok(Link {
                        stream,
                        address,
                        deframer: Deframer::new(),
                        closed: None,
                    });
                }
                Err(error) => failed = io::Error::new(error.kind(), format!("{address}: {error}")),
            }
        }
        Err(failed)
    }

    /// The address connected to.
    pub(super) fn address(&self) -> SocketAddr {
        self.address
    }

    /// Sends one message with its NUL.
    pub(super) fn send(&mut self, message: &Message) -> io::Result<()> {
        let text = message.to_string();
        tracing::debug!("DXP to {}: {text}", self.address);
        self.stream.write_all(&framing::frame(&text))?;
        self.stream.flush()
    }

    /// The next message the peer sent before `until`. The socket is read at least once, so an
    /// `until` already past looks at what has arrived without waiting.
    pub(super) fn receive(&mut self, until: Instant) -> Heard {
        let mut buffer = [0; 512];
        loop {
            if let Some(incoming) = self.deframer.next_incoming() {
                tracing::debug!("DXP from {}: {incoming:?}", self.address);
                return Heard::Message(incoming);
            }
            if let Some(why) = &self.closed {
                return Heard::Closed(why.clone());
            }
            let wait = until
                .saturating_duration_since(Instant::now())
                .max(SHORTEST_WAIT);
            if let Err(error) = self.stream.set_read_timeout(Some(wait)) {
                self.closed = Some(error.to_string());
                continue;
            }
            match self.stream.read(&mut buffer) {
                Ok(0) => {
                    let cut = if self.deframer.has_partial() {
                        " in the middle of a message"
                    } else {
                        ""
                    };
                    self.closed = Some(format!("it closed the connection{cut}"));
                }
                Ok(read) => self.deframer.push(&buffer[..read]),
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    if Instant::now() >= until {
                        return Heard::Nothing;
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => self.closed = Some(format!("the connection failed: {error}")),
            }
        }
    }

    /// Closes both directions: the peer reads the end of the stream at once.
    pub(super) fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}
