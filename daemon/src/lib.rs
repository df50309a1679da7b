//! `checkerbot`: the draughts robot's daemon and its command-line tools, as a library.
//!
//! `src/main.rs` only sets up logging, parses the command line and calls [`cli::run`]; every
//! command lives here, so a test can run one in-process (`cli::run(Cli::parse_from(..))`).
//! This crate is the application: its errors are `anyhow`, adding context to the typed errors
//! of the reusable crates below it.
#![warn(missing_docs)]

mod calibrate;
pub mod cli;
mod commands;
mod devices;
mod doctor;
pub mod dxp;
pub mod hub;
mod notify;
mod operator;
mod reload;
mod robot;
pub mod run;
mod settings_source;
mod sim;
mod state;

pub use state::Stats;
