//! `checkerbot sim-devices` as a test fixture: the simulated board controller and virtual
//! Dobot on pseudo-terminals, a state directory holding the calibration that matches them, and
//! a settings file pointing at both.

#![allow(dead_code, reason = "each test file uses a part")]

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Lines a child process writes, read on a thread so a test can wait with a time limit.
pub struct Lines {
    receiver: mpsc::Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl Lines {
    /// Starts reading `stream`.
    pub fn read(stream: impl std::io::Read + Send + 'static) -> Lines {
        let (send, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            receiver,
            seen: Vec::new(),
        }
    }

    /// The next line that satisfies `wanted`, or a panic showing what came after `limit`.
    pub fn wait_for(&mut self, limit: Duration, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.receiver.recv_timeout(left) else {
                panic!(
                    "nothing wanted within {limit:?}; the output was:\n{}",
                    self.seen.join("\n")
                )
            };
            self.seen.push(line.clone());
            if wanted(&line) {
                return line;
            }
        }
    }

    /// Reads whatever arrives within `limit`.
    pub fn drain(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while let Ok(line) = self
            .receiver
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line);
        }
    }
}

/// The simulated devices, running until dropped.
pub struct SimDevices {
    child: Child,
    stdin: ChildStdin,
    output: Lines,
    /// Holds the links, the state directory and the settings.
    pub dir: tempfile::TempDir,
    /// The settings file pointing at the devices and the state directory.
    pub config: PathBuf,
}

impl SimDevices {
    /// Starts the devices; `settings` is added to the settings file (TOML sections other than
    /// `[paths]` and `[devices]`).
    pub fn start(settings: &str) -> SimDevices {
        SimDevices::start_with_arm(settings, "dobot")
    }

    /// [`SimDevices::start`] with the arm `sim-devices --arm` names: `dobot` on its own port,
    /// or `controller`, the board controller's own (the settings say `devices.arm =
    /// "controller"`).
    pub fn start_with_arm(settings: &str, arm_kind: &str) -> SimDevices {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        std::fs::create_dir(&state).unwrap();
        let (board, arm) = (dir.path().join("board"), dir.path().join("arm"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
            .arg("sim-devices")
            .args(["--arm", arm_kind])
            .arg("--board-link")
            .arg(&board)
            .arg("--arm-link")
            .arg(&arm)
            .arg("--calibration")
            .arg(state.join("calibration.toml"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("checkerbot sim-devices starts");
        let stdin = child.stdin.take().unwrap();
        let mut output = Lines::read(child.stdout.take().unwrap());
        output.wait_for(Duration::from_secs(20), |line| line.starts_with("ready"));
        let config = dir.path().join("checkerbot.toml");
        std::fs::write(
            &config,
            format!(
                "{settings}\n[paths]\nstate_dir = \"{}\"\n[devices]\narm = \"{arm_kind}\"\n\
                 board_port = \"{}\"\narm_port = \"{}\"\n",
                state.display(),
                board.display(),
                arm.display()
            ),
        )
        .unwrap();
        SimDevices {
            child,
            stdin,
            output,
            dir,
            config,
        }
    }

    /// The state directory.
    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    /// The board controller's port.
    pub fn board_port(&self) -> PathBuf {
        self.dir.path().join("board")
    }

    /// Does `action` with the people's hands (`setup`, `move c3 d4`, `press`, `show`) and
    /// returns the answer.
    pub fn act(&mut self, action: &str) -> String {
        writeln!(self.stdin, "{action}").unwrap();
        self.stdin.flush().unwrap();
        let answer = self.output.wait_for(Duration::from_secs(10), |_| true);
        assert!(!answer.starts_with("error"), "{action}: {answer}");
        answer
    }
}

impl Drop for SimDevices {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `checkerbot` with `args` to the end; returns its exit status and stdout.
pub fn checkerbot(args: &[&str], config: &Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .expect("checkerbot runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Runs a `checkerbot sim` `command` that writes its events to `events`, to the end; it must
/// succeed (else its stderr is the failure). Returns its stdout and the event log, an entry a
/// line.
pub fn sim_events(mut command: Command, events: &Path) -> (String, Vec<serde_json::Value>) {
    let output = command.output().expect("checkerbot runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let log = std::fs::read_to_string(events)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    (String::from_utf8_lossy(&output.stdout).into_owned(), log)
}

/// An event's `type`.
pub fn kind(entry: &serde_json::Value) -> &str {
    entry["type"].as_str().unwrap()
}
