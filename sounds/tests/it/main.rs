//! The sounds crate's integration tests in one binary, so the workspace links one test executable per crate rather than one per file.

mod audio;
mod choosing;
mod explanations;
mod fragments;
mod packs;
mod speaker;
