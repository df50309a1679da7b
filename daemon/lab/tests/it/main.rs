//! The lab's integration tests in one binary.

mod match_hub;
mod match_pondering;
mod search_command;
mod training_data;
