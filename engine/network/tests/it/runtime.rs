//! ONNX Runtime through `ort` on a tiny generated model.
//!
//! The model (`training/make_test_model.py`) is a linear layer per head with weights from a
//! closed formula, so the numbers ONNX Runtime returns are checked against the same formula
//! computed here from `encoding::planes`. Broken models (wrong metadata, wrong shapes, corrupt
//! or missing files) must each give their own error, never a panic. The library comes from the
//! `PyPI` `onnxruntime` wheel in a virtual environment under `CARGO_TARGET_TMPDIR` (see
//! `network_support`). Library failures are in `network_fallback.rs`: the library is
//! process-wide, so they need a process that never loaded a good one.

use std::path::PathBuf;
use std::time::Instant;

use network::encoding::planes;
use network::runtime::library::candidates;
use network::runtime::{Network, NetworkError};
use rules::{Position, Variant};
use testkit::Lcg;
use testkit::onnx::{bias, current, model, weight, wheel_library};

fn library() -> PathBuf {
    wheel_library(&current())
}

fn positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut position = Position::new(variant);
    while out.len() < count {
        let moves = position.legal_moves();
        if moves.is_empty() || rng.below(60) == 0 {
            position = Position::new(variant);
            continue;
        }
        out.push(position);
        position.play_unchecked(&moves[rng.below(moves.len())]);
    }
    out
}

/// The test model's outputs computed in Rust.
fn reference(position: &Position, policy_len: usize) -> (Vec<f32>, f32) {
    let x = planes(position);
    let policy = (0..policy_len)
        .map(|j| {
            x.iter()
                .enumerate()
                .map(|(i, v)| v * weight(i, j))
                .sum::<f32>()
                + bias(j)
        })
        .collect();
    let logit: f32 = x
        .iter()
        .enumerate()
        .map(|(i, v)| v * weight(i, policy_len) / 8.0)
        .sum::<f32>()
        + bias(policy_len);
    (policy, 1.0 / (1.0 + (-logit).exp()))
}

#[test]
fn evaluations_match_the_reference_computation() {
    let lib = library();
    let path = model("good", &[]);
    let started = Instant::now();
    let mut network =
        Network::load(Some(&lib), &path, Variant::Russian).expect("the test model loads");
    eprintln!("library and model loaded in {:?}", started.elapsed());
    assert_eq!(network.policy_map().len(), 280);

    let batch = positions(Variant::Russian, 256, 5);
    let out = network.evaluate(&batch).unwrap();
    assert_eq!(out.len(), batch.len());
    let mut worst = 0.0f32;
    for (i, position) in batch.iter().enumerate() {
        let (policy, value) = reference(position, 280);
        for (a, b) in out.policy(i).iter().zip(&policy) {
            worst = worst.max((a - b).abs());
        }
        worst = worst.max((out.value(i) - value).abs());
    }
    eprintln!("largest difference from the reference: {worst:e}");
    assert!(worst < 1e-4, "ort differs from the reference by {worst}");

    // One at a time gives what the batch gave.
    for (i, position) in batch.iter().enumerate().take(16) {
        let one = network.evaluate(std::slice::from_ref(position)).unwrap();
        assert!((one.value(0) - out.value(i)).abs() < 1e-6);
        assert!(
            one.policy(0)
                .iter()
                .zip(out.policy(i))
                .all(|(a, b)| (a - b).abs() < 1e-5)
        );
    }
    assert!(network.evaluate(&[]).unwrap().is_empty());

    // Throughput, for the record (not asserted: the machine's load varies).
    let started = Instant::now();
    for position in &batch {
        network.evaluate(std::slice::from_ref(position)).unwrap();
    }
    let single = batch.len() as f64 / started.elapsed().as_secs_f64();
    let started = Instant::now();
    for _ in 0..10 {
        network.evaluate(&batch).unwrap();
    }
    let batched = 10.0 * batch.len() as f64 / started.elapsed().as_secs_f64();
    eprintln!("test model: {single:.0} positions/s at batch 1, {batched:.0} at batch 256");
}

