//! `checkerbot hub`, the engine behind the Hub protocol: driven by pydraughts' `HubEngine`
//! through whole games, its position and move text checked against pydraughts', its session
//! run in-process, and its parser fed arbitrary lines.

mod parser;
mod process;
mod pydraughts;
mod session;
