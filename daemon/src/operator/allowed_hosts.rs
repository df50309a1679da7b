//! The names the operator page is served as. A browser names the host it thinks it talks to in
//! every request's `Host` and in a control's `Origin`; a web site that rebinds its own name to
//! this machine (DNS rebinding) still writes its own name there, so a request naming a host the
//! page is not served as is refused. An IP address cannot be rebound: one that is this
//! machine's, as the request reached it, is always accepted.

use std::net::SocketAddr;

use checkerbot_config::HostName;

/// The hosts a request may name, each with its port.
#[derive(Debug, Clone)]
pub struct AllowedHosts {
    /// Every host with its port, in the order the refusal names them.
    hosts: Vec<HostName>,
}

impl AllowedHosts {
    /// The hosts of a page listening on `listening`: its address (unless it is every
    /// interface's), the loopback names when it listens on loopback or on every interface, and
    /// `configured` (`operator.hostnames`; without a port, the page's).
    pub fn new(listening: SocketAddr, configured: &[HostName]) -> AllowedHosts {
        let port = listening.port();
        let ip = listening.ip().to_canonical();
        let mut hosts = Vec::new();
        if !ip.is_unspecified() {
            hosts.push(HostName::from_ip(ip, Some(port)));
        }
        if ip.is_loopback() || ip.is_unspecified() {
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                let host = HostName::parse(name).expect("a loopback name");
                hosts.push(host.with_port(port));
            }
        }
        for name in configured {
            hosts.push(
                name.port()
                    .map_or_else(|| name.with_port(port), |_| name.clone()),
            );
        }
        let mut unique: Vec<HostName> = Vec::with_capacity(hosts.len());
        for host in hosts {
            if !unique.contains(&host) {
                unique.push(host);
            }
        }
        AllowedHosts { hosts: unique }
    }

    /// Whether `host`, on `default_port` when it names none (80 for `Host` and `http`, 443 for
    /// `https`), is this page reached over a connection to `local` (when known).
    pub fn allows(&self, host: &HostName, default_port: u16, local: Option<SocketAddr>) -> bool {
        let host = host.with_port(host.port().unwrap_or(default_port));
        if self.hosts.contains(&host) {
            return true;
        }
        // The address the request reached, typed by an operator on the network.
        local.is_some_and(|local| {
            host.ip() == Some(local.ip().to_canonical()) && host.port() == Some(local.port())
        })
    }

    /// The hosts, for a refusal: `127.0.0.1:8080, localhost:8080, [::1]:8080`.
    pub fn names(&self) -> String {
        let names: Vec<String> = self.hosts.iter().map(ToString::to_string).collect();
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(text: &str) -> HostName {
        HostName::parse(text).unwrap()
    }

    fn allowed(bind: &str, configured: &[&str]) -> AllowedHosts {
        let configured: Vec<HostName> = configured.iter().map(|name| host(name)).collect();
        AllowedHosts::new(bind.parse().unwrap(), &configured)
    }

    #[test]
    fn on_loopback_the_loopback_names_with_the_port_are_the_page() {
        let hosts = allowed("127.0.0.1:8080", &[]);
        for name in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST.:8080",
            "[::1]:8080",
        ] {
            assert!(hosts.allows(&host(name), 80, None), "{name}");
        }
        for name in [
            "evil.example:8080",
            "127.0.0.1.evil.example:8080",
            "localhost.evil.example:8080",
            "192.168.1.20:8080",
            "127.0.0.1:9090",
            "localhost",
        ] {
            assert!(!hosts.allows(&host(name), 80, None), "{name}");
        }
        assert_eq!(hosts.names(), "127.0.0.1:8080, localhost:8080, [::1]:8080");
    }

    #[test]
    fn on_ipv6_loopback_the_same_names_are_the_page() {
        let hosts = allowed("[::1]:8080", &[]);
        for name in [
            "[::1]:8080",
            "[0:0:0:0:0:0:0:1]:8080",
            "localhost:8080",
            "127.0.0.1:8080",
        ] {
            assert!(hosts.allows(&host(name), 80, None), "{name}");
        }
        assert!(!hosts.allows(&host("[fd00::5]:8080"), 80, None));
        assert_eq!(hosts.names(), "[::1]:8080, localhost:8080, 127.0.0.1:8080");
    }

    #[test]
    fn configured_names_take_the_pages_port_unless_they_name_one() {
        let hosts = allowed("127.0.0.1:8080", &["robot.local", "robot.example:443"]);
        assert!(hosts.allows(&host("robot.local:8080"), 80, None));
        assert!(!hosts.allows(&host("robot.local"), 80, None));
        assert!(hosts.allows(&host("robot.example"), 443, None));
        assert!(!hosts.allows(&host("robot.example:8080"), 80, None));
        // Port 80 is the one a Host without a port means.
        let on_80 = allowed("127.0.0.1:80", &["robot.local"]);
        assert!(on_80.allows(&host("robot.local"), 80, None));
    }

    #[test]
    fn on_every_interface_the_address_a_request_reached_is_the_page() {
        let hosts = allowed("0.0.0.0:8080", &[]);
        let local = Some("192.168.1.20:8080".parse().unwrap());
        assert!(hosts.allows(&host("192.168.1.20:8080"), 80, local));
        assert!(hosts.allows(&host("localhost:8080"), 80, local));
        // Another machine's address, or this one's on another port, is not.
        assert!(!hosts.allows(&host("192.168.1.21:8080"), 80, local));
        assert!(!hosts.allows(&host("192.168.1.20:8081"), 80, local));
        // A name is never taken for the address: it could be rebound.
        assert!(!hosts.allows(&host("robot.local:8080"), 80, local));
        // Over IPv6 on both stacks, an IPv4 client's address comes mapped.
        let mapped = Some("[::ffff:192.168.1.20]:8080".parse().unwrap());
        let dual = allowed("[::]:8080", &[]);
        assert!(dual.allows(&host("192.168.1.20:8080"), 80, mapped));
        assert_eq!(hosts.names(), "localhost:8080, 127.0.0.1:8080, [::1]:8080");
    }

    #[test]
    fn on_a_network_address_loopback_names_are_not_the_page() {
        let hosts = allowed("192.168.1.20:8080", &[]);
        assert!(hosts.allows(&host("192.168.1.20:8080"), 80, None));
        assert!(!hosts.allows(&host("localhost:8080"), 80, None));
        assert_eq!(hosts.names(), "192.168.1.20:8080");
    }
}
