//! Positions where rules are easy to get wrong (`tests/data/tricky.txt`).

use rules::{Variant, fen, notation};

/// Lists the legal moves of `fen` as the data file writes them.
fn describe(variant: Variant, fen_text: &str) -> String {
    let position = fen::parse(variant, fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|mv| {
            let crown = if mv.promotes() { "+K" } else { "" };
            format!(
                "{}{crown}",
                notation::move_text_in(variant, mv, rules::SquareNotation::Algebraic)
            )
        })
        .collect();
    moves.sort();
    moves.join(" ")
}

fn check(variant: Variant, fen_text: &str, expect: &str) {
    assert_eq!(describe(variant, fen_text), expect, "{variant} {fen_text}");
}

#[test]
fn tricky_positions() {
    let mut cases = 0;
    for line in include_str!("../data/tricky.txt").lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [variant, fen_text, expect] = fields[..] else {
            panic!("expected 3 fields: {line}")
        };
        check(variant.parse().unwrap(), fen_text, expect);
        cases += 1;
    }
    assert!(cases >= 10);
}
