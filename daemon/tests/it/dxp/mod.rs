//! `checkerbot dxp`, the robot's player behind DXP: driven by pydraughts' `DXPEngine` through
//! whole International games over loopback TCP, its connecting side against its listening side
//! as processes, and its session run in-process over
//! in-memory pipes against a scripted peer and against itself (the parser's property test is
//! `engine/protocols`').

mod process;
mod pydraughts;
mod session;

use std::path::Path;
use std::process::Command;

use testkit::listening::Listening;

/// `checkerbot dxp --listen 127.0.0.1:0 ARGS` in a process of its own, logging at `info` to
/// `log`; killed when dropped, however the test ends.
pub(crate) fn listener(log: &Path, args: &[&str]) -> Listening {
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkerbot"));
    command
        .args(["dxp", "--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "info");
    Listening::start(command, log)
}
