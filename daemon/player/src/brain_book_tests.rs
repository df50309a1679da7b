//! The opening book in the brain: level 5 draws its first moves from it by the seed, answers
//! from the search once out of it, reads the book only at level 5, and plays on without a
//! book that is missing or damaged.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use checkerbot_config::{PlayLevel, Settings};
use rules::{Position, Variant, notation};

use super::Brain;
use crate::book::book_path;
use crate::book::tests::book_of_the_start;

fn settings(level: u8, models: &Path) -> Settings {
    let mut settings = Settings::default();
    settings.play.level = PlayLevel::Fixed(level);
    settings.paths.models_dir = Some(models.to_path_buf());
    settings
}

/// A book of one position, the start, with two moves the search would not choose first.
fn write_book(models: &Path) -> Settings {
    let book = book_of_the_start(&[("a3-b4", 3), ("g3-h4", 2)]);
    let settings = settings(5, models);
    std::fs::write(book_path(&settings, Variant::Russian), book.write(&[])).unwrap();
    settings
}

fn first_move(brain: &mut Brain) -> String {
    let start = Position::new(Variant::Russian);
    let thought = brain.think(&start, &[], &AtomicBool::new(false)).unwrap();
    notation::move_text(Variant::Russian, &thought.mv)
}

#[test]
fn level_5_draws_its_opening_from_the_book_by_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let settings = write_book(dir.path());
    let drawn: BTreeSet<String> = (0..12)
        .map(|seed| first_move(&mut Brain::new(&settings, seed)))
        .collect();
    assert_eq!(drawn.into_iter().collect::<Vec<_>>(), ["a3-b4", "g3-h4"]);
    assert!(
        Brain::new(&settings, 0)
            .describe()
            .contains("; opening book of 1 positions"),
        "{}",
        Brain::new(&settings, 0).describe()
    );
    // A seed replays its choice.
    assert_eq!(
        first_move(&mut Brain::new(&settings, 5)),
        first_move(&mut Brain::new(&settings, 5))
    );
    // Out of the book the search answers.
    let mut brain = Brain::new(&settings, 1);
    let start = Position::new(Variant::Russian);
    let after = start.play(&start.legal_moves()[0]).unwrap();
    let thought = brain
        .think(&after, &[start], &AtomicBool::new(false))
        .unwrap();
    assert!(thought.playouts_or_nodes > 0, "searched: {thought:?}");
}

#[test]
fn only_level_5_reads_the_book_and_a_damaged_one_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    write_book(dir.path());
    // Level 4 plays its own way: never from the book, whatever the seed.
    let level_4 = settings(4, dir.path());
    for seed in 0..6 {
        let thought = Brain::new(&level_4, seed)
            .think(
                &Position::new(Variant::Russian),
                &[],
                &AtomicBool::new(false),
            )
            .unwrap();
        assert!(thought.playouts_or_nodes > 0, "{thought:?}");
    }
    // A damaged book: level 5 plays as it does with no book at all.
    let level_5 = settings(5, dir.path());
    let path = book_path(&level_5, Variant::Russian);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("a3-b4", "a3-b5")).unwrap();
    let no_book = tempfile::tempdir().unwrap();
    let searched = first_move(&mut Brain::new(&settings(5, no_book.path()), 1));
    assert!(
        !["a3-b4", "g3-h4"].contains(&searched.as_str()),
        "{searched}"
    );
    for seed in 0..3 {
        assert_eq!(first_move(&mut Brain::new(&level_5, seed)), searched);
    }
    // And says why, for `checkerbot doctor`.
    let described = Brain::new(&level_5, 0).describe();
    assert!(
        described.contains("; no opening book: ") && described.contains("-book.txt: line 2: "),
        "{described}"
    );
}
