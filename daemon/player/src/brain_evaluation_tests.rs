//! The learned evaluation in the brain: level 5 and the adaptive level hand the variant's
//! network beside the others to their search, levels 1 to 4 keep the hand-written evaluation,
//! and a missing or damaged file leaves the hand-written one with the reason said.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use checkerbot_config::{PlayLevel, Settings};
use network::calibration::{META_CALIBRATION, ValueCalibration};
use rules::{Position, Variant};

use super::Brain;
use crate::levels::level;

fn settings(level: PlayLevel, models: &Path) -> Settings {
    let mut settings = Settings::default();
    settings.play.level = level;
    settings.paths.models_dir = Some(models.to_path_buf());
    settings
}

/// A models folder holding the shipped Russian evaluation.
fn models_with_the_evaluation() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/russian-eval.onnx");
    std::fs::copy(shipped, dir.path().join("russian-eval.onnx")).unwrap();
    dir
}

fn searches_with_a_network(brain: &Brain) -> bool {
    brain.searcher.evalnet().is_some()
}

/// `brain` searches with the shipped network and says so.
fn assert_uses_the_shipped_network(brain: &Brain) {
    assert!(searches_with_a_network(brain));
    let described = brain.describe();
    assert!(
        described.contains("; learned evaluation russian-eval.onnx"),
        "{described}"
    );
}

#[test]
fn level_5_searches_with_the_learned_evaluation_and_hands_it_back() {
    let dir = models_with_the_evaluation();
    let brain = Brain::new(&settings(PlayLevel::Fixed(5), dir.path()), 1);
    assert_uses_the_shipped_network(&brain);
    // What checkerbot-lab match compares it with.
    let hand = brain.with_hand_evaluation();
    assert!(!searches_with_a_network(&hand));
    assert!(
        !hand.describe().contains("evaluation"),
        "{}",
        hand.describe()
    );
}

#[test]
fn the_adaptive_level_searches_with_it_too() {
    // Its full-strength moves are level 5's, and its scoring of moves the same search's.
    let dir = models_with_the_evaluation();
    let mut brain = Brain::new(&settings(PlayLevel::Adaptive, dir.path()), 1);
    assert_uses_the_shipped_network(&brain);
    // A move with the network in its search (the stop raised: no need to think long).
    let position = Position::new(Variant::Russian);
    let thought = brain.think(&position, &[], &AtomicBool::new(true)).unwrap();
    assert!(position.legal_moves().contains(&thought.mv));
    brain.reconfigure(&settings(PlayLevel::Fixed(3), dir.path()));
    assert!(!searches_with_a_network(&brain));
}

#[test]
fn levels_1_to_4_do_not_read_it_and_reloads_follow_the_settings() {
    let dir = models_with_the_evaluation();
    for level in [PlayLevel::Fixed(4), PlayLevel::Fixed(1)] {
        let brain = Brain::new(&settings(level, dir.path()), 1);
        assert!(!searches_with_a_network(&brain), "{level}");
        assert!(
            !brain.describe().contains("evaluation"),
            "{}",
            brain.describe()
        );
    }
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(4), dir.path()), 1);
    brain.reconfigure(&settings(PlayLevel::Fixed(5), dir.path()));
    assert!(searches_with_a_network(&brain));
    // The folder holds no Brazilian network: the Russian one is not used for Brazilian.
    let mut brazilian = settings(PlayLevel::Fixed(5), dir.path());
    brazilian.game.variant = Variant::Brazilian;
    brain.reconfigure(&brazilian);
    assert!(!searches_with_a_network(&brain));
    assert!(
        brain
            .describe()
            .contains("; hand-written evaluation: no file")
            && brain.describe().contains("brazilian-eval.onnx"),
        "{}",
        brain.describe()
    );
    brain.reconfigure(&settings(PlayLevel::Fixed(3), dir.path()));
    assert!(!searches_with_a_network(&brain));
}

