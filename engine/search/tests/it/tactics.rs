//! The tactics suite: Russian positions with a winning shot (`tests/data/tactics-russian.txt`,
//! mined by `checkerbot-lab tactics mine`; `docs/benchmarks.md`), each searched at a fixed node
//! budget from a fresh searcher, so the count is the same on every machine. A change to the
//! search must solve at least as many as it does now.

use std::sync::atomic::AtomicBool;

use rules::{Variant, fen, notation};
use search::{Limits, Searcher};

/// Nodes per position: about a tenth of what level 5 searches in 300 ms.
pub(crate) const NODES: u64 = 200_000;
/// Solved at [`NODES`] when the suite was made; raise it when the search solves more.
pub(crate) const FLOOR: usize = 60;

/// Searches every position of the suite at [`NODES`] with a fresh searcher made by `searcher`;
/// returns how many there are and the FENs of those whose shot it missed.
pub(crate) fn run_suite(searcher: impl Fn() -> Searcher) -> (usize, Vec<String>) {
    let text = include_str!("../data/tactics-russian.txt");
    let mut total = 0;
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
        let result = searcher().search(&position, &[], limits, &AtomicBool::new(false));
        total += 1;
        if result.best != Some(solution) {
            missed.push(fen_text.to_owned());
        }
    }
    assert!(total >= 50, "the suite has {total} positions");
    (total, missed)
}

#[test]
fn tactics_suite_solve_rate_holds() {
    let (total, missed) = run_suite(|| Searcher::new(16));
    let solved = total - missed.len();
    eprintln!("solved {solved}/{total} at {NODES} nodes; missed {missed:?}");
    assert!(
        solved >= FLOOR,
        "solved {solved}/{total} at {NODES} nodes, fewer than the floor {FLOOR}; missed {missed:?}"
    );
}
