//! Perft against published tables (`tests/data/perft.txt`).
//!
//! CI runs every entry up to a node limit; `cargo test --release -- --ignored` runs the rest.

use rules::{Position, Variant, fen, perft};

/// Entries with more leaves than this are left to the ignored test.
const CI_NODE_LIMIT: u64 = 6_000_000;

struct Case {
    line: usize,
    variant: Variant,
    depth: u32,
    leaves: u64,
    position: Position,
}

fn cases() -> Vec<Case> {
    include_str!("../data/perft.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split('|').map(str::trim).collect();
            let [variant, depth, leaves, fen_text] = fields[..] else {
                panic!("line {}: expected 4 fields", i + 1)
            };
            let variant: Variant = variant.parse().unwrap();
            let position = if fen_text == "start" {
                Position::new(variant)
            } else {
                fen::parse(variant, fen_text).unwrap()
            };
            Case {
                line: i + 1,
                variant,
                depth: depth.parse().unwrap(),
                leaves: leaves.parse().unwrap(),
                position,
            }
        })
        .collect()
}

fn check(cases: impl Iterator<Item = Case>) {
    for case in cases {
        assert_eq!(
            perft(&case.position, case.depth),
            case.leaves,
            "line {}: {} depth {}",
            case.line,
            case.variant,
            case.depth
        );
    }
}

#[test]
fn published_perft_within_ci_limit() {
    check(cases().into_iter().filter(|c| c.leaves <= CI_NODE_LIMIT));
}

#[test]
#[ignore = "deep perft takes minutes; run with --release -- --ignored"]
fn published_perft_deep() {
    check(cases().into_iter().filter(|c| c.leaves > CI_NODE_LIMIT));
}
