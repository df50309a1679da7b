//! The lab's integration tests in one binary.

mod match_hub;
mod training_data;
