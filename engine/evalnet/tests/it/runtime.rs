//! The native evaluation against ONNX Runtime running the same file's graph.
//!
//! ONNX Runtime is the `PyPI` wheel's library in a virtual environment made by `testkit` (as
//! the network crate's tests do), loaded through `ort`. Its input is the features computed
//! straight from the board's coordinates (`reference::features`), not from the crate's table,
//! so this also checks the crate's feature mapping.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use evalnet::EvalNet;
use ort::environment::Environment;
use ort::session::Session;
use ort::value::Tensor;
use rules::Variant;
use testkit::onnx::{current, wheel_library};

use crate::model::{fixtures, positions, shipped_evaluations};
use crate::reference::features;

/// ONNX Runtime allows one environment per process.
static ENVIRONMENT: Mutex<Option<Environment>> = Mutex::new(None);

fn environment() -> Environment {
    let mut slot = ENVIRONMENT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(environment) = slot.as_ref() {
        return environment.clone();
    }
    let library = wheel_library(&current());
    let environment = ort::init_from(&library)
        .unwrap_or_else(|e| panic!("loading {}: {e}", library.display()))
        .with_name("evalnet-tests")
        .with_telemetry(false)
        .build()
        .unwrap();
    *slot = Some(environment.clone());
    environment
}

/// The largest difference between the crate and ONNX Runtime over `count` positions.
fn compare(path: &Path, count: usize, seed: u64) -> f32 {
    let net = EvalNet::load(path).unwrap();
    let variant = net.variant();
    let side = variant.geometry().side();
    let f = 4 * side * side;
    let batch = positions(variant, count, seed);
    let mut input = Vec::with_capacity(batch.len() * 2 * f);
    for position in &batch {
        input.extend(features(position));
    }
    let mut session = Session::builder(&environment())
        .unwrap()
        .with_intra_threads(1)
        .unwrap()
        .commit_from_file(path)
        .unwrap();
    let tensor = Tensor::from_array(([batch.len(), 2, f], input)).unwrap();
    let outputs = session.run(ort::inputs!["features" => tensor]).unwrap();
    let (shape, scores) = outputs["score"].try_extract_tensor::<f32>().unwrap();
    assert_eq!(&shape[..], &[batch.len() as i64, 1]);
    let mut worst = 0.0f32;
    let mut spread = (f32::INFINITY, f32::NEG_INFINITY);
    for (position, &expected) in batch.iter().zip(scores) {
        let got = net.evaluate_position(position);
        worst = worst.max((got - expected).abs());
        spread = (spread.0.min(expected), spread.1.max(expected));
    }
    eprintln!(
        "{} ({variant}, hidden {}): {} positions, logits {:.3}..{:.3}, largest difference from \
         ONNX Runtime {worst:e}",
        path.display(),
        net.hidden(),
        batch.len(),
        spread.0,
        spread.1
    );
    // The positions must not all evaluate alike, or the comparison would prove little.
    assert!(spread.1 - spread.0 > 0.1, "{spread:?}");
    worst
}

#[test]
fn native_evaluation_matches_onnx_runtime() {
    // The networks level 5 plays with, one a variant (`<variant>-eval.onnx`): each must be
    // for the variant its name gives.
    let shipped = shipped_evaluations();
    assert!(
        shipped
            .iter()
            .any(|(variant, _)| *variant == Variant::Russian),
        "{shipped:?}"
    );
    let files: Vec<(Variant, PathBuf)> = fixtures().into_iter().chain(shipped).collect();
    for (i, (variant, path)) in files.iter().enumerate() {
        assert_eq!(EvalNet::load(path).unwrap().variant(), *variant);
        let worst = compare(path, 600, 1000 + i as u64);
        assert!(worst < crate::TOLERANCE, "{}: {worst}", path.display());
    }
}
