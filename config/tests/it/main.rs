//! The config crate's integration tests in one binary, so the workspace links one test executable per crate rather than one per file.

mod broken_files;
mod settings;
