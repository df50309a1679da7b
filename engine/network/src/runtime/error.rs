//! Why a network could not be used.
//!
//! Every variant's message is meant to be logged as it is, once, before the robot falls back to
//! alpha-beta: it names the file and what is wrong with it.

use std::path::PathBuf;

use rules::Variant;

/// A network could not be loaded or evaluated; play with alpha-beta instead.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// No ONNX Runtime library was found where it was searched for.
    #[error("no ONNX Runtime library found (looked for {})", list(.tried))]
    LibraryNotFound {
        /// The places searched, in order.
        tried: Vec<PathBuf>,
    },
    /// The library exists but could not be loaded or is not ONNX Runtime.
    #[error("cannot load ONNX Runtime from {}: {reason}", .path.display())]
    LibraryLoad {
        /// The file.
        path: PathBuf,
        /// What the loader said.
        reason: String,
    },
    /// The library is an ONNX Runtime older than the API this build needs.
    #[error(
        "ONNX Runtime at {} is version {found}, older than the 1.{needed}.x this build needs",
        .path.display()
    )]
    OldRuntime {
        /// The file.
        path: PathBuf,
        /// The version the library reports.
        found: String,
        /// The minor version required.
        needed: u32,
    },
    /// ONNX Runtime refused to set up its environment or a session.
    #[error("ONNX Runtime failed to {doing}: {reason}")]
    Runtime {
        /// What was being done.
        doing: &'static str,
        /// ONNX Runtime's message.
        reason: String,
    },
    /// The model file cannot be read.
    #[error("cannot read the model {}: {source}", .path.display())]
    ModelRead {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// ONNX Runtime cannot parse or prepare the model file.
    #[error("the model {} is not a usable ONNX model: {reason}", .path.display())]
    ModelInvalid {
        /// The file.
        path: PathBuf,
        /// ONNX Runtime's message.
        reason: String,
    },
    /// The model's metadata lacks a key or holds an unexpected value.
    #[error("the model {} has {key} = {found}, expected {expected}", .path.display())]
    Metadata {
        /// The file.
        path: PathBuf,
        /// The metadata key.
        key: &'static str,
        /// What the model holds (`<missing>` if absent).
        found: String,
        /// What this build needs.
        expected: String,
    },
    /// An input or output of the model has the wrong name, type or shape.
    #[error("the model {} has {what} {found}, expected {expected}", .path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// Which tensor.
        what: String,
        /// What the model declares.
        found: String,
        /// What the encoding needs.
        expected: String,
    },
    /// A position of another variant was given to the network.
    #[error("a {found} position was given to a {expected} network")]
    WrongVariant {
        /// The network's variant.
        expected: Variant,
        /// The position's variant.
        found: Variant,
    },
    /// Running the model failed or returned outputs of the wrong size.
    #[error("evaluation failed: {reason}")]
    Inference {
        /// What went wrong.
        reason: String,
    },
    /// ONNX Runtime or `ort` panicked; caught so that the game goes on.
    #[error("ONNX Runtime panicked while trying to {doing}: {message}")]
    Panicked {
        /// What was being done.
        doing: &'static str,
        /// The panic's message.
        message: String,
    },
}

fn list(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "nowhere".to_owned();
    }
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
