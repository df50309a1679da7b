//! The evalnet crate's integration tests, one binary (one link) for all of them: the native
//! evaluation against ONNX Runtime and against a plain reference computation, incremental
//! updates against refreshes, and the errors of broken files.

mod errors;
mod incremental;
mod model;
mod reference;
mod runtime;

/// How far the native evaluation may lie from the file's real-valued network, in logits: the
/// search runs the first two layers in integers (see the crate's documentation), and this is
/// two hundredths of its score (200 hundredths a logit), far below what changes a move. The
/// rounding grows with a network's largest weights, which set the integer scales: the shipped
/// networks differ from ONNX Runtime by 0.003 to 0.006 (Russian giveaway's, with weights half
/// as large again as Russian's, the most).
pub const TOLERANCE: f32 = 0.01;
