//! The adaptive level (`play.level = "adaptive"`): the robot plays as well as the visitor does,
//! so that the game stays close whoever sits down.
//!
//! Before each of its moves the robot scores every legal move with a short alpha-beta search
//! (the one the coach uses for the visitor's alternatives). A move's *cost* is how far it scores
//! below the best (hundredths of a man).
//!
//! - **It learns the visitor's strength from what their moves cost.** At its turn the robot
//!   scores the visitor's moves in the position it left them, the same way, and finds what the
//!   one they played cost. The last [`MEMORY`] such costs are the picture of this visitor, kept
//!   into the next game unless the caller says a new visitor came
//!   ([`Adaptive::forget_visitor`]).
//! - **It makes the same mistakes.** Each move it draws one of those costs by the seed and plays
//!   a move whose cost is nearest: a visitor who leaves a piece one move in three meets a robot
//!   that does the same, and a careful visitor whose moves cost nothing meets level 5's full
//!   search. Two sides who err alike have even chances, whatever their strength.
//! - **It leans towards the target.** While the robot's score is above the one that leaves the
//!   visitor `play.adaptive_target`, the drawn cost grows by [`LEAN`] of the difference, and
//!   shrinks by as much while it is below: the game is pulled back towards close. The
//!   visitor's chances are read from the score moved by a handicap ([`HANDICAP_PER_COST`]
//!   times their mean move cost): a child who leaves pieces cannot win a level game, so the
//!   robot stays a piece or two behind them.
//!
//! A child must never see a strong robot leave a piece to be taken for nothing: against a
//! visitor whose moves cost on average less than [`CAREFUL_BELOW`], the robot never plays a move
//! that costs [`GIVE_AWAY`] or more.
//!
//! The robot's v is its expected score from the short search's score of the move it played,
//! moved by the same handicap (alpha-beta's logistic curve, not a level's calibration map): the
//! maps were fitted for fixed strengths, and with the robot's errors matched to the visitor's
//! and the handicap, a score at the target's is a game at the target.

use std::collections::VecDeque;

use rules::{Move, Position};

use crate::rng::SplitMix;

/// A move costing this much (hundredths of a man) leaves a piece to be taken for nothing, near
/// enough: the short search sees a man lost, give or take the position.
pub const GIVE_AWAY: i32 = 70;

/// Against a visitor whose moves cost less than this on average (hundredths of a man), the robot
/// plays no move costing [`GIVE_AWAY`] or more: such a visitor plays like level 4 or better.
pub const CAREFUL_BELOW: i32 = 25;

/// How many of the visitor's latest move costs make the picture of them: enough for a fair
/// sample of their mistakes, few enough to follow a visitor who warms up.
pub const MEMORY: usize = 16;

/// The costs assumed of a new visitor, until their first moves replace them: sound moves and a
/// slip now and then, but no piece left, which a strong visitor would keep for good (a weak one
/// shows it within a few moves).
pub const NEW_VISITOR_COSTS: [i32; 4] = [0, 0, 0, 30];

/// The most one move is taken to cost (hundredths of a man): a move that loses the game costs
/// this, not the search's win score.
pub const COST_CAP: i32 = 500;

/// How much of the robot's lead over the target's score (hundredths of a man) is added to the
/// cost it draws, and how much of its deficit is taken off.
pub const LEAN: f32 = 0.5;

/// How much the robot's score is moved (hundredths of a man) per hundredth of a man the
/// visitor's moves cost on average, to read the visitor's chances: the logistic curve assumes
/// two sound players, and a visitor who leaves pieces cannot win a level game, nor one a piece
/// up; measured so that the adaptive level scores even against a random mover (see the
/// operator guide, "Adaptive level").
pub const HANDICAP_PER_COST: f32 = 2.0;

/// Moves whose cost is this close (hundredths of a man) to the nearest one are drawn among as
/// equals: the short search cannot tell them apart, and neither can the visitor.
pub const TOLERANCE: i32 = 10;

/// What the adaptive level knows between moves.
#[derive(Debug, Clone)]
pub struct Adaptive {
    /// The visitor's expected score aimed at.
    target: f32,
    /// The robot's score (hundredths of a man) that leaves the visitor `target`.
    target_edge: i32,
    /// The visitor's latest move costs, oldest first, at most [`MEMORY`]; the first `assumed`
    /// of them are [`NEW_VISITOR_COSTS`], not the visitor's.
    costs: VecDeque<i32>,
    /// How many of `costs` are still assumed: each of the visitor's own moves replaces one
    /// first, so that a strong visitor is not met with a beginner's mistakes for long.
    assumed: usize,
    /// The position after the robot's last move, where the visitor's reply is measured.
    left: Option<Position>,
}

/// What the adaptive level chose among the scored moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// A move at full strength: level 5's search chooses it.
    FullStrength,
    /// This move, with the short search's score of it (for the robot, hundredths of a man).
    Weaker(Move, i32),
}

