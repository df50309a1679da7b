//! `checkerbot dxp`, the robot's player behind DXP: driven by pydraughts' `DXPEngine` through
//! whole International games over loopback TCP, its connecting side against its listening side
//! as processes, and its session run in-process over
//! in-memory pipes against a scripted peer and against itself (the parser's property test is
//! `engine/protocols`').

mod process;
mod pydraughts;
mod session;

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `checkerbot dxp --listen 127.0.0.1:0` in a process of its own, logging at `info` to a
/// file; killed when dropped, however the test ends.
struct Listener {
    child: Child,
    /// The port it listens at, from its first line.
    port: String,
}

impl Listener {
    fn start(log: &Path, args: &[&str]) -> Listener {
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkerbot"))
            .args(["dxp", "--listen", "127.0.0.1:0"])
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("checkerbot starts");
        let stdout = child.stdout.take().unwrap();
        let mut first = String::new();
        BufReader::new(stdout).read_line(&mut first).unwrap();
        let Some(port) = first
            .trim()
            .strip_prefix("checkerbot dxp: listening on 127.0.0.1:")
        else {
            let _ = child.kill();
            panic!("no address in {first:?}");
        };
        Listener {
            port: port.to_owned(),
            child,
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
