//! The operator page: a web page served by the daemon that shows the robot as it is (the
//! board as the engine believes it beside what the sensors saw, moves, the win-probability
//! graph, the face, its lines, problems, devices, today's counters) and lets an operator steer
//! it (new game, pause, resign, take back, settings, park, test a line, settle an ambiguous
//! move).
//!
//! The page is one HTML file with its script and style, built into the binary (no build step,
//! nothing fetched from elsewhere: the robot has no internet). It loads `/api/state` and then
//! follows `/api/events` (server-sent events: `log`, the event log's JSON events, and `state`,
//! the page's whole state after each change). Commands travel to the game loop over a channel
//! and are carried out between two events ([`crate::robot::OperatorCommand`]).

mod api;
mod feed;
mod page_state;
mod server;
mod settings_file;

pub use server::{PageConfig, serve_page};

#[cfg(test)]
mod tests;
