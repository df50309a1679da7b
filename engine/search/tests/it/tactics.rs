//! The tactics suite: Russian positions with a winning shot (`tests/data/tactics-russian.txt`,
//! mined by `checkerbot-lab tactics mine`; `docs/benchmarks.md`), each searched at a fixed node
//! budget from a fresh searcher, so the count is the same on every machine. A change to the
//! search must solve at least as many as it does now.

use std::sync::atomic::AtomicBool;

use rules::{Variant, fen, notation};
use search::{Limits, Searcher};

/// Nodes per position: about a tenth of what level 5 searches in 300 ms.
const NODES: u64 = 200_000;
/// Solved at [`NODES`] when the suite was made; raise it when the search solves more.
const FLOOR: usize = 60;

#[test]
fn tactics_suite_solve_rate_holds() {
    let text = include_str!("../data/tactics-russian.txt");
    let mut total = 0;
    let mut solved = 0;
    let mut missed = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('|').map(str::trim);
        let (fen_text, move_text) = (fields.next().unwrap(), fields.next().unwrap());
        let position = fen::parse(Variant::Russian, fen_text).expect(fen_text);
        let solution = notation::parse_move(&position, move_text).expect(move_text);
        let limits = Limits {
            depth: 64,
            nodes: NODES,
        };
        let result = Searcher::new(16).search(&position, &[], limits, &AtomicBool::new(false));
        total += 1;
        if result.best == Some(solution) {
            solved += 1;
        } else {
            missed.push(fen_text.to_owned());
        }
    }
    assert!(total >= 50, "the suite has {total} positions");
    eprintln!("solved {solved}/{total} at {NODES} nodes; missed {missed:?}");
    assert!(
        solved >= FLOOR,
        "solved {solved}/{total} at {NODES} nodes, fewer than the floor {FLOOR}; missed {missed:?}"
    );
}
