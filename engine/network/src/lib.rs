//! The interface between positions and a policy/value network.
//!
//! A network sees a position through [`encoding`] (input planes from the side to move's view)
//! and answers with one logit per [`policy`] index and a value: the expected score of the side
//! to move (1 win, ½ draw, 0 loss), which the robot's emotions read as a win probability.
//! The layout is versioned ([`ENCODING_VERSION`]) and described for model authors in
//! `models/README.md`; a model states the version it was trained for in its ONNX metadata, and
//! may carry the [`calibration`] maps from its value to the win probability the robot reports
//! at each difficulty level.
//!
//! Everything here is pure except [`runtime`], which loads ONNX Runtime and a model file. It
//! is a crate of its own, apart from the rules and the search, so that only the player that
//! needs `ort` links it: the rules engine's users (the hardware layer, the settings, the
//! fuzz targets) build without it.
#![warn(missing_docs)]

pub mod calibration;
pub mod encoding;
pub mod policy;
pub mod runtime;

/// Version of the input and policy layout; bump it whenever [`encoding`] or [`policy`] change
/// what a model sees or what its outputs mean, so that old models are refused, not misread.
pub const ENCODING_VERSION: u32 = 1;

/// ONNX metadata key holding [`ENCODING_VERSION`] as decimal text.
pub const META_ENCODING: &str = "checkerbot.encoding";
/// ONNX metadata key holding the variant's name as [`rules::Variant`] parses it (`russian`).
pub const META_VARIANT: &str = "checkerbot.variant";
/// Name of the model's input tensor: `f32 [batch, PLANES, side, side]`.
pub const INPUT_NAME: &str = "planes";
/// Name of the policy output: `f32 [batch, policy size]`, unnormalised logits.
pub const POLICY_NAME: &str = "policy";
/// Name of the value output: `f32 [batch, 1]`, the side to move's expected score in `0..=1`.
pub const VALUE_NAME: &str = "value";
