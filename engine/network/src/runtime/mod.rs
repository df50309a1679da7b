//! Running a policy/value network with ONNX Runtime.
//!
//! [`Network::load`] finds and loads the ONNX Runtime library ([`library`]), opens a model,
//! checks its metadata and shapes against this build's [`encoding`](super::encoding), and
//! [`Network::evaluate`] runs a batch of positions. Nothing here panics: every failure is a
//! [`NetworkError`] whose message the caller logs once before playing with alpha-beta.

mod error;
mod evaluator;
pub mod library;

use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use ort::session::Session;
use ort::value::{Tensor, TensorElementType, ValueType};

pub use self::error::NetworkError;
pub use self::evaluator::NetworkEvaluator;
use crate::calibration::{LevelCalibrations, META_CALIBRATION};
use crate::encoding::{PLANES, input_len, write_planes};
use crate::policy::PolicyMap;
use crate::{ENCODING_VERSION, INPUT_NAME, META_ENCODING, META_VARIANT, POLICY_NAME, VALUE_NAME};
use rules::{Position, Variant};

/// A loaded model for one variant, ready to evaluate positions.
pub struct Network {
    session: Session,
    variant: Variant,
    policy: PolicyMap,
    library: PathBuf,
    model: PathBuf,
    calibrations: LevelCalibrations,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.variant)
            .field("library", &self.library)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

/// The outputs for a batch of positions, in the order given.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluations {
    policy: Vec<f32>,
    value: Vec<f32>,
    policy_len: usize,
}

impl Evaluations {
    /// Number of positions evaluated.
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// Whether the batch was empty.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// Policy logits of position `i`, one per [`PolicyMap`] index.
    pub fn policy(&self, i: usize) -> &[f32] {
        &self.policy[i * self.policy_len..(i + 1) * self.policy_len]
    }

    /// The side to move's expected score in position `i` (1 win, ½ draw, 0 loss).
    pub fn value(&self, i: usize) -> f32 {
        self.value[i]
    }
}

impl Network {
    /// Loads ONNX Runtime (see [`library`] for the search; `dylib` is the configured path, if
    /// any) and the model at `model`, which must be made for `variant` and this build's encoding.
    /// The first failure is returned; its message is meant to be logged once before the caller
    /// plays with alpha-beta instead.
    ///
    /// Evaluation runs on the calling thread only (one intra-op thread): the robot's search
    /// already has its own worker, and the daemon's other threads must stay responsive.
    pub fn load(
        dylib: Option<&Path>,
        model: &Path,
        variant: Variant,
    ) -> Result<Network, NetworkError> {
        let library = library::load(dylib)?;
        std::fs::File::open(model).map_err(|source| NetworkError::ModelRead {
            path: model.to_path_buf(),
            source,
        })?;
        let session = guard("open the model", || open_session(model))??;
        let mut network = Network {
            session,
            variant,
            policy: PolicyMap::new(variant.geometry()),
            library,
            model: model.to_path_buf(),
            calibrations: LevelCalibrations::new(),
        };
        network.calibrations = network.read_metadata()?;
        network.check_shapes()?;
        Ok(network)
    }

    /// The variant this network plays.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The numbering of the policy outputs.
    pub const fn policy_map(&self) -> &PolicyMap {
        &self.policy
    }

    /// The model's maps from its value to the win probability the robot reports, per level
    /// (empty if it carries none: every level reports the raw value).
    pub const fn calibrations(&self) -> &LevelCalibrations {
        &self.calibrations
    }

    /// The ONNX Runtime library in use.
    pub fn library(&self) -> &Path {
        &self.library
    }

    /// Evaluates a batch of positions of the network's variant in one run.
    pub fn evaluate(&mut self, positions: &[Position]) -> Result<Evaluations, NetworkError> {
        let policy_len = self.policy.len();
        if positions.is_empty() {
            return Ok(Evaluations {
                policy: Vec::new(),
                value: Vec::new(),
                policy_len,
            });
        }
        let geometry = self.variant.geometry();
        let per = input_len(geometry);
        let mut input = vec![0.0f32; per * positions.len()];
        for (position, out) in positions.iter().zip(input.chunks_exact_mut(per)) {
            if position.variant() != self.variant {
                return Err(NetworkError::WrongVariant {
                    expected: self.variant,
                    found: position.variant(),
                });
            }
            write_planes(position, out);
        }
        let n = positions.len();
        let shape = [n, PLANES, geometry.side(), geometry.side()];
        let session = &mut self.session;
        guard("evaluate", move || run(session, shape, input, policy_len))?
    }

