//! A name the operator page is reached by, as a browser writes it in a request's `Host` header:
//! a host name or an IP address, and maybe a port (`robot.local`, `192.168.1.20:8080`,
//! `[fd00::5]:8080`). The settings' `operator.hostnames` are read with it, and so is every
//! request's `Host`, so both are compared in one normal form.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};

/// The longest host name DNS allows, in characters (without a final dot).
const MAX_NAME_LEN: usize = 253;
/// The longest part between two dots.
const MAX_LABEL_LEN: usize = 63;

/// A host and maybe a port, in normal form: a name in lower case without a final dot, an IP
/// address as Rust writes it (an IPv6 one in brackets when displayed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostName {
    host: Host,
    port: Option<u16>,
}

/// The host part: a name or an address.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    Name(String),
    Address(IpAddr),
}

/// Why a text is not a host name; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostNameError {
    /// Nothing written.
    #[error("is empty; write a name such as \"robot.local\"")]
    Empty,
    /// `http://robot.local`.
    #[error(
        "starts with a scheme; write the name alone, such as \"robot.local\", without `http://`"
    )]
    Scheme,
    /// `robot.local/page`, `user@robot.local`.
    #[error("holds a path or a user; write the name alone, such as \"robot.local\"")]
    Path,
    /// `*.local`.
    #[error("holds a wildcard; list each name the operator types")]
    Wildcard,
    /// `robot.local:http`, `robot.local:0`.
    #[error("has a port that is not a whole number from 1 to 65535")]
    Port,
    /// `::1` without brackets.
    #[error("is an IPv6 address without brackets; write it as \"[fd00::5]\" or \"[fd00::5]:8080\"")]
    UnbracketedIpv6,
    /// `[robot]`.
    #[error("is not an IPv6 address between its brackets")]
    Ipv6,
    /// `robot local`, `-robot`, a part longer than 63 characters.
    #[error(
        "is not a host name: letters, digits and hyphens in parts of at most 63 characters \
         joined by dots, such as \"robot.local\", or an IP address"
    )]
    Name,
}

impl HostName {
    /// Reads `host`, `host:port`, `address`, `address:port` or `[ipv6]:port`.
    pub fn parse(text: &str) -> Result<HostName, HostNameError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(HostNameError::Empty);
        }
        if text.contains("://") {
            return Err(HostNameError::Scheme);
        }
        if text.contains(['/', '@', '?', '#']) {
            return Err(HostNameError::Path);
        }
        if text.contains('*') {
            return Err(HostNameError::Wildcard);
        }
        let (host, port) = split_port(text)?;
        let port = port.map(parse_port).transpose()?;
        Ok(HostName { host, port })
    }

    /// The same host with `port`.
    #[must_use]
    pub fn with_port(&self, port: u16) -> HostName {
        HostName {
            host: self.host.clone(),
            port: Some(port),
        }
    }

    /// The host without its port.
    #[must_use]
    pub fn without_port(&self) -> HostName {
        HostName {
            host: self.host.clone(),
            port: None,
        }
    }

    /// A host that is this IP address.
    pub fn from_ip(address: IpAddr, port: Option<u16>) -> HostName {
        HostName {
            host: Host::Address(address.to_canonical()),
            port,
        }
    }

    /// The port, when one is written.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The IP address, when the host is one rather than a name.
    pub fn ip(&self) -> Option<IpAddr> {
        match self.host {
            Host::Address(address) => Some(address),
            Host::Name(_) => None,
        }
    }
}

impl fmt::Display for HostName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            Host::Name(name) => f.write_str(name)?,
            Host::Address(IpAddr::V4(address)) => write!(f, "{address}")?,
            Host::Address(IpAddr::V6(address)) => write!(f, "[{address}]")?,
        }
        match self.port {
            Some(port) => write!(f, ":{port}"),
            None => Ok(()),
        }
    }
}

/// The host and the port's text, if any.
fn split_port(text: &str) -> Result<(Host, Option<&str>), HostNameError> {
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']').ok_or(HostNameError::Ipv6)?;
        let address: Ipv6Addr = inside.parse().map_err(|_| HostNameError::Ipv6)?;
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or(HostNameError::Port)?),
        };
        return Ok((Host::Address(IpAddr::V6(address).to_canonical()), port));
    }
    if text.matches(':').count() > 1 {
        return Err(HostNameError::UnbracketedIpv6);
    }
    let (host, port) = match text.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (text, None),
    };
    if let Ok(address) = host.parse::<IpAddr>() {
        return Ok((Host::Address(address), port));
    }
    Ok((Host::Name(name(host)?), port))
}

/// A DNS name in lower case without its final dot.
fn name(text: &str) -> Result<String, HostNameError> {
    let name = text.strip_suffix('.').unwrap_or(text).to_ascii_lowercase();
    let label_ok = |label: &str| {
        (1..=MAX_LABEL_LEN).contains(&label.len())
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    if name.is_empty() || name.len() > MAX_NAME_LEN || !name.split('.').all(label_ok) {
        return Err(HostNameError::Name);
    }
    Ok(name)
}

fn parse_port(text: &str) -> Result<u16, HostNameError> {
    match text.parse::<u16>() {
        Ok(port) if port > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(port),
        _ => Err(HostNameError::Port),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        HostName::parse(text).map_or_else(|err| format!("error: {err}"), |h| h.to_string())
    }

    #[test]
    fn names_and_addresses_are_read_in_one_normal_form() {
        for (written, normal) in [
            ("robot.local", "robot.local"),
            ("Robot.LOCAL.", "robot.local"),
            ("robot.local:8080", "robot.local:8080"),
            ("localhost", "localhost"),
            ("127.0.0.1:8080", "127.0.0.1:8080"),
            ("[::1]:8080", "[::1]:8080"),
            ("[0:0::1]", "[::1]"),
            ("[::ffff:192.168.1.5]:80", "192.168.1.5:80"),
            ("127.0.0.1.evil.example", "127.0.0.1.evil.example"),
        ] {
            assert_eq!(shown(written), normal, "{written}");
        }
    }

    #[test]
    fn what_is_not_a_host_name_says_what_to_write() {
        for (written, said) in [
            ("", "is empty"),
            ("http://robot.local", "without `http://`"),
            ("robot.local/", "the name alone"),
            ("user@robot.local", "the name alone"),
            ("*.local", "wildcard"),
            ("robot.local:http", "port"),
            ("robot.local:0", "port"),
            ("robot.local:65536", "port"),
            ("robot.local:+80", "port"),
            ("::1", "brackets"),
            ("[robot]", "IPv6"),
            ("[::1", "IPv6"),
            ("robot local", "not a host name"),
            ("-robot.local", "not a host name"),
            ("robot..local", "not a host name"),
            ("robot_1.local", "not a host name"),
            (&"a".repeat(64), "not a host name"),
        ] {
            let text = shown(written);
            assert!(text.contains(said), "{written:?}: {text}");
        }
    }

    #[test]
    fn ports_can_be_set_and_dropped() {
        let host = HostName::parse("robot.local").unwrap();
        assert_eq!(host.port(), None);
        assert_eq!(host.with_port(80).to_string(), "robot.local:80");
        assert_eq!(host.with_port(80).without_port(), host);
        assert_eq!(
            HostName::from_ip("::1".parse().unwrap(), Some(8080)).to_string(),
            "[::1]:8080"
        );
    }
}
