//! The search with a learned evaluation: the shipped network's scores reach the root exactly
//! as plain minimax over it gives them, so the per-ply updates of its first layer are right.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use evalnet::EvalNet;
use rules::{Game, Variant};
use search::{Limits, Searcher};
use testkit::Lcg;

use crate::reference::minimax;

/// The network level 5 reads for Russian.
fn shipped() -> Arc<EvalNet> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/russian-eval.onnx");
    Arc::new(EvalNet::load(&path).unwrap_or_else(|err| panic!("{err}")))
}

#[test]
fn a_search_with_the_learned_evaluation_scores_as_minimax_over_it() {
    let net = shipped();
    assert_eq!(net.variant(), Variant::Russian);
    let stop = AtomicBool::new(false);
    let mut rng = Lcg(11);
    let mut checked = 0;
    let mut differs_from_hand_written = 0;
    for _ in 0..3 {
        let mut game = Game::new(Variant::Russian);
        while game.outcome().is_none() && game.moves().len() < 60 {
            let position = *game.position();
            if game.moves().len() % 5 == 2 && position.legal_moves().len() > 1 {
                for depth in 1..=4 {
                    let limits = Limits {
                        depth,
                        nodes: u64::MAX,
                    };
                    let mut searcher = Searcher::new(1).without_pruning();
                    searcher.set_evalnet(Some(Arc::clone(&net)));
                    let found = searcher.search(&position, &[], limits, &stop);
                    let expected = minimax(
                        None,
                        Some(&net),
                        &position,
                        depth as i32,
                        0,
                        &mut Vec::new(),
                    );
                    // The search adds and takes away first-layer rows as moves are made; the
                    // reference sums them afresh, so the last bit of a float may differ.
                    assert!(
                        (found.score - expected).abs() <= 1,
                        "depth {depth}: {} against {expected} in {position:?}",
                        found.score
                    );
                    let hand = minimax(None, None, &position, depth as i32, 0, &mut Vec::new());
                    differs_from_hand_written += usize::from(hand != expected);
                    checked += 1;
                }
            }
            let moves = position.legal_moves();
            game.play(&moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(checked > 60, "only {checked} searches compared");
    // Else the network would not be in use at all.
    assert!(
        differs_from_hand_written * 2 > checked,
        "{differs_from_hand_written} of {checked} scores differ from the hand-written evaluation's"
    );
}

#[test]
fn a_network_for_another_variant_is_left_unused() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 6,
        nodes: u64::MAX,
    };
    let mut rng = Lcg(5);
    let mut game = Game::new(Variant::Brazilian);
    for _ in 0..12 {
        let moves = game.position().legal_moves();
        game.play(&moves[rng.below(moves.len())]).unwrap();
    }
    let position = *game.position();
    let mut with = Searcher::new(1);
    with.set_evalnet(Some(shipped()));
    let plain = Searcher::new(1).search(&position, &[], limits, &stop);
    assert_eq!(with.search(&position, &[], limits, &stop), plain);
}
