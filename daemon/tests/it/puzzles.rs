//! The puzzles of puzzle mode (`daemon/host/data/puzzles-*.txt`): enough of them, and each
//! solution the engine's own best line, so a visitor is never told "not that one" about a move
//! as good as the answer.

use std::sync::atomic::AtomicBool;

use rules::{Color, Position, Variant, notation};
use search::{Limits, Searcher};

/// Nodes for each of the solver's turns: the tactics suite's budget, which solves all of them.
const NODES: u64 = 300_000;

/// Material, a man 1 and a king 2, of `color` less the other side's.
fn balance(position: &Position, color: Color) -> i32 {
    let material =
        |c: Color| position.men_of(c).count() as i32 + 2 * position.kings_of(c).count() as i32;
    material(color) - material(!color)
}

#[test]
fn every_shipped_russian_puzzle_is_solved_by_the_engines_best_line() {
    let puzzles = host::puzzles::shipped(Variant::Russian).expect("the shipped file reads");
    assert!(puzzles.len() >= 30, "{} Russian puzzles", puzzles.len());
    let mut wrong = Vec::new();
    for puzzle in &puzzles {
        let start = puzzle.position;
        let solver = start.turn();
        let name = rules::fen::write(&start);
        // The solver's moves are what the engine plays there.
        for (position, mv) in puzzle.solver_moves() {
            let limits = Limits {
                depth: 64,
                nodes: NODES,
            };
            let found = Searcher::new(16).search(&position, &[], limits, &AtomicBool::new(false));
            if found.best != Some(mv) {
                wrong.push(format!(
                    "{name}: the engine plays {:?}, the solution {}",
                    found
                        .best
                        .map(|best| notation::move_text(Variant::Russian, &best)),
                    notation::move_text(Variant::Russian, &mv)
                ));
            }
        }
        // The replies between them are forced: the defender's only legal move.
        let mut position = start;
        for (i, mv) in puzzle.solution.iter().enumerate() {
            if i % 2 == 1 {
                assert_eq!(
                    position.legal_moves().len(),
                    1,
                    "{name}: reply {i} is forced"
                );
            }
            position = position.play(mv).unwrap();
        }
        // The shot wins material, which the defender cannot take back at once.
        assert_eq!(
            position.turn(),
            !solver,
            "{name}: the solution ends with the solver's move"
        );
        assert!(
            balance(&position, solver) - balance(&start, solver) >= 2,
            "{name}: the shot wins at least two men"
        );
        assert!(
            !position.has_capture(),
            "{name}: the defender cannot capture back at once"
        );
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
