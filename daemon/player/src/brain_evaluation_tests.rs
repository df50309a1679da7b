//! The learned evaluation in the brain: level 5 hands the variant's network beside the others
//! to its search, the other levels and the adaptive level keep the hand-written evaluation,
//! and a missing or damaged file leaves the hand-written one with the reason said.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use checkerbot_config::{PlayLevel, Settings};
use rules::{Position, Variant};

use super::Brain;

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

#[test]
fn level_5_searches_with_the_learned_evaluation_and_hands_it_back() {
    let dir = models_with_the_evaluation();
    let brain = Brain::new(&settings(PlayLevel::Fixed(5), dir.path()), 1);
    assert!(searches_with_a_network(&brain));
    assert!(
        brain
            .describe()
            .contains("; learned evaluation russian-eval.onnx"),
        "{}",
        brain.describe()
    );
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
fn only_fixed_level_5_reads_it_and_reloads_follow_the_settings() {
    let dir = models_with_the_evaluation();
    for level in [
        PlayLevel::Fixed(4),
        PlayLevel::Fixed(1),
        PlayLevel::Adaptive,
    ] {
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
    // Brazilian has no network of its own: the Russian one is not used for it.
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
