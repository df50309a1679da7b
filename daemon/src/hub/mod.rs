//! `checkerbot hub`: the robot's engine behind the Hub protocol, version 2 (Scan's
//! `protocol.txt`), for the Hub GUI and for programs that drive Hub engines (pydraughts'
//! `HubEngine`). The robot's own player answers: level 5's alpha-beta until the level's time
//! is spent, or the robot's `Brain` at the weaker level the `strength` parameter names.
//!
//! The protocol's lines, positions and moves are `engine_protocols::hub`'s; here
//! `time_control` turns a `level` into a time budget, `engine` keeps the
//! position and the player between searches (`checkerbot dxp` plays with the same player and
//! time budget), and [`serve`] is the session over any reader
//! and writer, so tests run it in-process; [`run`] hands it stdin and stdout.

pub(crate) mod engine;
mod line_reader;
mod session;
pub(crate) mod time_control;

use anyhow::Context as _;
use tokio::io::BufReader;

pub use session::serve;

/// Arguments of `checkerbot hub` (none: the GUI sets the variant with `set-param`).
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Speaks Hub on stdin and stdout until `quit` or the end of stdin.
pub fn run(_args: &Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let result = runtime.block_on(serve(
        BufReader::new(tokio::io::stdin()),
        tokio::io::stdout(),
    ));
    // A read of stdin may still hold a blocking thread; do not wait for it.
    runtime.shutdown_background();
    result.context("speaking Hub on stdin and stdout")
}
