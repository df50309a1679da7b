//! Why an evaluation network could not be loaded.

use std::fmt;
use std::path::PathBuf;

use crate::{EVAL_VERSION, proto::ProtoError};

/// An evaluation network file could not be used. Each variant's message names what is wrong,
/// so that it can be logged once as it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalNetError {
    /// The bytes are not a well-formed ONNX protocol buffer.
    #[error("not a well-formed ONNX file: expected {what} at byte {offset}")]
    Malformed {
        /// Byte offset from the start of the file.
        offset: usize,
        /// What was expected there.
        what: &'static str,
    },
    /// A metadata entry the network needs is absent.
    #[error("the model has no `{0}` metadata")]
    MissingMetadata(&'static str),
    /// The model is some other kind of network (such as a policy/value network for MCTS).
    #[error(
        "not an evaluation network: checkerbot.kind is {}, expected \"evaluation\"",
        Shown(.kind.as_deref())
    )]
    NotEvaluation {
        /// The `checkerbot.kind` found, if any.
        kind: Option<String>,
    },
    /// The network's layout version is not the one this build reads.
    #[error("evaluation network version {found:?}, this build reads version {EVAL_VERSION}")]
    Version {
        /// The `checkerbot.eval_version` found.
        found: String,
    },
    /// `checkerbot.variant` names no known variant.
    #[error("unknown variant {0:?} in checkerbot.variant")]
    UnknownVariant(String),
    /// A weight tensor is absent.
    #[error("the model has no initializer `{0}`")]
    MissingInitializer(&'static str),
    /// A weight tensor has the wrong shape (for a network of a variant with another board size,
    /// the first layer's).
    #[error("initializer `{name}` has shape {}, expected {expected}", Dims(.found))]
    Shape {
        /// The initializer.
        name: &'static str,
        /// The shape expected, in words (sizes read from the file where they may vary).
        expected: String,
        /// The shape found.
        found: Vec<i64>,
    },
    /// A weight tensor does not hold 32-bit floats.
    #[error("initializer `{name}` has ONNX data type {found}, expected 1 (32-bit float)")]
    DataType {
        /// The initializer.
        name: &'static str,
        /// The `TensorProto.DataType` found.
        found: i32,
    },
    /// A weight tensor holds a number of values other than its shape needs.
    #[error("initializer `{name}` holds {found} values, its shape needs {expected}")]
    DataLength {
        /// The initializer.
        name: &'static str,
        /// The product of its dimensions.
        expected: usize,
        /// The values found.
        found: usize,
    },
    /// A weight is infinite or not a number.
    #[error("initializer `{name}` holds a value that is not finite (at index {index})")]
    NotFinite {
        /// The initializer.
        name: &'static str,
        /// The first such value's index.
        index: usize,
    },
    /// The first layer's weights and biases are so large that a position's sums would not fit
    /// the 16-bit integers the search evaluates in.
    #[error(
        "the first layer (`ft.weight`, `ft.bias`) is too large to evaluate in 16-bit integers \
         (a position's sum could reach {largest:.0})"
    )]
    OutOfRange {
        /// The largest sum a position could reach, in the file's units.
        largest: f64,
    },
    /// The file cannot be read.
    #[error("cannot read the evaluation network {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl From<ProtoError> for EvalNetError {
    fn from(e: ProtoError) -> EvalNetError {
        EvalNetError::Malformed {
            offset: e.offset,
            what: e.what,
        }
    }
}

/// An optional metadata value as the messages show it.
struct Shown<'a>(Option<&'a str>);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, "{v:?}"),
            None => f.write_str("missing"),
        }
    }
}

/// A shape as `[a, b]`.
struct Dims<'a>(&'a [i64]);

impl fmt::Display for Dims<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}
