//! Lazy SMP: a search on several threads finds what one thread finds, counts every thread's
//! nodes and ends when it should. Its results depend on the scheduler, so these tests check
//! what must hold whatever the interleaving, not exact scores.

use std::sync::atomic::AtomicBool;

use rules::{Position, Variant, fen, notation};
use search::{Limits, Searcher, WIN_THRESHOLD};

use crate::tactics;

#[test]
fn two_threads_find_a_forced_win() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4).with_threads(2);
    assert_eq!(searcher.threads(), 2);
    let won = fen::parse(Variant::Russian, "W:Wc3:Bd4").unwrap();
    let result = searcher.search(&won, &[], Limits::default(), &stop);
    assert!(result.score >= WIN_THRESHOLD, "{result:?}");
    assert_eq!(
        notation::move_text(Variant::Russian, &result.best.unwrap()),
        "c3:e5"
    );

    // The same searcher again (its helpers kept), on a position where the capture wins a man.
    let position = fen::parse(Variant::Russian, "W:Wc3,a1:Bd4,h8").unwrap();
    let result = searcher.search(&position, &[], Limits::default(), &stop);
    assert_eq!(
        notation::move_text(Variant::Russian, &result.best.unwrap()),
        "c3:e5"
    );
    assert!(result.win_probability > 0.8, "{result:?}");
}

#[test]
fn two_threads_solve_the_tactics_suite_as_well_as_one() {
    // The one-thread suite's budget and floor: the main thread alone searches as many nodes
    // as one thread does there, the helper's table entries on top.
    let suite = &tactics::SUITE;
    let (total, missed) = tactics::run_suite(suite, || Searcher::new(16).with_threads(2));
    let solved = total - missed.len();
    eprintln!(
        "two threads solved {solved}/{total} at {} nodes a thread",
        suite.nodes
    );
    assert!(
        solved >= suite.floor,
        "two threads solved {solved}/{total}; missed {missed:?}"
    );
}

#[test]
fn every_thread_counts_and_stops_at_its_limits() {
    let position = Position::new(Variant::Russian);
    let limits = Limits {
        depth: 64,
        nodes: 100_000,
    };
    let result =
        Searcher::new(4)
            .with_threads(2)
            .search(&position, &[], limits, &AtomicBool::new(false));
    assert!(position.is_legal(&result.best.unwrap()));
    assert_eq!(result.pv.first(), result.best.as_ref());
    // Each thread stops at the node limit, the main thread's end stops the helper, and the
    // nodes reported are both threads'.
    assert!(result.nodes <= 2 * (100_000 + 1), "{result:?}");

    let stopped = AtomicBool::new(true);
    let limits = Limits {
        depth: 30,
        nodes: u64::MAX,
    };
    let quick = Searcher::new(1)
        .with_threads(2)
        .search(&position, &[], limits, &stopped);
    assert!(position.is_legal(&quick.best.unwrap()));
    assert!(quick.depth <= 1);
}

#[test]
fn one_thread_and_a_search_alone_are_the_plain_search() {
    // A node-limited search (a hint, the coach's scoring) on a searcher that has helpers for
    // its timed searches must still replay exactly.
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 8,
        nodes: 200_000,
    };
    let plain = Searcher::new(4).search(&position, &[], limits, &stop);
    let one = Searcher::new(4)
        .with_threads(1)
        .search(&position, &[], limits, &stop);
    assert_eq!(plain, one);
    let mut two = Searcher::new(4).with_threads(2);
    assert_eq!(two.search_alone(&position, &[], limits, &stop), plain);
    assert_eq!(two.threads(), 2, "the helpers are kept for the next search");
}

#[test]
fn the_threads_change_in_place() {
    let mut searcher = Searcher::new(1);
    for (asked, threads) in [(3, 3), (2, 2), (4, 4), (1, 1), (0, 1)] {
        searcher.set_threads(asked);
        assert_eq!(searcher.threads(), threads, "asked for {asked}");
    }
    searcher.set_threads(2);
    let won = fen::parse(Variant::Russian, "W:Wc3:Bd4").unwrap();
    let result = searcher.search(&won, &[], Limits::default(), &AtomicBool::new(false));
    assert!(result.score >= WIN_THRESHOLD, "{result:?}");
}
