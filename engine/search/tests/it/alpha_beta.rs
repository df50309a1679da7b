//! Alpha-beta search: agrees with plain minimax, finds wins, respects limits.

use std::sync::atomic::AtomicBool;

use rules::{Game, Position, Variant, fen, notation};
use search::{Limits, Searcher, WIN_THRESHOLD};

use testkit::Lcg;

use crate::reference::minimax;

#[test]
fn alpha_beta_scores_equal_minimax() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for variant in [
        Variant::Russian,
        Variant::English,
        Variant::Brazilian,
        Variant::RussianGiveaway,
    ] {
        let mut rng = Lcg(7 + variant as u64);
        let mut game = Game::new(variant);
        while game.outcome().is_none() && game.moves().len() < 60 {
            let position = *game.position();
            if game.moves().len() % 6 == 3 {
                for depth in 1..=4 {
                    // Reductions and aspiration windows change scores by design (the
                    // tactics suite guards them); what is left must be exact.
                    let mut searcher = Searcher::new(1).without_pruning();
                    let limits = Limits {
                        depth,
                        nodes: u64::MAX,
                    };
                    let found = searcher.search(&position, &[], limits, &stop);
                    if position.legal_moves().len() > 1 {
                        let expected =
                            minimax(None, None, &position, depth as i32, 0, &mut Vec::new());
                        assert_eq!(
                            found.score, expected,
                            "{variant} depth {depth} {position:?}"
                        );
                        checked += 1;
                    }
                }
            }
            let moves = position.legal_moves();
            game.play(&moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(checked > 40, "only {checked} positions compared");
}

#[test]
fn finds_a_forced_win() {
    // White's man takes the last black piece.
    let position = fen::parse(Variant::Russian, "W:Wc3,a1:Bd4,h8").unwrap();
    let stop = AtomicBool::new(false);
    let result = Searcher::new(1).search(&position, &[], Limits::default(), &stop);
    let best = result.best.unwrap();
    assert_eq!(notation::move_text(Variant::Russian, &best), "c3:e5");
    // Capturing d4 leaves h8 alone against two men: not yet a forced win, but clearly better.
    assert!(result.win_probability > 0.8, "{result:?}");

    let won = fen::parse(Variant::Russian, "W:Wc3:Bd4").unwrap();
    let result = Searcher::new(1).search(&won, &[], Limits::default(), &stop);
    assert!(result.score >= WIN_THRESHOLD);
    assert!((result.win_probability - 1.0).abs() < f32::EPSILON);
}

#[test]
fn same_input_same_answer_and_limits_hold() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 8,
        nodes: 200_000,
    };
    let a = Searcher::new(4).search(&position, &[], limits, &stop);
    let b = Searcher::new(4).search(&position, &[], limits, &stop);
    assert_eq!(a, b);
    assert!(a.nodes <= 200_000 + 1);
    assert!(position.is_legal(&a.best.unwrap()));
    assert_eq!(a.pv.first(), a.best.as_ref());

    let stopped = AtomicBool::new(true);
    let quick = Searcher::new(1).search(
        &position,
        &[],
        Limits {
            depth: 30,
            nodes: u64::MAX,
        },
        &stopped,
    );
    assert!(position.is_legal(&quick.best.unwrap()));
    assert!(quick.depth <= 1);
}

#[test]
fn principal_variation_is_playable() {
    let position = fen::parse(Variant::Russian, "W:Wa3,c3,e3,g3,b2:Bb6,d6,f6,h6,g7").unwrap();
    let stop = AtomicBool::new(false);
    let result = Searcher::new(4).search(
        &position,
        &[],
        Limits {
            depth: 7,
            nodes: u64::MAX,
        },
        &stop,
    );
    let mut current = position;
    for mv in &result.pv {
        current = current.play(mv).expect("each PV move is legal in turn");
    }
    assert!(!result.pv.is_empty());
}

/// The line the search expects reaches as far as it searched, even through a small table that
/// keeps losing entries: the coach reads what a move allows from it, plies after the reply.
#[test]
fn principal_variation_reaches_the_depth_searched_with_a_small_table() {
    let depth = 9;
    let mut checked = 0;
    for (i, position) in testkit::random_positions(400, 7).into_iter().enumerate() {
        // Middle games with a choice at every turn of the first plies.
        if i % 20 != 0 || position.pieces(position.turn()).count() < 6 {
            continue;
        }
        // A one-megabyte table loses the line's entries to the rest of the tree.
        let result = Searcher::new(1).search(
            &position,
            &[],
            Limits {
                depth,
                nodes: u64::MAX,
            },
            &AtomicBool::new(false),
        );
        if result.score.abs() >= WIN_THRESHOLD {
            continue;
        }
        let mut current = position;
        for mv in &result.pv {
            current = current.play(mv).expect("each PV move is legal in turn");
        }
        assert!(
            result.pv.len() >= depth as usize,
            "{}: a line of {} plies at depth {depth}",
            fen::write(&position),
            result.pv.len()
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} positions checked");
}

/// The reports a caller shows as progress (the Hub protocol's `info` lines): one per completed
/// iteration, deeper each time, and the last one is the move the search returns.
#[test]
fn each_completed_iteration_is_reported_and_the_last_is_the_answer() {
    let position = Position::new(Variant::International);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 6,
        nodes: u64::MAX,
    };
    let mut reports = Vec::new();
    let result = Searcher::new(1).search_reporting(&position, &[], limits, &stop, |report| {
        reports.push(report.clone());
    });
    let depths: Vec<u32> = reports.iter().map(|r| r.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    let last = reports.last().unwrap();
    assert_eq!(
        (last.best, &last.pv, last.score),
        (result.best, &result.pv, result.score)
    );
    assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}
