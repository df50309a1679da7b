//! Another web site against a running `checkerbot sim`'s operator page, over a real socket:
//! requests as a rebinding page, a cross-site form or a guesser sends them, written byte by
//! byte (HTTP/1.0 without a `Host` too). The framing attack in a browser is in the parent
//! module (`framing.py`).

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use super::Sim;

/// An answer as it came over the socket.
#[derive(Debug)]
struct Answer {
    status: u16,
    /// The status line and headers, names in lower case.
    head: String,
    body: String,
}

/// Sends `head` (request line and headers, without the blank line) and `body`, and reads the
/// whole answer.
fn send(sim: &Sim, head: &str, body: &str) -> Answer {
    send_to(&sim.address, head, body)
}

/// [`send`] to `address`.
fn send_to(address: &str, head: &str, body: &str) -> Answer {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    Answer {
        status: head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0),
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

/// Every route, with a body its request could carry.
const ROUTES: [(&str, &str, &str); 9] = [
    ("GET", "/", ""),
    ("GET", "/page.js", ""),
    ("GET", "/api/state", ""),
    ("GET", "/api/events", ""),
    ("POST", "/api/settings", r#"{"level": 2}"#),
    ("POST", "/api/new-game", ""),
    ("POST", "/api/resign", ""),
    ("POST", "/api/park", ""),
    ("POST", "/api/voice", r#"{"category": "idle"}"#),
];

fn assert_secured(answer: &Answer, what: &str) {
    for header in [
        "content-security-policy: default-src 'none'; script-src 'self';",
        "frame-ancestors 'none'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(
            answer.head.contains(header),
            "{what}: no {header} in\n{}",
            answer.head
        );
    }
}

#[test]
fn a_rebound_or_missing_host_is_refused_on_every_route_over_a_socket() {
    let sim = Sim::start(&["--seed", "3"]);
    let port = sim.port();
    let level = sim.state()["settings"]["level"].clone();
    let hosts = [
        Some(format!("evil.example:{port}")),
        Some(format!("127.0.0.1.evil.example:{port}")),
        Some(format!("192.168.1.99:{port}")),
        Some(String::new()),
        None,
    ];
    for host in &hosts {
        for (method, path, body) in ROUTES {
            let host_line = host
                .as_ref()
                .map_or_else(String::new, |host| format!("\r\nHost: {host}"));
            let head =
                format!("{method} {path} HTTP/1.1{host_line}\r\nContent-Type: application/json");
            let answer = send(&sim, &head, body);
            let what = format!("{method} {path} for {host:?}");
            assert_eq!(answer.status, 421, "{what}: {answer:?}");
            assert!(
                answer.body.contains("operator.hostnames"),
                "{what}: {answer:?}"
            );
            assert!(
                answer.body.contains(&format!("localhost:{port}")),
                "{what}: {answer:?}"
            );
            assert_secured(&answer, &what);
        }
    }
    // HTTP/1.0, which may leave the host out.
    for (method, path, body) in ROUTES {
        let answer = send(&sim, &format!("{method} {path} HTTP/1.0"), body);
        assert_eq!(answer.status, 421, "HTTP/1.0 {method} {path}: {answer:?}");
    }
    // The request of the report: a rebound name, its own origin, a body a form can send.
    let answer = send(
        &sim,
        &format!(
            "POST /api/settings HTTP/1.1\r\nHost: evil.example:{port}\r\nOrigin: \
             http://evil.example:{port}\r\nContent-Type: text/plain"
        ),
        r#"{"level": 2}"#,
    );
    assert_eq!(answer.status, 421, "{answer:?}");
    assert_eq!(sim.state()["settings"]["level"], level, "nothing changed");
}

#[test]
fn another_sites_page_and_form_bodies_are_refused_at_the_pages_own_host() {
    let sim = Sim::start(&["--seed", "4"]);
    let port = sim.port();
    let level = sim.state()["settings"]["level"].clone();
    let at_home =
        |extra: &str| format!("POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}");
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let head = at_home(&format!(
            "Origin: {origin}\r\nContent-Type: application/json"
        ));
        let answer = send(&sim, &head, r#"{"level": 2}"#);
        assert_eq!(answer.status, 403, "from {origin}: {answer:?}");
        assert!(
            answer.body.contains("may not use the operator page"),
            "{answer:?}"
        );
        assert_secured(&answer, origin);
    }
    for (content_type, body) in [
        ("text/plain", r#"{"level": 2}"#),
        ("application/x-www-form-urlencoded", "level=2"),
        ("multipart/form-data; boundary=b", "--b\r\n\r\n2\r\n--b--"),
    ] {
        let head = at_home(&format!(
            "Origin: http://127.0.0.1:{port}\r\nContent-Type: {content_type}"
        ));
        let answer = send(&sim, &head, body);
        assert_eq!(answer.status, 415, "{content_type}: {answer:?}");
        assert!(
            answer.body.contains("Content-Type: application/json"),
            "{answer:?}"
        );
    }
    assert_eq!(sim.state()["settings"]["level"], level, "nothing changed");
    // The page itself, as a browser at localhost sends it.
    let answer = send(
        &sim,
        &at_home(&format!(
            "Origin: http://localhost:{port}\r\nContent-Type: application/json"
        ))
        .replace("Host: 127.0.0.1", "Host: localhost"),
        r#"{"level": 2}"#,
    );
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_secured(&answer, "a change of level");
    assert_eq!(sim.state()["settings"]["level"], 2);
}

#[test]
fn the_token_never_appears_in_the_log_the_events_or_the_journal() {
    const TOKEN: &str = "operator-token-e4d1c0ffee";
    const GUESS: &str = "operator-guess-0badf00d";
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("checkerbot.toml");
    std::fs::write(&config, format!("[operator]\ntoken = \"{TOKEN}\"\n")).unwrap();
    let state = dir.path().join("state");
    let events = dir.path().join("events.jsonl");
    let sim = Sim::start_at(
        "127.0.0.1:0",
        &[
            "--seed",
            "6",
            "--config",
            config.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
            "--events",
            events.to_str().unwrap(),
        ],
        "debug",
    );
    let port = sim.port();
    let control = |path: &str, token: &str, body: &str| {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: \
             application/json\r\nAuthorization: Bearer {token}"
        );
        send(&sim, &head, body)
    };
    sim.wait_for("a move and its reply, journalled", |s| {
        s["game"]["moves"]
            .as_array()
            .is_some_and(|moves| moves.len() >= 2)
    });
    let answer = control("/api/settings", TOKEN, r#"{"level": 2, "save": true}"#);
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer = control("/api/voice", TOKEN, r#"{"category": "idle"}"#);
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer = control("/api/settings", GUESS, r#"{"level": 3}"#);
    assert_eq!(answer.status, 403, "{answer:?}");
    assert!(!answer.body.contains(GUESS), "{answer:?}");
    let state_answer = sim.http("GET", "/api/state", "");
    assert_eq!(state_answer.1["token_required"], true);
    assert!(!state_answer.1.to_string().contains(TOKEN));
    sim.wait_for("the level applied", |s| s["settings"]["level"] == 2);
    let log = sim.log.lock().unwrap().join("\n");
    drop(sim);

    let mut written = vec![("the log".to_owned(), log)];
    written.push((
        "the event log".to_owned(),
        std::fs::read_to_string(&events).unwrap(),
    ));
    for entry in walk(&state) {
        let text = String::from_utf8_lossy(&std::fs::read(&entry).unwrap()).into_owned();
        written.push((entry.display().to_string(), text));
    }
    assert!(
        written.len() > 2,
        "the sim kept a journal in {}",
        state.display()
    );
    assert!(
        written[1].1.contains("\"type\":\"operator\""),
        "the event log records the operator's actions:\n{}",
        written[1].1
    );
    for (name, text) in &written {
        assert!(
            !text.is_empty() || name != "the event log",
            "{name} is empty"
        );
        for secret in [TOKEN, GUESS] {
            assert!(!text.contains(secret), "{secret} in {name}:\n{text}");
        }
    }
}

#[test]
fn on_every_interface_the_page_answers_to_this_machines_address_and_the_listed_names() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("checkerbot.toml");
    std::fs::write(
        &config,
        "[operator]\ntoken = \"operator-token-e4d1c0ffee\"\nhostnames = [\"robot.local\"]\n",
    )
    .unwrap();
    let sim = Sim::start_at(
        "0.0.0.0:0",
        &["--seed", "8", "--config", config.to_str().unwrap()],
        "warn",
    );
    let port = sim.port();
    // This machine's address on its network, as an operator on the LAN types it (the address
    // a UDP socket would send from; nothing is sent).
    let udp = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    let lan = udp
        .connect("192.0.2.1:9")
        .and_then(|()| udp.local_addr())
        .map(|address| address.ip())
        .ok()
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified());
    let state = |to: &str, host: &str| {
        send_to(to, &format!("GET /api/state HTTP/1.1\r\nHost: {host}"), "").status
    };
    let local = format!("127.0.0.1:{port}");
    for host in [format!("localhost:{port}"), format!("robot.local:{port}")] {
        assert_eq!(state(&local, &host), 200, "{host}");
    }
    for host in [
        format!("robot.example:{port}"),
        format!("10.11.12.13:{port}"),
    ] {
        assert_eq!(state(&local, &host), 421, "{host}");
    }
    let Some(lan) = lan else {
        eprintln!("no network address here: the page by this machine's address is not tried");
        return;
    };
    let at_lan = format!("{lan}:{port}");
    assert_eq!(state(&at_lan, &at_lan), 200, "{at_lan}");
    // The address is taken from the connection, not from the request: named over loopback,
    // it is not how that request reached the page.
    assert_eq!(state(&local, &at_lan), 421);
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
