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
//! A careful visitor is read differently, since the short search cannot tell depth-4
//! alpha-beta's moves from level 5's:
//!
//! - **A reply the robot's full search expected costs nothing**, unscored: the short search's
//!   cost of a deeper choice is its own noise, and counting it made the robot concede moves of
//!   that cost to level 5, which conceded none.
//! - **Its lean starts beyond [`CAREFUL_LEAN_MARGIN`]** (with [`CAREFUL_LEAN`]): a smaller lead
//!   is the short search's noise too.
//! - **Its full search is cut** while that search's own score puts it ahead beyond
//!   [`CUT_MARGIN`] (a ply below the depth it reached, each such move) and goes back to full
//!   depth as soon as that score is level ([`Adaptive::follow_lead`]): against a weaker careful
//!   visitor the robot plays shallower until the game stays level, never a deliberate blunder.
//! - **No scoring when nothing would come of it**: after an expected reply, with nothing drawn
//!   and no lead, the move is the full search's at once ([`Adaptive::full_strength_unscored`]),
//!   and the scoring's time goes to it.
//! - **A visitor who plays as level 5 does meets level 5**: when at least [`STRONG_AGREEMENT`]
//!   of their latest replies (not forced) were the ones the robot's full search expected
//!   ([`Adaptive::plays_like_level_5`]), the robot neither measures their moves nor scores
//!   its own, leans or cuts its search: every move is level 5's, in level 5's whole move time.
//!   Its lead over such a visitor is not the short search's to give back, and the scoring's
//!   time cost it games it could not afford against them.
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

/// Against a careful visitor (see [`CAREFUL_BELOW`]), how much of the robot's lead beyond
/// [`CAREFUL_LEAN_MARGIN`] is added to the cost it draws. Such a visitor's drawn costs are
/// mostly nothing (their replies are the ones the robot's full search expected), so the lead is
/// what weakens the robot against a careful but weaker visitor (depth-4 alpha-beta): half of it
/// let the robot keep a growing advantage there (67.5% over 100 games, seed 1, 100 ms); all of
/// it scored 60.5%, and against level 5, where the robot is seldom ahead, 35.0% to half's 32.0%.
pub const CAREFUL_LEAN: f32 = 1.0;

/// The deepest the robot's full search goes (plies): deeper than level 5 gets within its move
/// time, so at this cap the full search is level 5's.
pub const FULL_DEPTH: u32 = 64;

/// The shallowest the robot's full search is cut to against a careful visitor: still sees a
/// piece taken back at once.
pub const MIN_DEPTH: u32 = 3;

/// Against a careful visitor, a lead (hundredths of a man, beyond the target's edge) within
/// this is none: the short search's scores of a level position differ by as much, and against
/// a visitor as strong as level 5 a move given away for it is not won back.
pub const CAREFUL_LEAN_MARGIN: i32 = 20;

/// Against a careful visitor, how far beyond the target's edge (hundredths of a man) the full
/// search's own score must put the robot before its search is cut (see
/// [`Adaptive::follow_lead`]): half a man, more than a level position's scores differ by
/// between searches.
pub const CUT_MARGIN: i32 = 50;

/// How much the robot's score is moved (hundredths of a man) per hundredth of a man the
/// visitor's moves cost on average, to read the visitor's chances: the logistic curve assumes
/// two sound players, and a visitor who leaves pieces cannot win a level game, nor one a piece
/// up; measured so that the adaptive level scores even against a random mover (see the
/// operator guide, "Adaptive level").
pub const HANDICAP_PER_COST: f32 = 2.0;

/// Moves whose cost is this close (hundredths of a man) to the nearest one are drawn among as
/// equals: the short search cannot tell them apart, and neither can the visitor.
pub const TOLERANCE: i32 = 10;

/// How many of the visitor's latest replies to the robot's full-strength moves (not forced)
/// make the picture of how often they play what its search expected.
pub const AGREEMENT_MEMORY: usize = 24;

/// The fewest such replies from which that picture is read: fewer say too little.
pub const AGREEMENT_MIN: usize = 12;

