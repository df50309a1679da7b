//! The fragment catalogue: what the renderer records.

use std::collections::BTreeSet;

use emotions::Language;
use speech::fragments;

#[test]
fn every_language_has_the_same_fragments_once_each() {
    let ids = |language| -> Vec<String> {
        fragments(language)
            .into_iter()
            .map(|f| f.id.to_string())
            .collect()
    };
    let english = ids(Language::English);
    let unique: BTreeSet<&String> = english.iter().collect();
    assert_eq!(unique.len(), english.len(), "duplicate fragment ids");
    for language in Language::ALL {
        let mut these = ids(language);
        let mut want = english.clone();
        these.sort();
        want.sort();
        assert_eq!(these, want, "{language}");
    }
}

#[test]
fn square_names_cover_every_board_and_spell_letters_in_the_language() {
    let russian = fragments(Language::Russian);
    let spoken = |id: &str| {
        russian
            .iter()
            .find(|f| f.id.as_str() == id)
            .map(|f| f.spoken.clone())
    };
    assert_eq!(spoken("square.f4").as_deref(), Some("эф 4"));
    assert_eq!(spoken("square.72").as_deref(), Some("72"));
    // The 12x12 board's far corner, and every square of 8x8 (Italian boards are turned).
    assert!(spoken("square.l12").is_some());
    assert!(spoken("square.b1").is_some() && spoken("square.a1").is_some());
    assert!(spoken("square.73").is_none());
    let squares = russian
        .iter()
        .filter(|f| f.id.as_str().starts_with("square."))
        .count();
    assert_eq!(squares, 64 + 18 + 22 + 72);
}
