//! The network crate's integration tests, one binary (one link) for all of them: the encoding,
//! and a generated model through ONNX Runtime (Python virtual environments from `testkit`).

mod bench;
mod encoding;
mod evaluator;
mod runtime;