#[test]
fn a_damaged_file_is_named_and_level_5_plays_on_without_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("russian-eval.onnx"), b"not a model").unwrap();
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), dir.path()), 1);
    assert!(!searches_with_a_network(&brain));
    let described = brain.describe();
    assert!(
        described.contains("; hand-written evaluation: ") && described.contains("russian-eval"),
        "{described}"
    );
    let stop = AtomicBool::new(true);
    let thought = brain.think(&Position::new(Variant::Russian), &[], &stop);
    assert!(thought.is_some());
}

/// The bytes of `model` with one more metadata entry: protobuf appends a repeated field's
/// entries, so the entry goes at the end (`ModelProto` field 14, key field 1, value field 2).
fn with_metadata(model: &[u8], key: &str, value: &str) -> Vec<u8> {
    let field = |number: u8, bytes: &[u8]| {
        let mut out = vec![(number << 3) | 2, u8::try_from(bytes.len()).unwrap()];
        out.extend_from_slice(bytes);
        out
    };
    let entry = [field(1, key.as_bytes()), field(2, value.as_bytes())].concat();
    [model.to_vec(), field(14, &entry)].concat()
}

/// The untrained Russian evaluation of the `evalnet` crate's tests, which carries no map.
fn untrained() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../engine/evalnet/tests/data/random-russian.onnx");
    std::fs::read(path).unwrap()
}

#[test]
fn level_5_reports_v_through_the_learned_evaluations_own_map() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("russian-eval.onnx");
    let level_5 = settings(PlayLevel::Fixed(5), dir.path());
    // A map for level 5 in the file: level 5 applies it; the hand-written evaluation keeps
    // the level's own.
    std::fs::write(
        &file,
        with_metadata(&untrained(), META_CALIBRATION, "5=1.5,0.25"),
    )
    .unwrap();
    let brain = Brain::new(&level_5, 1);
    assert!(searches_with_a_network(&brain));
    let map = brain.alpha_beta_map();
    assert!(
        (map.slope - 1.5).abs() < 1e-6 && (map.offset - 0.25).abs() < 1e-6,
        "{map:?}"
    );
    let hand = brain.with_hand_evaluation();
    assert_eq!(hand.alpha_beta_map(), level(5).alpha_beta_calibration);
    // No map for level 5: the raw v.
    std::fs::write(
        &file,
        with_metadata(&untrained(), META_CALIBRATION, "4=1.5,0.25"),
    )
    .unwrap();
    assert_eq!(
        Brain::new(&level_5, 1).alpha_beta_map(),
        ValueCalibration::IDENTITY
    );
    std::fs::write(&file, untrained()).unwrap();
    assert_eq!(
        Brain::new(&level_5, 1).alpha_beta_map(),
        ValueCalibration::IDENTITY
    );
    // A map that does not parse: the file is not used, and the reason names the key.
    std::fs::write(
        &file,
        with_metadata(&untrained(), META_CALIBRATION, "5=steep"),
    )
    .unwrap();
    let brain = Brain::new(&level_5, 1);
    assert!(!searches_with_a_network(&brain));
    assert_eq!(brain.alpha_beta_map(), level(5).alpha_beta_calibration);
    assert!(
        brain.describe().contains("checkerbot.calibration"),
        "{}",
        brain.describe()
    );
}

#[test]
fn the_shipped_evaluation_carries_a_map_for_level_5() {
    let dir = models_with_the_evaluation();
    let brain = Brain::new(&settings(PlayLevel::Fixed(5), dir.path()), 1);
    let map = brain.alpha_beta_map();
    assert_ne!(map, ValueCalibration::IDENTITY);
    assert_ne!(map, level(5).alpha_beta_calibration);
    // And the thought's v is the raw v through it.
    let mut brain = brain;
    brain.level.fallback_depth = Some(4);
    let thought = brain
        .think(
            &Position::new(Variant::Russian),
            &[],
            &AtomicBool::new(false),
        )
        .unwrap();
    assert!(
        (thought.v - map.apply(thought.raw_v)).abs() < 1e-6,
        "{thought:?}"
    );
    assert!((thought.v - thought.raw_v).abs() > 0.01, "{thought:?}");
}
