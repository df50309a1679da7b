//! Files that are not a usable evaluation network: each gives its own error, whose message
//! names what is wrong, and none panics. Also: the encodings of float data ONNX allows read
//! the same.

use std::path::Path;

use evalnet::{EvalNet, EvalNetError};
use rules::Variant;
use testkit::Lcg;

use crate::model::{Encoding, Model, fixtures, positions, workspace_model};

fn russian() -> (Vec<u8>, Model) {
    let (_, path) = &fixtures()[0];
    (std::fs::read(path).unwrap(), Model::read(path))
}

fn international() -> Model {
    Model::read(&fixtures()[1].1)
}

/// Loads `bytes`, expecting an error whose message holds every one of `words`.
fn refused(bytes: &[u8], words: &[&str]) -> EvalNetError {
    let e = EvalNet::from_onnx(bytes).expect_err("a broken model must be refused");
    let message = e.to_string();
    for word in words {
        assert!(message.contains(word), "{message:?} does not name {word:?}");
    }
    e
}

#[test]
fn truncated_files_are_malformed_at_an_offset() {
    let (bytes, _) = russian();
    let e = refused(
        &bytes[..bytes.len() / 2],
        &["not a well-formed ONNX file", "at byte"],
    );
    let EvalNetError::Malformed { offset, .. } = e else {
        panic!("{e:?}")
    };
    assert!(offset < bytes.len() / 2, "{offset}");
    // Every cut fails one way or another, and never panics.
    for cut in (0..bytes.len()).step_by(97) {
        assert!(EvalNet::from_onnx(&bytes[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn random_bytes_are_refused() {
    let mut rng = Lcg(99);
    for len in [1, 2, 7, 100, 5000] {
        for _ in 0..50 {
            let garbage: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            assert!(EvalNet::from_onnx(&garbage).is_err());
        }
    }
    refused(&[0xff; 64], &["not a well-formed ONNX file", "at byte 0"]);
    // Random flips in a real file: whatever comes out, nothing panics.
    let (bytes, _) = russian();
    for _ in 0..300 {
        let mut copy = bytes.clone();
        for _ in 0..=rng.below(4) {
            let i = rng.below(copy.len());
            copy[i] = rng.below(256) as u8;
        }
        let _ = EvalNet::from_onnx(&copy);
    }
}

#[test]
fn a_policy_value_network_is_not_an_evaluation_network() {
    let path = workspace_model("russian-gen2.onnx");
    let e = EvalNet::load(&path).unwrap_err();
    assert!(
        matches!(&e, EvalNetError::NotEvaluation { kind: None }),
        "{e:?}"
    );
    assert!(e.to_string().contains("not an evaluation network"), "{e}");
    // A kind that says something else.
    let (_, mut model) = russian();
    model.set_metadata("checkerbot.kind", "policy-value");
    refused(
        &model.encode(),
        &["not an evaluation network", "\"policy-value\""],
    );
}

#[test]
fn metadata_errors_name_the_entry() {
    let (_, model) = russian();
    refused(
        &model
            .clone()
            .set_metadata("checkerbot.eval_version", "2")
            .encode(),
        &["version \"2\"", "reads version 1"],
    );
    refused(
        &model
            .clone()
            .remove_metadata("checkerbot.eval_version")
            .encode(),
        &["checkerbot.eval_version"],
    );
    refused(
        &model.clone().remove_metadata("checkerbot.variant").encode(),
        &["checkerbot.variant"],
    );
    let e = refused(
        &model
            .clone()
            .set_metadata("checkerbot.variant", "chess")
            .encode(),
        &["unknown variant \"chess\""],
    );
    assert!(matches!(e, EvalNetError::UnknownVariant(_)));
    // The variant names the rules crate reads all work (American is English).
    for variant in Variant::ALL {
        if variant.geometry().side() == 8 {
            let bytes = model
                .clone()
                .set_metadata("checkerbot.variant", variant.name())
                .encode();
            assert_eq!(EvalNet::from_onnx(&bytes).unwrap().variant(), variant);
        }
    }
}

#[test]
fn a_network_for_another_board_size_is_refused() {
    // The 10x10 fixture labelled Russian: its first layer has 400 features, not 256.
    let mut model = international();
    model.set_metadata("checkerbot.variant", "russian");
    let e = refused(
        &model.encode(),
        &["ft.weight", "[400, 32]", "[256, hidden]", "8x8", "russian"],
    );
    assert!(
        matches!(
            e,
            EvalNetError::Shape {
                name: "ft.weight",
                ..
            }
        ),
        "{e:?}"
    );
    // And the other way round.
    let (_, mut model) = russian();
    model.set_metadata("checkerbot.variant", "international");
    refused(&model.encode(), &["[256, 32]", "[400, hidden]", "10x10"]);
}

#[test]
fn initializer_errors_name_the_initializer() {
    let (_, model) = russian();

    let mut m = model.clone();
    m.initializers.retain(|t| t.name != "out.bias");
    let e = refused(&m.encode(), &["no initializer `out.bias`"]);
    assert!(matches!(e, EvalNetError::MissingInitializer("out.bias")));

    let mut m = model.clone();
    m.tensor("l1.bias").dims = vec![17];
    m.tensor("l1.bias").values.push(0.0);
    refused(&m.encode(), &["`l1.bias`", "[17]", "expected [16]"]);

    let mut m = model.clone();
    m.tensor("l1.weight").dims = vec![64, 16, 1];
    refused(&m.encode(), &["`l1.weight`", "[64, 16, 1]", "[64, inner]"]);

    let mut m = model.clone();
    m.tensor("l1.weight").dims = vec![64, 300];
    refused(&m.encode(), &["`l1.weight`", "[64, 300]", "1 to 256"]);

    // A hidden width beyond the limit is refused from its shape, before its data is read.
    let mut m = model.clone();
    m.tensor("ft.weight").dims = vec![256, 2000];
    refused(&m.encode(), &["`ft.weight`", "[256, 2000]", "1 to 1024"]);

    let mut m = model.clone();
    m.tensor("ft.bias").values[5] = f32::NAN;
    let e = refused(&m.encode(), &["`ft.bias`", "not finite", "index 5"]);
    assert!(matches!(
        e,
        EvalNetError::NotFinite {
            name: "ft.bias",
            index: 5
        }
    ));

    // Finite, but so large that a position's first-layer sums could not be held in 16 bits;
    // a large bias alone is enough.
    let mut m = model.clone();
    m.tensor("ft.bias").values[2] = 40_000.0;
    let e = refused(&m.encode(), &["`ft.bias`", "16-bit", "40006"]);
    assert!(matches!(e, EvalNetError::OutOfRange { .. }), "{e:?}");

    let mut m = model.clone();
    m.tensor("out.weight").values[3] = f32::NEG_INFINITY;
    refused(&m.encode(), &["`out.weight`", "not finite"]);

    let mut m = model.clone();
    m.tensor("out.bias").data_type = 11;
    refused(&m.encode(), &["`out.bias`", "data type 11"]);

    let mut m = model.clone();
    m.tensor("ft.bias").values.pop();
    refused(&m.encode(), &["`ft.bias`", "holds 31 values", "needs 32"]);
}

#[test]
fn an_unreadable_file_is_named() {
    let path = Path::new("/nonexistent/evalnet.onnx");
    let e = EvalNet::load(path).unwrap_err();
    assert!(matches!(e, EvalNetError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/evalnet.onnx"), "{e}");
}

#[test]
fn float_data_packed_or_not_reads_as_raw_data_does() {
    let (bytes, model) = russian();
    let raw = EvalNet::from_onnx(&bytes).unwrap();
    let batch = positions(Variant::Russian, 100, 8);
    for encoding in [Encoding::Packed, Encoding::Unpacked, Encoding::Raw] {
        let mut m = model.clone();
        for t in &mut m.initializers {
            t.encoding = encoding;
        }
        let bytes = m.encode();
        let net = EvalNet::from_onnx(&bytes).unwrap();
        for p in &batch {
            assert_eq!(
                net.evaluate_position(p).to_bits(),
                raw.evaluate_position(p).to_bits(),
                "{encoding:?}"
            );
        }
    }
}
