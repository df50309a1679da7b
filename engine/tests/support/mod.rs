//! Helpers shared by the integration tests: a reproducible generator and random games.
#![allow(dead_code, reason = "each test file uses part of the helpers")]

pub mod python;

use engine::{Game, Position, Variant};

/// A small deterministic generator (Knuth's MMIX LCG), so a failing seed replays exactly.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays random legal moves from `start` until the game ends or `max_plies` were played.
pub fn random_game(start: Position, rng: &mut Lcg, max_plies: usize) -> Game {
    let mut game = Game::from_position(start);
    for _ in 0..max_plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        game.play(&mv).expect("a generated move is legal");
    }
    game
}

/// `count` positions of Russian draughts from random play seeded by `seed`, restarting from
/// the initial position now and then so that openings and endgames both appear.
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut position = Position::new(Variant::Russian);
    while out.len() < count {
        let moves = position.legal_moves();
        if moves.is_empty() || rng.below(50) == 0 {
            position = Position::new(Variant::Russian);
            continue;
        }
        out.push(position);
        position.play_unchecked(&moves[rng.below(moves.len())]);
    }
    out
}
