//! `checkerbot hub`, the engine behind the Hub protocol: driven by pydraughts' `HubEngine`
//! through whole games, its position and move text checked against pydraughts', its session
//! run in-process (the parser's property test is `engine/protocols`').

mod process;
mod pydraughts;
mod session;
