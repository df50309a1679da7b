//! The rules crate's integration tests, one binary (one link) for all of them.

mod differential_pydraughts;
mod game;
mod pdn;
mod pdn_pydraughts;
mod perft;
mod position_errors;
mod properties;
mod recognition;
mod tricky;