impl Adaptive {
    /// A fresh picture of a new visitor, aiming at the visitor's expected score `target`.
    pub fn new(target: f32) -> Adaptive {
        Adaptive {
            target,
            target_edge: edge_for(target),
            costs: NEW_VISITOR_COSTS.into_iter().collect(),
            assumed: NEW_VISITOR_COSTS.len(),
            left: None,
        }
    }

    /// Aims at another target from now on, keeping what was learnt of the visitor.
    pub fn retarget(&mut self, target: f32) {
        self.target = target;
        self.target_edge = edge_for(target);
    }

    /// A new visitor: start again from [`NEW_VISITOR_COSTS`].
    pub fn forget_visitor(&mut self) {
        *self = Adaptive::new(self.target);
    }

    /// The visitor's mean move cost (hundredths of a man): 0 for a perfect player, above 100 for
    /// one who leaves a piece every move.
    pub fn visitor_cost(&self) -> f32 {
        self.costs.iter().sum::<i32>() as f32 / self.costs.len().max(1) as f32
    }

    /// How far behind (hundredths of a man) the robot must be for this visitor's chances to be
    /// even: [`HANDICAP_PER_COST`] times their mean move cost.
    pub fn handicap(&self) -> i32 {
        (HANDICAP_PER_COST * self.visitor_cost()).round() as i32
    }

    /// The robot's v after a move the short search scores `score`: its expected score against
    /// this visitor, on alpha-beta's logistic curve moved by the [handicap](HANDICAP_PER_COST).
    pub fn v(&self, score: i32) -> f32 {
        if score.abs() >= search::WIN_THRESHOLD {
            return search::win_probability(score);
        }
        search::win_probability(score + self.handicap())
    }

    /// The visitor's expected score aimed at.
    pub fn target(&self) -> f32 {
        self.target
    }

    /// The position the robot's last move left the visitor, once: where their reply is to be
    /// measured. `None` before the robot's first move, and after it was asked once.
    pub fn take_left(&mut self) -> Option<Position> {
        self.left.take()
    }

    /// Learns from the visitor's last move, which cost `cost` (hundredths of a man below their
    /// best; a search's win score counts as [`COST_CAP`]).
    pub fn observe(&mut self, cost: i32) {
        if self.assumed > 0 {
            self.assumed -= 1;
            self.costs.pop_front();
        } else if self.costs.len() == MEMORY {
            self.costs.pop_front();
        }
        self.costs.push_back(cost.clamp(0, COST_CAP));
    }

    /// Remembers the robot's move: `after` is the position it leaves the visitor.
    pub fn played(&mut self, after: Position) {
        self.left = Some(after);
    }

    /// The move to play among `scored` (every legal move with the robot's score after it): one
    /// of the visitor's costs drawn from `rng`, leaned towards the target, and the move whose
    /// cost is nearest (drawn among equals); full strength when that is the best move.
    pub fn choose(&self, scored: &[(Move, i32)], rng: &mut SplitMix) -> Choice {
        let Some(best) = scored.iter().map(|&(_, score)| score).max() else {
            return Choice::FullStrength;
        };
        let drawn = self.costs[rng.below(self.costs.len())];
        let lead = best.clamp(-COST_CAP, COST_CAP) + self.handicap() - self.target_edge;
        let wanted = drawn as f32 + LEAN * lead as f32;
        let careful = self.visitor_cost() < CAREFUL_BELOW as f32;
        let allowed = |&&(_, score): &&(Move, i32)| !careful || cost(best, score) < GIVE_AWAY;
        let distance = |score: i32| (cost(best, score) as f32 - wanted).abs();
        let nearest = scored
            .iter()
            .filter(allowed)
            .map(|&(_, score)| distance(score))
            .fold(f32::INFINITY, f32::min);
        let pool: Vec<(Move, i32)> = scored
            .iter()
            .filter(allowed)
            .filter(|&&(_, score)| distance(score) <= nearest + TOLERANCE as f32)
            .copied()
            .collect();
        // A careful visitor's sound move is answered with level 5's; a weak visitor's with any
        // of the moves the short search cannot tell from the best, as their own are chosen.
        // The best move is always allowed, so the pool is never empty.
        if careful && pool.iter().any(|&(_, score)| score == best) {
            return Choice::FullStrength;
        }
        let (mv, score) = pool[rng.below(pool.len())];
        Choice::Weaker(mv, score)
    }
}

/// What a move scored `score` costs when the best scores `best` (hundredths of a man): the
/// difference, with every score beyond [`COST_CAP`] taken as that (between two lost games, or two
/// won ones, there is nothing to choose).
pub fn cost(best: i32, score: i32) -> i32 {
    best.clamp(-COST_CAP, COST_CAP) - score.clamp(-COST_CAP, COST_CAP)
}

/// The robot's score (hundredths of a man) whose win probability on alpha-beta's logistic curve
/// leaves the visitor `target`.
fn edge_for(target: f32) -> i32 {
    let robot = (1.0 - target).clamp(0.01, 0.99);
    (search::SCORE_PER_LOGIT * (robot / (1.0 - robot)).ln()).round() as i32
}

#[cfg(test)]
#[path = "adaptive_tests.rs"]
mod tests;
