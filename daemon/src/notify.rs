//! Telling systemd how the daemon is doing (`sd_notify`): READY when the devices are open,
//! STATUS lines an operator sees in `systemctl status`, watchdog pings from the game loop, and
//! STOPPING at shutdown. Outside systemd (`NOTIFY_SOCKET` unset) every call does nothing.

use std::os::linux::net::SocketAddrExt as _;
use std::os::unix::net::{SocketAddr, UnixDatagram};
use std::time::Duration;

/// The connection to systemd's notification socket, if the service has one.
#[derive(Debug)]
pub struct Notifier {
    socket: Option<(UnixDatagram, SocketAddr)>,
    watchdog: Option<Duration>,
}

impl Notifier {
    /// The socket and watchdog systemd passed in the environment.
    pub fn from_env() -> Notifier {
        let for_us = std::env::var("WATCHDOG_PID")
            .ok()
            .is_none_or(|pid| pid == std::process::id().to_string());
        let watchdog = std::env::var("WATCHDOG_USEC")
            .ok()
            .and_then(|usec| usec.parse::<u64>().ok())
            .filter(|_| for_us)
            .map(Duration::from_micros);
        match std::env::var("NOTIFY_SOCKET") {
            Ok(path) => Notifier::to_socket(&path, watchdog),
            Err(_) => Notifier {
                socket: None,
                watchdog,
            },
        }
    }

    /// A notifier writing to the socket at `path` (tests, and systemd's `NOTIFY_SOCKET`).
    pub fn to_socket(path: &str, watchdog: Option<Duration>) -> Notifier {
        let socket =
            Notifier::address(path).and_then(|addr| Some((UnixDatagram::unbound().ok()?, addr)));
        Notifier { socket, watchdog }
    }

    /// A path, or an abstract name written with a leading `@`.
    fn address(path: &str) -> Option<SocketAddr> {
        match path.strip_prefix('@') {
            Some(name) => SocketAddr::from_abstract_name(name.as_bytes()).ok(),
            None => SocketAddr::from_pathname(path).ok(),
        }
    }

    /// How often the watchdog must be pinged (half systemd's timeout), if it is enabled.
    pub fn watchdog_interval(&self) -> Option<Duration> {
        self.watchdog.map(|timeout| timeout / 2)
    }

    fn send(&self, message: &str) {
        if let Some((socket, addr)) = &self.socket
            && let Err(err) = socket.send_to_addr(message.as_bytes(), addr)
        {
            tracing::debug!("notifying systemd: {err}");
        }
    }

    /// The service is up: devices open, game loop about to start.
    pub fn ready(&self, status: &str) {
        self.send(&format!("READY=1\nSTATUS={status}"));
    }

    /// A line for `systemctl status`.
    pub fn status(&self, status: &str) {
        self.send(&format!("STATUS={status}"));
    }

    /// The game loop is alive.
    pub fn ping(&self) {
        if self.watchdog.is_some() {
            self.send("WATCHDOG=1");
        }
    }

    /// Shutting down: parking the arm, saving.
    pub fn stopping(&self) {
        self.send("STOPPING=1\nSTATUS=parking the arm and saving");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(socket: &UnixDatagram) -> String {
        let mut buf = [0u8; 256];
        let n = socket.recv(&mut buf).unwrap();
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    #[test]
    fn messages_reach_the_socket_in_systemds_format() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notify");
        let listener = UnixDatagram::bind(&path).unwrap();
        let notifier = Notifier::to_socket(path.to_str().unwrap(), Some(Duration::from_secs(10)));
        assert_eq!(notifier.watchdog_interval(), Some(Duration::from_secs(5)));
        notifier.ready("waiting for a game");
        assert_eq!(received(&listener), "READY=1\nSTATUS=waiting for a game");
        notifier.ping();
        assert_eq!(received(&listener), "WATCHDOG=1");
        notifier.stopping();
        assert!(received(&listener).starts_with("STOPPING=1\n"));
    }

    #[test]
    fn without_systemd_nothing_happens() {
        let notifier = Notifier {
            socket: None,
            watchdog: None,
        };
        notifier.ready("x");
        notifier.ping();
        assert_eq!(notifier.watchdog_interval(), None);
    }
}
