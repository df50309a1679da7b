//! `checkerbot`: the draughts robot's daemon and its command-line tools. Everything but the
//! logging set-up lives in the library (`checkerbot::cli`).

use std::io::IsTerminal as _;
use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    // Warnings from the libraries (no sound card, a line missing from a pack) go to stderr;
    // RUST_LOG=debug (or any filter) shows more.
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(log_filter(std::env::var("RUST_LOG").ok().as_deref()));
    // Under systemd stderr is the journal (JOURNAL_STREAM), which stamps every line itself.
    if std::env::var_os("JOURNAL_STREAM").is_some() {
        logs.without_time().init();
    } else {
        logs.init();
    }
    checkerbot::cli::run(checkerbot::cli::Cli::parse())
}

/// The `RUST_LOG` filter, `warn` when unset or unreadable. ONNX Runtime's own lines are kept at
/// warnings unless the filter names `ort`: at `info` it logs about a hundred lines of graph
/// optimisations per start, which would bury the robot's lines in the journal.
fn log_filter(rust_log: Option<&str>) -> tracing_subscriber::EnvFilter {
    let asked = rust_log.unwrap_or("warn");
    let names_ort = asked
        .split(',')
        .any(|directive| directive.trim_start().starts_with("ort"));
    let filter = if names_ort {
        asked.to_owned()
    } else {
        format!("{asked},ort=warn")
    };
    tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,ort=warn"))
}
