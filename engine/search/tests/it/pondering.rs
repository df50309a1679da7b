//! What pondering relies on: a search of the position before the visitor's reply leaves the
//! table holding the reply's subtree, so the robot's search after it needs fewer nodes.

use std::sync::atomic::AtomicBool;

use rules::{Game, Variant};
use search::{Limits, Searcher};

/// Deterministic: 3649 nodes against 59802 when written; a margin of four times is asserted.
#[test]
fn a_search_after_pondering_the_position_before_the_reply_needs_fewer_nodes() {
    let game = Game::new(Variant::Russian);
    let visitor_faces = *game.position();
    let reply = visitor_faces.legal_moves()[0];
    let robot_faces = visitor_faces.play(&reply).unwrap();
    let history = [visitor_faces];
    let stop = AtomicBool::new(false);
    let depth = |depth| Limits {
        depth,
        nodes: u64::MAX,
    };

    let mut cold = Searcher::new(16);
    let unpondered = cold.search(&robot_faces, &history, depth(9), &stop);

    let mut pondering = Searcher::new(16);
    pondering.search(&visitor_faces, &[], depth(10), &stop);
    let pondered = pondering.search(&robot_faces, &history, depth(9), &stop);

    assert_eq!(pondered.depth, unpondered.depth);
    assert!(
        pondered.nodes * 4 < unpondered.nodes,
        "after pondering {} nodes, without {}",
        pondered.nodes,
        unpondered.nodes
    );
}
