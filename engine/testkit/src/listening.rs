//! A server under test in a process of its own: `checkerbot dxp --listen 127.0.0.1:0`, or a
//! test double in front of it, each of which says on its first line of standard output the
//! address it took (`... listening on 127.0.0.1:PORT`). The tests read the port from there, so
//! no two tests ever race for one.

use std::fs::File;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A listening process; killed when dropped, however the test ends.
#[derive(Debug)]
pub struct Listening {
    child: Child,
    /// Where its standard error goes.
    log: PathBuf,
    /// The port it listens at, from its first line.
    pub port: u16,
}

impl Listening {
    /// Starts `command`, its standard error written to `log`, and waits for its first line.
    /// Panics, with the line, when the line names no port.
    pub fn start(mut command: Command, log: &Path) -> Listening {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(File::create(log).expect("the log file opens"))
            .spawn()
            .unwrap_or_else(|error| panic!("{command:?} does not start: {error}"));
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut first = String::new();
        // A process that ends before it listens gives an empty line, refused below.
        let _ = BufReader::new(stdout).read_line(&mut first);
        let port = first
            .trim()
            .split_once("listening on ")
            .and_then(|(_, address)| address.rsplit_once(':'))
            .and_then(|(_, port)| port.parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            let said = std::fs::read_to_string(log).unwrap_or_default();
            panic!("{command:?} names no port in {first:?}; it said: {said}");
        };
        Listening {
            child,
            log: log.to_path_buf(),
            port,
        }
    }

    /// Its log once `complete` holds for the whole text, or as it stands after `patience`
    /// (the caller's assertions then show what is missing). A server logs what it did after
    /// its peer has seen it, so a peer that has finished does not mean the log has: reading
    /// it at once, or killing the server first, races its last lines.
    pub fn log_once(&self, complete: impl Fn(&str) -> bool, patience: Duration) -> String {
        let deadline = Instant::now() + patience;
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            if complete(&text) || Instant::now() >= deadline {
                return text;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// `daemon/tests/engines/dxp_proxy.py MODE N` (run with python3) in front of the DXP engine
/// listening at `upstream` on 127.0.0.1: a DXP engine that misbehaves at its N-th move or game
/// request as `MODE` says (the script's documentation lists them).
pub fn dxp_proxy(mode: &str, n: u32, upstream: u16, log: &Path) -> Listening {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../daemon/tests/engines/dxp_proxy.py");
    let mut command = Command::new("python3");
    command
        .arg(script)
        .args([mode, &n.to_string(), &upstream.to_string()]);
    Listening::start(command, log)
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