    /// Checks the variant and the encoding version, and reads the optional calibration maps
    /// (a model with unreadable maps is refused: its v would mislead the emotions).
    fn read_metadata(&self) -> Result<LevelCalibrations, NetworkError> {
        let (variant, encoding, calibration) = guard("read the model's metadata", || {
            let meta = self.session.metadata().map_err(|e| self.invalid(&e))?;
            Ok::<_, NetworkError>((
                meta.custom(META_VARIANT),
                meta.custom(META_ENCODING),
                meta.custom(META_CALIBRATION),
            ))
        })??;
        let expect_variant = self.variant.name().to_owned();
        let found = variant.unwrap_or_else(|| "<missing>".to_owned());
        if found.parse::<Variant>().ok() != Some(self.variant) {
            return Err(self.metadata(META_VARIANT, found, expect_variant));
        }
        let found = encoding.unwrap_or_else(|| "<missing>".to_owned());
        if found.trim().parse::<u32>().ok() != Some(ENCODING_VERSION) {
            return Err(self.metadata(META_ENCODING, found, ENCODING_VERSION.to_string()));
        }
        let Some(text) = calibration else {
            return Ok(LevelCalibrations::new());
        };
        text.parse().map_err(|error| {
            let expected = format!("level=slope,offset;... ({error})");
            self.metadata(META_CALIBRATION, text.clone(), expected)
        })
    }

    fn check_shapes(&self) -> Result<(), NetworkError> {
        let side = self.variant.geometry().side() as i64;
        let policy = self.policy.len() as i64;
        self.check_outlet(true, INPUT_NAME, &[PLANES as i64, side, side])?;
        self.check_outlet(false, POLICY_NAME, &[policy])?;
        self.check_outlet(false, VALUE_NAME, &[1])
    }

    /// Checks one tensor: `f32`, a free batch dimension, then `dims`.
    fn check_outlet(&self, input: bool, name: &str, dims: &[i64]) -> Result<(), NetworkError> {
        let (kind, outlets) = if input {
            ("input", self.session.inputs())
        } else {
            ("output", self.session.outputs())
        };
        let expected = format!("f32 [batch, {}]", join(dims));
        let what = format!("{kind} `{name}`");
        let Some(outlet) = outlets.iter().find(|o| o.name() == name) else {
            let names: Vec<&str> = outlets.iter().map(ort::value::Outlet::name).collect();
            return Err(self.shape(format!("no {what}"), format!("{kind}s {names:?}"), expected));
        };
        let found = match outlet.dtype() {
            ValueType::Tensor { ty, shape, .. } => {
                let batch_free = shape.first().is_some_and(|&d| d < 0);
                if *ty == TensorElementType::Float32 && batch_free && shape.get(1..) == Some(dims) {
                    return Ok(());
                }
                format!("{ty:?} [{}]", join(shape))
            }
            other => format!("{other:?}"),
        };
        Err(self.shape(what, found, expected))
    }

    fn invalid(&self, e: &dyn fmt::Display) -> NetworkError {
        NetworkError::ModelInvalid {
            path: self.model.clone(),
            reason: e.to_string(),
        }
    }

    fn metadata(&self, key: &'static str, found: String, expected: String) -> NetworkError {
        NetworkError::Metadata {
            path: self.model.clone(),
            key,
            found,
            expected,
        }
    }

    fn shape(&self, what: String, found: String, expected: String) -> NetworkError {
        NetworkError::Shape {
            path: self.model.clone(),
            what,
            found,
            expected,
        }
    }
}

fn open_session(model: &Path) -> Result<Session, NetworkError> {
    let runtime = |doing: &'static str| {
        move |e: &dyn fmt::Display| NetworkError::Runtime {
            doing,
            reason: e.to_string(),
        }
    };
    let environment = library::environment()?;
    let builder = Session::builder(&environment).map_err(|e| runtime("create a session")(&e))?;
    let mut builder = builder
        .with_intra_threads(1)
        .map_err(|e| runtime("set the thread count")(&e))?;
    builder
        .commit_from_file(model)
        .map_err(|e| NetworkError::ModelInvalid {
            path: model.to_path_buf(),
            reason: e.to_string(),
        })
}

fn run(
    session: &mut Session,
    shape: [usize; 4],
    input: Vec<f32>,
    policy_len: usize,
) -> Result<Evaluations, NetworkError> {
    let fail = |e: &dyn fmt::Display| NetworkError::Inference {
        reason: e.to_string(),
    };
    let n = shape[0];
    let tensor = Tensor::from_array((shape, input)).map_err(|e| fail(&e))?;
    let outputs = session
        .run(ort::inputs![INPUT_NAME => tensor])
        .map_err(|e| fail(&e))?;
    let extract = |name: &str, per: usize| -> Result<Vec<f32>, NetworkError> {
        let value = outputs
            .get(name)
            .ok_or_else(|| fail(&format!("no output `{name}`")))?;
        let (_, data) = value.try_extract_tensor::<f32>().map_err(|e| fail(&e))?;
        if data.len() != n * per {
            return Err(fail(&format!(
                "output `{name}` has {} values for {n} positions, expected {}",
                data.len(),
                n * per
            )));
        }
        Ok(data.to_vec())
    };
    let policy = extract(POLICY_NAME, policy_len)?;
    let value = extract(VALUE_NAME, 1)?;
    Ok(Evaluations {
        policy,
        value,
        policy_len,
    })
}

/// Runs `f`, turning a panic inside ONNX Runtime or `ort` into an error.
fn guard<T>(doing: &'static str, f: impl FnOnce() -> T) -> Result<T, NetworkError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| NetworkError::Panicked {
        doing,
        message: panic_message(panic.as_ref()),
    })
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

fn join(dims: &[i64]) -> String {
    dims.iter()
        .map(|d| {
            if *d < 0 {
                "?".to_owned()
            } else {
                d.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
