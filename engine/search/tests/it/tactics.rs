//! The tactics suites: Russian positions with a winning shot, mined by `checkerbot-lab tactics
//! mine` (`docs/benchmarks.md`), each searched to a fixed node budget from a fresh searcher, so
//! the count is the same on every machine. A change to the search must solve at least as many
//! as it does now.

use std::sync::atomic::AtomicBool;

use rules::{Variant, fen, notation};
use search::{Limits, Searcher};

/// A suite file, the node budget it is searched to, and how many it must solve there.
pub(crate) struct Suite {
    pub(crate) name: &'static str,
    text: &'static str,
    pub(crate) nodes: u64,
    /// Solved at `nodes` when the suite was made; raise it when the search solves more.
    pub(crate) floor: usize,
}

/// Shots of every depth, many of which a depth-2 search sees too, at about a tenth of what
/// level 5 searches in 300 ms.
pub(crate) const SUITE: Suite = Suite {
    name: "the suite",
    text: include_str!("../data/tactics-russian.txt"),
    nodes: 200_000,
    floor: 60,
};

/// Shots a depth-2 search misses, at a budget small enough that some are missed: the search
/// solves all of them from 10,000 nodes on, so a larger one would not show a change.
const HARD_SUITE: Suite = Suite {
    name: "the hard suite",
    text: include_str!("../data/tactics-russian-hard.txt"),
    nodes: 2_000,
    floor: 49,
};

/// Searches every position of `suite` to its budget with a fresh searcher made by `searcher`;
/// returns how many there are and the FENs of those whose shot it missed.
pub(crate) fn run_suite(suite: &Suite, searcher: impl Fn() -> Searcher) -> (usize, Vec<String>) {
    let mut total = 0;
    let mut missed = Vec::new();
    for line in suite.text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('|').map(str::trim);
        let (fen_text, move_text) = (fields.next().unwrap(), fields.next().unwrap());
        let position = fen::parse(Variant::Russian, fen_text).expect(fen_text);
        let solution = notation::parse_move(&position, move_text).expect(move_text);
        let limits = Limits {
            depth: 64,
            nodes: suite.nodes,
        };
        let result = searcher().search(&position, &[], limits, &AtomicBool::new(false));
        total += 1;
        if result.best != Some(solution) {
            missed.push(fen_text.to_owned());
        }
    }
    assert!(total >= 50, "{} has {total} positions", suite.name);
    (total, missed)
}

/// `suite` solved by one thread at least its floor times.
fn solve_rate_holds(suite: &Suite) {
    let (total, missed) = run_suite(suite, || Searcher::new(16));
    let solved = total - missed.len();
    let Suite {
        name, nodes, floor, ..
    } = suite;
    eprintln!("{name}: solved {solved}/{total} at {nodes} nodes; missed {missed:?}");
    assert!(
        solved >= *floor,
        "{name}: solved {solved}/{total} at {nodes} nodes, fewer than the floor {floor}; \
         missed {missed:?}"
    );
}

#[test]
fn tactics_suite_solve_rate_holds() {
    solve_rate_holds(&SUITE);
}

#[test]
fn hard_tactics_suite_solve_rate_holds() {
    solve_rate_holds(&HARD_SUITE);
}
