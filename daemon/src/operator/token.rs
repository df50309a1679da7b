//! The operator token: a secret that is compared without revealing itself by its timing and is
//! never printed, and the wrong guesses of each client, answered slowly and then not at all
//! for a while, so that guessing it is useless.
//!
//! A wrong token is answered after [`WRONG_TOKEN_DELAY`] (a sleep in the request's own task:
//! the robot's loop and every other request go on). A client address that has sent
//! [`WRONG_TOKENS_ALLOWED`] wrong tokens is refused without its token being looked at, until
//! one of them is forgiven, one every [`FORGIVEN_EVERY`]: at most ten guesses a minute, which
//! would take years against the shortest token the settings accept. Clients are told apart by
//! address (an IPv6 one by its /64, which one machine can fill with addresses), so one client's
//! guessing never locks out another; the table holds at most [`MAX_CLIENTS`] addresses, and
//! clients beyond that share one more entry.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// How long a wrong token's refusal takes.
pub const WRONG_TOKEN_DELAY: Duration = Duration::from_secs(1);
/// Wrong tokens a client may send before it must wait.
pub const WRONG_TOKENS_ALLOWED: u32 = 10;
/// One wrong token is forgiven this often.
pub const FORGIVEN_EVERY: Duration = Duration::from_secs(6);
/// The most clients whose wrong tokens are counted one by one.
pub const MAX_CLIENTS: usize = 1024;

/// The token control actions need. Its `Debug` does not show it.
#[derive(Clone)]
pub struct OperatorToken(String);

impl OperatorToken {
    /// Wraps the secret.
    pub fn new(secret: String) -> OperatorToken {
        OperatorToken(secret)
    }

    /// Whether `given` is the token, compared without stopping at the first difference.
    pub fn is(&self, given: &str) -> bool {
        let (a, b) = (given.as_bytes(), self.0.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl fmt::Debug for OperatorToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OperatorToken(..)")
    }
}

/// Who sent a request, as far as guessing goes: an address, its /64 for IPv6, or unknown (no
/// address, or beyond [`MAX_CLIENTS`]).
type Client = Option<IpAddr>;

/// One client's wrong tokens not yet forgiven, and since when the next is being forgiven.
#[derive(Debug, Clone, Copy)]
struct Strikes {
    count: u32,
    since: Instant,
}

impl Strikes {
    /// Forgives what `now` allows.
    fn forgive(&mut self, now: Instant) {
        let forgiven =
            now.saturating_duration_since(self.since).as_secs() / FORGIVEN_EVERY.as_secs();
        let forgiven = u32::try_from(forgiven).unwrap_or(u32::MAX).min(self.count);
        self.count -= forgiven;
        self.since = if self.count == 0 {
            now
        } else {
            self.since + FORGIVEN_EVERY * forgiven
        };
    }
}

/// Every client's wrong tokens.
#[derive(Debug, Default)]
pub struct WrongTokens {
    clients: Mutex<HashMap<Client, Strikes>>,
}

impl WrongTokens {
    /// How long `address` must wait before its token is looked at again; `None`: look now.
    pub fn wait(&self, address: Option<IpAddr>) -> Option<Duration> {
        let now = Instant::now();
        let mut clients = self.clients.lock().expect("the wrong tokens' table");
        let strikes = clients.get_mut(&client(address))?;
        strikes.forgive(now);
        (strikes.count >= WRONG_TOKENS_ALLOWED)
            .then(|| (strikes.since + FORGIVEN_EVERY).saturating_duration_since(now))
    }

    /// Counts a wrong token from `address`.
    pub fn strike(&self, address: Option<IpAddr>) {
        let now = Instant::now();
        let mut clients = self.clients.lock().expect("the wrong tokens' table");
        let mut key = client(address);
        if !clients.contains_key(&key) && clients.len() >= MAX_CLIENTS {
            clients.retain(|_, strikes| {
                strikes.forgive(now);
                strikes.count > 0
            });
            if clients.len() >= MAX_CLIENTS {
                key = None;
            }
        }
        let strikes = clients.entry(key).or_insert(Strikes {
            count: 0,
            since: now,
        });
        strikes.forgive(now);
        strikes.count += 1;
    }

    /// Forgets `address`'s wrong tokens: it sent the right one.
    pub fn clear(&self, address: Option<IpAddr>) {
        let mut clients = self.clients.lock().expect("the wrong tokens' table");
        clients.remove(&client(address));
    }

    /// How many clients are counted one by one.
    #[cfg(test)]
    pub fn clients(&self) -> usize {
        self.clients.lock().unwrap().len()
    }
}

/// The client `address` counts as: an IPv6 address by its /64.
fn client(address: Option<IpAddr>) -> Client {
    address.map(|address| match address.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 @ IpAddr::V4(_) => v4,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_token_is_compared_whole_and_never_printed() {
        let token = OperatorToken::new("correct-horse".to_owned());
        assert!(token.is("correct-horse"));
        assert!(!token.is("correct-hors"));
        assert!(!token.is("correct-horse!"));
        assert!(!token.is(""));
        assert!(!format!("{token:?}").contains("horse"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_guessing_client_waits_and_others_do_not() {
        let wrong = WrongTokens::default();
        let guesser = Some(ip("192.168.1.66"));
        for _ in 0..WRONG_TOKENS_ALLOWED {
            assert_eq!(wrong.wait(guesser), None);
            wrong.strike(guesser);
        }
        assert_eq!(wrong.wait(guesser), Some(FORGIVEN_EVERY));
        assert_eq!(wrong.wait(Some(ip("192.168.1.20"))), None, "another client");
        tokio::time::advance(FORGIVEN_EVERY / 2).await;
        assert_eq!(wrong.wait(guesser), Some(FORGIVEN_EVERY / 2));
        // One forgiven: one more guess, then wait again.
        tokio::time::advance(FORGIVEN_EVERY / 2).await;
        assert_eq!(wrong.wait(guesser), None);
        wrong.strike(guesser);
        assert!(wrong.wait(guesser).is_some());
        // A minute later all are forgiven.
        tokio::time::advance(FORGIVEN_EVERY * WRONG_TOKENS_ALLOWED).await;
        assert_eq!(wrong.wait(guesser), None);
    }

    #[tokio::test(start_paused = true)]
    async fn one_machines_ipv6_addresses_are_one_client() {
        let wrong = WrongTokens::default();
        for n in 0..WRONG_TOKENS_ALLOWED {
            wrong.strike(Some(ip(&format!("fd00:1:2:3::{n:x}"))));
        }
        assert!(wrong.wait(Some(ip("fd00:1:2:3::ffff"))).is_some());
        assert_eq!(wrong.wait(Some(ip("fd00:1:2:4::1"))), None);
    }

    #[tokio::test(start_paused = true)]
    async fn the_table_stays_bounded_and_clients_beyond_it_share_an_entry() {
        let wrong = WrongTokens::default();
        for n in 0..MAX_CLIENTS as u32 + 50 {
            wrong.strike(Some(IpAddr::V4(n.into())));
        }
        assert!(wrong.clients() <= MAX_CLIENTS + 1, "{}", wrong.clients());
        // The 50 beyond the table are counted together: guessing from many addresses is
        // still counted.
        assert!(wrong.wait(None).is_some());
        // Once forgiven, the table makes room again.
        tokio::time::advance(FORGIVEN_EVERY).await;
        wrong.strike(Some(ip("10.9.9.9")));
        assert!(wrong.clients() <= 2, "{}", wrong.clients());
    }
}
