//! `checkerbot`: the draughts robot's daemon and its command-line tools. Everything but the
//! logging set-up lives in the library (`checkerbot::cli`).

use std::io::IsTerminal as _;
use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    // Warnings from the libraries (no sound card, a line missing from a pack) go to stderr;
    // RUST_LOG=debug (or any filter) shows more.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    checkerbot::cli::run(checkerbot::cli::Cli::parse())
}
