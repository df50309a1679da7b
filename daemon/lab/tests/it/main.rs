//! The lab's integration tests in one binary.

mod training_data;