/// The share of the visitor's replies the robot's full search expected at or above which they
/// play like level 5 (see [`Adaptive::plays_like_level_5`]). Measured at 200 ms a move (seed
/// 1, 20 games each, this rule at 0.65): the share over the last [`AGREEMENT_MEMORY`] replies
/// was 0.65 on average against level 5 and 0.41 against alpha-beta depth 4, and at or above
/// this at 60% of the robot's moves against level 5 and at 5% against depth 4.
pub const STRONG_AGREEMENT: f32 = 0.6;

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
    /// After a full-strength move: the visitor's reply its search expected (the second move of
    /// its line) and its score for the robot (hundredths of a man). That reply is measured by
    /// the deeper search, not the short one (see [`Adaptive::observe_expected`]).
    expected: Option<(Move, i32)>,
    /// How deep the robot's full search may go against a careful visitor (plies). A careful
    /// visitor's moves cost little whether they play like depth-2 alpha-beta or like level 5, so
    /// their strength is read from the game instead: each move the robot is ahead beyond the
    /// target's edge and [`CUT_MARGIN`] by its full search cuts it a ply below the depth that
    /// search reached; a level score by it restores [`FULL_DEPTH`].
    depth: u32,
    /// Whether each of the visitor's latest replies (not forced) to a full-strength move was
    /// the one its search expected, oldest first, at most [`AGREEMENT_MEMORY`].
    agreements: VecDeque<bool>,
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
            expected: None,
            depth: FULL_DEPTH,
            agreements: VecDeque::new(),
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

    /// Remembers the robot's move: `after` is the position it leaves the visitor, and
    /// `expected` the reply its full-strength search expected with that search's score for the
    /// robot (`None` after a weaker move, or a line of one move).
    pub fn played(&mut self, after: Position, expected: Option<(Move, i32)>) {
        self.left = Some(after);
        self.expected = expected;
    }

    /// The reply the robot's last (full-strength) move expected and its search's score, once.
    pub fn take_expected(&mut self) -> Option<(Move, i32)> {
        self.expected.take()
    }

    /// Learns from a visitor's reply that the robot's full-strength search expected: it costs
    /// nothing. The short search's cost of such a move is its own noise (it often disagrees
    /// with a deeper choice, by 10-60 hundredths), and counting it made the robot concede
    /// moves of that cost to a visitor who conceded none.
    pub fn observe_expected(&mut self) {
        self.observe(0);
    }

    /// Learns whether the visitor's reply (not forced) to a full-strength move was the one that
    /// move's search expected.
    pub fn agreed(&mut self, expected: bool) {
        if self.agreements.len() == AGREEMENT_MEMORY {
            self.agreements.pop_front();
        }
        self.agreements.push_back(expected);
    }

    /// The share of the visitor's latest replies the robot's full search expected, once there
    /// are [`AGREEMENT_MIN`] of them.
    pub fn agreement(&self) -> Option<f32> {
        (self.agreements.len() >= AGREEMENT_MIN).then(|| {
            let hits = self.agreements.iter().filter(|&&hit| hit).count();
            hits as f32 / self.agreements.len() as f32
        })
    }

    /// Whether the visitor plays like level 5: carefully, and the replies the robot's full
    /// search expected at least [`STRONG_AGREEMENT`] of the time. The robot then plays level 5
    /// every move, unscored: no handicap is theirs to give.
    pub fn plays_like_level_5(&self) -> bool {
        self.careful()
            && self
                .agreement()
                .is_some_and(|share| share >= STRONG_AGREEMENT)
    }

    /// How deep the robot's full search may go (plies): [`FULL_DEPTH`] against a visitor who is
    /// not careful (their costs say how they play) or who plays like level 5, else as the game
    /// taught (see [`Adaptive::follow_lead`]).
    pub fn depth(&self) -> u32 {
        if self.careful() && !self.plays_like_level_5() {
            self.depth
        } else {
            FULL_DEPTH
        }
    }

    /// After the robot's move: against a careful visitor, a ply less than `reached` (the depth
    /// the full search last reached; the current cap when it did not search) while the full
    /// search's own score `searched` (hundredths of a man, for the robot) puts it ahead beyond the
    /// target's edge and [`CUT_MARGIN`], and level 5's full depth again at once when that score
    /// is within [`CAREFUL_LEAN_MARGIN`] of the edge. In between, or after a weaker move (no full
    /// search, `searched` is `None`), the depth stays. The short scoring search's best was read
    /// here before: between equal players its small leads were noise, and the cut search lost
    /// to level 5 (130 ms of search a move to level 5's 184). Against a visitor who plays like
    /// level 5 the depth is full.
    pub fn follow_lead(&mut self, searched: Option<i32>, reached: Option<u32>) {
        if !self.careful() {
            return;
        }
        if self.plays_like_level_5() {
            self.depth = FULL_DEPTH;
            return;
        }
        let Some(score) = searched else {
            return;
        };
        let lead = self.lead(score);
        if lead > CUT_MARGIN {
            let from = reached.map_or(self.depth, |reached| reached.min(self.depth));
            self.depth = from.saturating_sub(1).max(MIN_DEPTH);
        } else if lead <= CAREFUL_LEAN_MARGIN {
            self.depth = FULL_DEPTH;
        }
    }

    /// How far the robot at `score` (hundredths of a man, for it) is ahead of the score that
    /// leaves this visitor the target, reading their chances through the handicap; negative
    /// when behind.
    fn lead(&self, score: i32) -> i32 {
        score.clamp(-COST_CAP, COST_CAP) + self.handicap() - self.target_edge
    }

    /// Whether the visitor plays carefully: their moves cost less than [`CAREFUL_BELOW`] on
    /// average, and the robot then leaves no piece for nothing.
    pub fn careful(&self) -> bool {
        self.visitor_cost() < CAREFUL_BELOW as f32
    }

    /// One of the visitor's costs, drawn by `rng`: what the robot's next move may cost before
    /// the lean.
    pub fn draw(&self, rng: &mut SplitMix) -> i32 {
        self.costs[rng.below(self.costs.len())]
    }

    /// Whether the robot's move is level 5's full search without scoring its moves first: the
    /// visitor is careful, the cost `drawn` is nothing, and the robot, at `score` by its last
    /// full search (its expected line followed since), is not ahead of the target's edge by
    /// more than [`CAREFUL_LEAN_MARGIN`], so
    /// that [`choose_drawn`](Adaptive::choose_drawn) would choose full strength anyway. The
    /// scoring's few hundredths of a second then go to the search, which against a visitor as
    /// strong as level 5 is most of the difference (at 200 ms a move, a sixth of the time).
    pub fn full_strength_unscored(&self, drawn: i32, score: i32) -> bool {
        self.careful() && drawn == 0 && self.lead(score) <= CAREFUL_LEAN_MARGIN
    }

    /// The move to play among `scored` (every legal move with the robot's score after it): one
    /// of the visitor's costs drawn from `rng`, leaned towards the target, and the move whose
    /// cost is nearest (drawn among equals); full strength when that is the best move.
    pub fn choose(&self, scored: &[(Move, i32)], rng: &mut SplitMix) -> Choice {
        let drawn = self.draw(rng);
        self.choose_drawn(scored, drawn, rng)
    }

    /// [`choose`](Adaptive::choose) with the visitor's cost already drawn.
    pub fn choose_drawn(&self, scored: &[(Move, i32)], drawn: i32, rng: &mut SplitMix) -> Choice {
        let Some(best) = scored.iter().map(|&(_, score)| score).max() else {
            return Choice::FullStrength;
        };
        let lead = self.lead(best);
        let careful = self.careful();
        let wanted = if careful {
            let beyond = lead.signum() * (lead.abs() - CAREFUL_LEAN_MARGIN).max(0);
            drawn as f32 + CAREFUL_LEAN * beyond as f32
        } else {
            drawn as f32 + LEAN * lead as f32
        };
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

/// The score (hundredths of a man) whose win probability on alpha-beta's logistic curve is
/// `p`: the inverse of [`search::win_probability`], within 1% of a certain result.
pub fn score_of(p: f32) -> i32 {
    let p = p.clamp(0.01, 0.99);
    (search::SCORE_PER_LOGIT * (p / (1.0 - p)).ln()).round() as i32
}

/// The robot's score (hundredths of a man) whose win probability on alpha-beta's logistic curve
/// leaves the visitor `target`.
fn edge_for(target: f32) -> i32 {
    score_of(1.0 - target)
}

#[cfg(test)]
#[path = "adaptive_tests.rs"]
mod tests;
