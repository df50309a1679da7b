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
//!
//! It is closed to other web sites: it answers only requests naming a host it is served as
//! (DNS rebinding), refuses another site's page (`Origin`) and anything but JSON for a control
//! (cross-site forms), cannot be framed, and makes guessing its token useless (`gate.rs`,
//! `allowed_hosts.rs`, `token.rs`; docs/operator-guide.md, "Security of the operator page").

mod allowed_hosts;
mod api;
mod connection;
mod error_answer;
mod feed;
mod gate;
mod page_state;
mod server;
mod settings_file;
mod token;

pub use server::{PageConfig, serve_page};

#[cfg(test)]
mod tests;
