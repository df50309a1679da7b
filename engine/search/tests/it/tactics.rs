//! The tactics suites: Russian positions with a winning shot, mined by `checkerbot-lab tactics
//! mine` (`docs/benchmarks.md`), each searched to a fixed node budget from a fresh searcher, so
//! the count is the same on every machine. A change to the search must solve at least as many
//! as it does now.

use std::sync::atomic::{AtomicBool, Ordering};

use rules::{Move, Position, Variant, fen, notation};
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
    floor: 50,
};

/// The positions of `suite` with their shots.
fn positions(suite: &Suite) -> impl Iterator<Item = (Position, Move)> {
    suite
        .text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split('|').map(str::trim);
            let (fen_text, move_text) = (fields.next().unwrap(), fields.next().unwrap());
            let position = fen::parse(Variant::Russian, fen_text).expect(fen_text);
            let solution = notation::parse_move(&position, move_text).expect(move_text);
            (position, solution)
        })
}

/// Searches every position of `suite` to its budget with a fresh searcher made by `searcher`;
/// returns how many there are and the FENs of those whose shot it missed.
pub(crate) fn run_suite(suite: &Suite, searcher: impl Fn() -> Searcher) -> (usize, Vec<String>) {
    let mut total = 0;
    let mut missed = Vec::new();
    for (position, solution) in positions(suite) {
        let limits = Limits {
            depth: 64,
            nodes: suite.nodes,
        };
        let result = searcher().search(&position, &[], limits, &AtomicBool::new(false));
        total += 1;
        if result.best != Some(solution) {
            missed.push(fen::write(&position));
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

/// A search stopped late in an iteration answers with the move that beat the last iteration's
/// best there, not with the completed iteration's move. For each hard position whose shot the
/// search first finds at some iteration after the first, a search stopped one node before that
/// iteration ends plays the shot, unless the shot is the last root move searched (the stop
/// then cuts its own search short): with two or three captures to choose from, often.
#[test]
fn a_stopped_iteration_keeps_a_shot_it_found() {
    let mut found_late = 0;
    let mut kept = 0;
    for (position, solution) in positions(&HARD_SUITE) {
        // Each completed iteration's move, nodes so far and depth, until the shot has been
        // the answer for three iterations.
        let mut iterations = Vec::new();
        let enough = AtomicBool::new(false);
        let limits = Limits {
            depth: 64,
            nodes: 100_000,
        };
        Searcher::new(16).search_reporting(&position, &[], limits, &enough, |result| {
            iterations.push((result.best, result.nodes, result.depth));
            if iterations.len() >= 3
                && iterations[iterations.len() - 3..]
                    .iter()
                    .all(|&(best, ..)| best == Some(solution))
            {
                enough.store(true, Ordering::Relaxed);
            }
        });
        let Some(at) = iterations
            .iter()
            .position(|&(best, ..)| best == Some(solution))
        else {
            continue;
        };
        if at == 0
            || iterations[at..]
                .iter()
                .any(|&(best, ..)| best != Some(solution))
        {
            continue;
        }
        found_late += 1;
        let limits = Limits {
            depth: 64,
            nodes: iterations[at].1 - 1,
        };
        let result = Searcher::new(16).search(&position, &[], limits, &AtomicBool::new(false));
        // The depth reported stays the last completed iteration's.
        assert_eq!(result.depth, iterations[at - 1].2);
        if result.best == Some(solution) {
            kept += 1;
        }
    }
    eprintln!("a stopped iteration kept {kept} of {found_late} shots it had found");
    assert!(
        found_late >= 30,
        "only {found_late} shots found after the first iteration"
    );
    assert!(
        kept * 2 >= found_late,
        "kept only {kept} of {found_late} shots"
    );
}
