//! The speech crate's integration tests, one binary.

mod catalogue;
mod explanations;