#[test]
fn metadata_and_shape_mismatches_name_what_is_wrong() {
    let lib = library();
    let cases: [(&str, &[&str], &str); 7] = [
        (
            "brazilian",
            &["--variant", "brazilian"],
            "checkerbot.variant = brazilian, expected russian",
        ),
        (
            "encoding99",
            &["--encoding", "99"],
            "checkerbot.encoding = 99, expected 1",
        ),
        (
            "nometa",
            &["--no-metadata"],
            "checkerbot.variant = <missing>",
        ),
        (
            "policy281",
            &["--policy-size", "281"],
            "output `policy` Float32 [?, 281], expected f32 [batch, 280]",
        ),
        (
            "side10",
            &["--side", "10"],
            "input `planes` Float32 [?, 5, 10, 10], expected f32 [batch, 5, 8, 8]",
        ),
        (
            "calibration-syntax",
            &["--calibration", "3=1.1"],
            "checkerbot.calibration = 3=1.1, expected level=slope,offset;... \
             (`3=1.1` is not level=slope,offset)",
        ),
        (
            "calibration-flat",
            &["--calibration", "1=2.5,-1;2=0,0.5"],
            "level 2's map (0, 0.5) needs a positive slope",
        ),
    ];
    for (name, args, message) in cases {
        let path = model(name, args);
        let error = Network::load(Some(&lib), &path, Variant::Russian).unwrap_err();
        assert!(
            matches!(
                error,
                NetworkError::Metadata { .. } | NetworkError::Shape { .. }
            ),
            "{name}: {error:?}"
        );
        let text = error.to_string();
        assert!(text.contains(message), "{name}: {text}");
        assert!(text.contains(&path.display().to_string()), "{name}: {text}");
    }
    // The same model is fine for the variant it was made for.
    let path = model("brazilian", &["--variant", "brazilian"]);
    Network::load(Some(&lib), &path, Variant::Brazilian).unwrap();
}

/// A model's calibration maps are read for the levels it names; a model without them has
/// none, so every level reports its raw v.
#[test]
fn calibration_maps_travel_with_the_model() {
    let lib = library();
    let path = model(
        "calibrated",
        &["--calibration", "4=0.909,0.959;3=1.14,0.528"],
    );
    let network = Network::load(Some(&lib), &path, Variant::Russian).unwrap();
    let maps = network.calibrations();
    let level = |n| maps.for_level(n).map(|map| (map.slope, map.offset));
    assert_eq!(level(3), Some((1.14, 0.528)));
    assert_eq!(level(4), Some((0.909, 0.959)));
    assert_eq!(level(1), None);
    assert_eq!(maps.to_string(), "3=1.14,0.528;4=0.909,0.959");
    let plain = Network::load(Some(&lib), &model("uncalibrated", &[]), Variant::Russian).unwrap();
    assert!(plain.calibrations().is_empty());
}

#[test]
fn missing_and_corrupt_model_files_are_errors() {
    let lib = library();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("network-models");
    std::fs::create_dir_all(&dir).unwrap();

    let missing = dir.join("does-not-exist.onnx");
    let error = Network::load(Some(&lib), &missing, Variant::Russian).unwrap_err();
    assert!(matches!(error, NetworkError::ModelRead { .. }), "{error:?}");
    assert!(error.to_string().contains("does-not-exist.onnx"), "{error}");

    let garbage = dir.join("garbage.onnx");
    std::fs::write(&garbage, b"this is not a protobuf \xff\xfe\x00 at all").unwrap();
    let truncated = dir.join("truncated.onnx");
    let good = std::fs::read(model("good-for-truncation", &[])).unwrap();
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let empty = dir.join("empty.onnx");
    std::fs::write(&empty, b"").unwrap();
    for path in [garbage, truncated, empty] {
        let error = Network::load(Some(&lib), &path, Variant::Russian).unwrap_err();
        assert!(
            matches!(error, NetworkError::ModelInvalid { .. }),
            "{}: {error:?}",
            path.display()
        );
        eprintln!("{error}");
    }
}

#[test]
fn positions_of_another_variant_are_refused() {
    let lib = library();
    let mut network =
        Network::load(Some(&lib), &model("good-variant", &[]), Variant::Russian).unwrap();
    let error = network
        .evaluate(&[Position::new(Variant::Brazilian)])
        .unwrap_err();
    assert!(
        matches!(error, NetworkError::WrongVariant { .. }),
        "{error:?}"
    );
}

#[test]
fn a_network_can_move_to_the_search_worker() {
    fn send<T: Send + 'static>(_: &T) {}
    let lib = library();
    let network = Network::load(Some(&lib), &model("good-send", &[]), Variant::Russian).unwrap();
    send(&network);
    let handle = std::thread::spawn(move || {
        let mut network = network;
        network
            .evaluate(&[Position::new(Variant::Russian)])
            .map(|e| e.value(0))
    });
    let value = handle.join().unwrap().unwrap();
    assert!((0.0..=1.0).contains(&value));
}

#[test]
#[cfg(unix)]
fn a_library_next_to_the_executable_is_found() {
    let exe_dir = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let lib = library();
    let beside = exe_dir.join(lib.file_name().unwrap());
    if !beside.exists() {
        std::os::unix::fs::symlink(&lib, &beside).unwrap();
    }
    let found = candidates(None);
    if let Some(env) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        assert_eq!(found, vec![PathBuf::from(env)]);
    } else {
        assert_eq!(found[0], beside);
        // The system loader's names come last.
        assert_eq!(found.last().unwrap(), &PathBuf::from("libonnxruntime.so"));
    }
    Network::load(None, &model("good-beside", &[]), Variant::Russian).unwrap();
}
