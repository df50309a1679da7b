//! The evalnet crate's integration tests, one binary (one link) for all of them: the native
//! evaluation against ONNX Runtime and against a plain reference computation, incremental
//! updates against refreshes, and the errors of broken files.

mod errors;
mod incremental;
mod model;
mod reference;
mod runtime;
