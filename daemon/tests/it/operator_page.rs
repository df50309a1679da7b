//! The operator page against a running `checkerbot sim`: over plain HTTP (the robot's real
//! game loop carrying out the commands), and in headless Chromium (the page shows the board,
//! updates after a move, and "New game" starts a new game; screenshots are kept under
//! `target/tmp/operator-page/`). `attacks.rs` is what another web site tries against it.

mod attacks;
mod set_up;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A watched simulation that plays on until killed, serving the page on a free port.
struct Sim {
    child: Child,
    address: String,
    /// Every line the sim wrote to stderr (its log).
    log: Arc<Mutex<Vec<String>>>,
}

impl Sim {
    fn start(extra: &[&str]) -> Sim {
        Sim::start_at("127.0.0.1:0", extra, "warn")
    }

    /// [`Sim::start`] serving the page on `bind`, with `RUST_LOG` set to `filter`.
    fn start_at(bind: &str, extra: &[&str], filter: &str) -> Sim {
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
            .args(["sim", "--operator", bind, "--games", "0", "--level", "1"])
            .args(extra)
            .env("RUST_LOG", filter)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("checkerbot sim starts");
        let stderr = child.stderr.take().unwrap();
        let (found, address) = std::sync::mpsc::channel();
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&log);
        std::thread::spawn(move || {
            let mut found = Some(found);
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("operator page on http://")
                    && let Some(found) = found.take()
                {
                    let _ = found.send(rest.trim_end_matches('/').to_owned());
                }
                lines.lock().unwrap().push(line);
            }
        });
        let Ok(address) = address.recv_timeout(Duration::from_secs(30)) else {
            let _ = child.kill();
            let said = log.lock().unwrap().join("\n");
            panic!("the sim named no operator page; it said:\n{said}");
        };
        Sim {
            child,
            address,
            log,
        }
    }

    /// The page's port.
    fn port(&self) -> &str {
        self.address.rsplit(':').next().unwrap()
    }

    /// One HTTP/1.1 request; the status and the JSON body.
    fn http(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    fn state(&self) -> Value {
        self.http("GET", "/api/state", "").1
    }

    fn wait_for(&self, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            let state = self.state();
            if check(&state) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_page_steers_the_robots_game_loop() {
    let sim = Sim::start(&["--seed", "11"]);
    let state = sim.wait_for("the visitor's first turn", |s| s["waiting"] == "visitor");
    assert_eq!(state["game"]["number"], 1);

    // Pausing stops the game where it is; going on resumes it.
    let (status, answer) = sim.http("POST", "/api/pause", "");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(sim.state()["waiting"], "paused");
    let (status, answer) = sim.http("POST", "/api/pause", "");
    assert_eq!(status, 409, "pausing twice: {answer}");
    let (status, answer) = sim.http("POST", "/api/go-on", "");
    assert_eq!(status, 200, "{answer}");

    // Settings apply like a reload; a level out of range is refused and changes nothing.
    let (status, answer) = sim.http("POST", "/api/settings", r#"{"level": 9}"#);
    assert_eq!(status, 400, "{answer}");
    assert_eq!(sim.state()["settings"]["level"], 1);
    let (status, answer) = sim.http(
        "POST",
        "/api/settings",
        r#"{"level": 2, "attitude": "rival"}"#,
    );
    assert_eq!(status, 200, "{answer}");
    let state = sim.state();
    assert_eq!(state["settings"]["level"], 2);
    assert_eq!(state["settings"]["attitude"], "rival");
    // The adaptive level is chosen by name, and shown so.
    let (status, answer) = sim.http("POST", "/api/settings", r#"{"level": "adaptive"}"#);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(sim.state()["settings"]["level"], "adaptive");

    // A test line is said (and shown with the other lines).
    let (status, answer) = sim.http("POST", "/api/voice", r#"{"category": "idle"}"#);
    assert_eq!(status, 200, "{answer}");
    assert!(!sim.state()["voice"].as_array().unwrap().is_empty());

    // At the visitor's turn, their last move and the robot's reply are taken back; the people
    // put the pieces back. The arm parks when it is not moving.
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let before = sim.wait_for("the visitor's turn after a reply", |s| {
            s["waiting"] == "visitor" && s["game"]["moves"].as_array().unwrap().len() >= 2
        });
        let (status, answer) = sim.http("POST", "/api/take-back", "");
        if status == 200 {
            // The page lists the last moves with their ply numbers.
            let plies = |state: &Value| {
                state["game"]["moves"]
                    .as_array()
                    .unwrap()
                    .last()
                    .map_or(0, |m| m["ply"].as_u64().unwrap())
            };
            assert_eq!(plies(&sim.state()), plies(&before) - 2);
            break;
        }
        assert_eq!(status, 409, "{answer}");
        assert!(
            Instant::now() < deadline,
            "never at the visitor's turn: {answer}"
        );
    }
    let deadline = Instant::now() + Duration::from_mins(1);
    while sim.http("POST", "/api/park", "").0 != 200 {
        assert!(Instant::now() < deadline, "the arm never parked");
        std::thread::sleep(Duration::from_millis(200));
    }

    // The robot resigns at the visitor's turn; game 1 ends 1-0 or 0-1 for the visitor.
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let (status, answer) = sim.http("POST", "/api/resign", "");
        if status == 200 {
            break;
        }
        assert_eq!(status, 409, "{answer}");
        assert!(
            Instant::now() < deadline,
            "the robot never let go: {answer}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let state = sim.wait_for("game 1 to be over", |s| s["game"]["result"].is_string());
    let robot = state["game"]["robot"].as_str().unwrap().to_owned();
    let visitor_won = if robot == "white" { "0-1" } else { "1-0" };
    assert_eq!(state["game"]["result"], visitor_won, "{state}");
    assert_eq!(state["today"]["visitor_wins"], 1);
    // The simulated people set the board up again: game 2 starts.
    sim.wait_for("game 2", |s| s["game"]["number"] == 2);
}

#[test]
fn the_page_in_headless_chromium() {
    let sim = Sim::start(&["--seed", "5"]);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("operator-page");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/browser/operator_page.py"
    );
    let output = Command::new("python3")
        .arg(script)
        .arg(format!("http://{}/", sim.address))
        .arg(&out)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "the browser test failed:\n{text}");
    for shot in [
        "operator-desktop.png",
        "operator-new-game.png",
        "operator-phone.png",
    ] {
        let png = std::fs::read(out.join(shot)).expect(shot);
        assert!(png.starts_with(b"\x89PNG"), "{shot} is a PNG");
    }
}

#[test]
fn the_page_cannot_be_framed_by_another_site_in_headless_chromium() {
    let sim = Sim::start(&["--seed", "7"]);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("operator-framing");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/framing.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(format!("http://{}/", sim.address))
        .arg(&out)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "the browser test failed:\n{text}");
    assert!(
        text.contains("control: a frame of the test site's own page shows"),
        "{text}"
    );
    let png = std::fs::read(out.join("framed.png")).expect("framed.png");
    assert!(png.starts_with(b"\x89PNG"), "framed.png is a PNG");
}
