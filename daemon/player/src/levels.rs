//! Difficulty levels: what plays at each `play.level`.
//!
//! The reference robot set its difficulty by choosing the network generation; here a level is
//! a generation plus a playout budget and a temperature, so the weak levels are both less
//! knowledgeable and less careful. Without a network each level has an alpha-beta stand-in: a
//! depth and a share of random moves, chosen so that it scores like the network level against
//! a random mover and against alpha-beta depths 2 and 4 (measured within 5 points of it at
//! every level against random and depth 2, within 8 against depth 4). The table's strength
//! figures are in `models/README.md`.
//!
//! | level | network | playouts: 8x8, 10x10, 12x12 | temperature | without a network |
//! |-------|---------|-----------------------------|-------------|-------------------|
//! | 1 | gen1 | 8 | 2.0 | alpha-beta depth 1, 70% random moves |
//! | 2 | gen1 | 48 | 1.0 | alpha-beta depth 2, 55% random moves |
//! | 3 | gen4, gen3, else gen2 | 400, 1,600, 3,200 | 0, varied | alpha-beta depth 4 |
//! | 4 | gen4, gen3, else gen2 | 1,600, 12,800, 12,800 | 0, varied | alpha-beta depth 6 |
//! | 5 | none: alpha-beta until `move_time_ms` | | | the same |
//!
//! Generation 3 is a stronger generation 2: Brazilian's, pool's, English's, Italian's and
//! Russian giveaway's are gen2's perceptron trained afresh on labels by level 5's learned
//! evaluation; Russian's is gen2 refined by self-play (`checkerbot-lab selfplay`), and its
//! generation 4 is made as the others' gen3 were. A level plays the newest of its generations
//! that its variant has, so International and Canadian play their gen2 at levels 3-4.
//!
//! Level 5 is the strongest player within the move time, and measured at equal time (200 ms a
//! move) alpha-beta beat MCTS with the gen2 network clearly, so the top level searches with
//! alpha-beta until the caller's stop; a stronger network generation can take it back by
//! setting its `generations`.
//!
//! A temperature of 0 plays the most visited move; above it the move is drawn from the visit
//! counts (`N^(1/t)`), which is what makes levels 1 and 2 miss things a beginner can exploit.
//! Levels 3 and 4 add variety without a temperature: when other root moves have at least
//! [`VARIETY`] of the top move's visits, the seed draws among those near-equal moves, so the
//! robot does not play one opening and one line every game (measured to cost no strength:
//! `models/README.md`, "Variety"). Their alpha-beta stand-ins do the same among root moves
//! scored within [`VARIETY_MARGIN`] of the best one.
//!
//! Each level reports a calibrated v: its raw v mapped by Platt scaling
//! ([`ValueCalibration`]) fitted against how its games ended, because the raw v was too
//! hopeful in the middle at levels 1-2 and too cautious at 3-5. A network's maps travel in its
//! ONNX metadata, one per level that plays it (`network::calibration`; the numbers and
//! how they were fitted are in `models/README.md`), because a map fits one network at one level
//! and nothing else; a level whose network has no map reports the raw v. The alpha-beta players'
//! maps are here ([`Level::alpha_beta_calibration`]): level 5's, fitted at 200 ms a move and
//! checked at the robot's default 2 s (100 games against depth 4: calibration error 0.031), and
//! the stand-ins', fitted the same way on their own games: alpha-beta's logistic v was too
//! hopeful for the stand-ins of levels 1-2 (they play random moves) and too cautious for those
//! of 3-4. Fitted on Russian, they serve every variant, since alpha-beta's curve reads material
//! the same way in all; on the International and Canadian stand-ins they lowered the
//! calibration error at every level.

use network::calibration::ValueCalibration;
use rules::Variant;

/// The settings of one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    /// The level, 1..=5.
    pub number: u8,
    /// The network generations the level can play (`<variant>-gen<N>.onnx`), newest first: the
    /// first one shipped for the variant plays, so a variant with a refined network gets it
    /// and the others keep the one they have. Empty: alpha-beta by design.
    pub generations: &'static [u8],
    /// Playouts per move on the 8x8, 10x10 and 12x12 boards, read through
    /// [`Level::playouts_in`]; `None`: until the caller's stop (`move_time_ms`), with
    /// [`UNTIMED_PLAYOUTS`] as the cap when nobody stops it. A bigger board's position has more
    /// moves and its game more plies, so the same playouts see less of it: the careful levels
    /// search more there, to be at least as strong as their alpha-beta stand-ins
    /// (`models/README.md`, "Bigger boards").
    pub playouts: Option<[u32; 3]>,
    /// Move choice temperature.
    pub temperature: f32,
    /// At temperature 0, the share of the most visited move's visits that another root move
    /// needs to count as near-equal; the move is then drawn (from the seed) among the
    /// near-equal ones, so that the robot does not play one opening and one line every game.
    /// The alpha-beta stand-in draws among moves within [`VARIETY_MARGIN`] instead. `None`:
    /// always the best move.
    pub variety: Option<f32>,
    /// Alpha-beta depth without a network; `None`: until the caller's stop.
    pub fallback_depth: Option<u32>,
    /// Share of random moves of the alpha-beta stand-in.
    pub fallback_random: f64,
    /// The map from alpha-beta's raw v (its logistic curve) to the v the level reports when
    /// alpha-beta plays: level 5's own, else the stand-in's. A network's maps are in its model.
    pub alpha_beta_calibration: ValueCalibration,
}

impl Level {
    /// Playouts per move in `variant`, by its board's side (8, 10 or 12).
    pub fn playouts_in(&self, variant: Variant) -> Option<u32> {
        let board = match variant.geometry().side() {
            8 => 0,
            10 => 1,
            _ => 2,
        };
        self.playouts.map(|playouts| playouts[board])
    }
}

// The alpha-beta calibrations: Platt scaling fitted by `training/calibration.py --fit` on
// the v logs in `training/v-logs/` (Russian, `checkerbot-lab match` against random, alpha-beta
// depth 2 and depth 4, one third each; the command for each is in `training/README.md`).
// They say how the player did against that mix of opponents, weaker than and as strong as
// itself; `models/README.md` has the tables before and after, on these games and on held-out
// ones.

/// Level 5 (alpha-beta, 200 ms a move): 300 games, seeds 11 and 12, 7,331 moves. Alpha-beta's
/// logistic v was far too cautious (0.5-0.6 ended 0.989).
pub const LEVEL_5_CALIBRATION: ValueCalibration = ValueCalibration {
    slope: 2.425,
    offset: 2.852,
};

/// Level 1's stand-in (depth 1, 70% random moves): 300 games, seed 11, 6,252 moves. Alpha-beta's
/// v was too hopeful (0.4-0.5 ended 0.130): most of its moves are random.
pub const STAND_IN_1_CALIBRATION: ValueCalibration = ValueCalibration {
    slope: 1.252,
    offset: -0.905,
};
/// Level 2's stand-in (depth 2, 55% random moves): 300 games, seed 11, 6,372 moves; like
/// level 1's.
pub const STAND_IN_2_CALIBRATION: ValueCalibration = ValueCalibration {
    slope: 1.527,
    offset: -0.889,
};
/// Level 3's stand-in (depth 4): 300 games, seed 11, 8,595 moves. Too cautious (calibration
/// error 0.112, with the map 0.040; held out 0.119 -> 0.053).
pub const STAND_IN_3_CALIBRATION: ValueCalibration = ValueCalibration {
    slope: 1.083,
    offset: 0.645,
};
/// Level 4's stand-in (depth 6): 300 games, seed 11, 7,814 moves. Far too cautious (error
/// 0.214, with the map 0.030; held out 0.185 -> 0.030), like level 4's network and level 5: it
/// expects opponents as strong as itself.
pub const STAND_IN_4_CALIBRATION: ValueCalibration = ValueCalibration {
    slope: 1.368,
    offset: 1.584,
};

/// The most playouts of a level without a playout budget, if the caller never stops it.
pub const UNTIMED_PLAYOUTS: u32 = 200_000;
/// The most alpha-beta nodes of a level without a depth, if the caller never stops it.
pub const UNTIMED_NODES: u64 = 20_000_000;

/// Levels 3 and 4 draw among root moves with at least this share of the top move's visits.
/// Measured to cost no strength: `models/README.md`, "Variety".
pub const VARIETY: f32 = 0.8;

/// Their alpha-beta stand-ins draw among root moves whose score is within this many
/// hundredths of a man of the best one's: none, only ties (10 cost the stand-ins about 11
/// points against themselves; `models/README.md`, "Variety").
pub const VARIETY_MARGIN: i32 = 0;

/// The levels, 1..=5.
pub const LEVELS: [Level; 5] = [
    Level {
        number: 1,
        generations: &[1],
        playouts: Some([8, 8, 8]),
        temperature: 2.0,
        variety: None,
        fallback_depth: Some(1),
        fallback_random: 0.7,
        alpha_beta_calibration: STAND_IN_1_CALIBRATION,
    },
    Level {
        number: 2,
        generations: &[1],
        playouts: Some([48, 48, 48]),
        temperature: 1.0,
        variety: None,
        fallback_depth: Some(2),
        fallback_random: 0.55,
        alpha_beta_calibration: STAND_IN_2_CALIBRATION,
    },
    Level {
        number: 3,
        generations: &[4, 3, 2],
        playouts: Some([400, 1_600, 3_200]),
        temperature: 0.0,
        variety: Some(VARIETY),
        fallback_depth: Some(4),
        fallback_random: 0.0,
        alpha_beta_calibration: STAND_IN_3_CALIBRATION,
    },
    Level {
        number: 4,
        generations: &[4, 3, 2],
        playouts: Some([1_600, 12_800, 12_800]),
        temperature: 0.0,
        variety: Some(VARIETY),
        fallback_depth: Some(6),
        fallback_random: 0.0,
        alpha_beta_calibration: STAND_IN_4_CALIBRATION,
    },
    Level {
        number: 5,
        generations: &[],
        playouts: None,
        temperature: 0.0,
        variety: None,
        fallback_depth: None,
        fallback_random: 0.0,
        alpha_beta_calibration: LEVEL_5_CALIBRATION,
    },
];

/// The level `number`, clamped into 1..=5 (the settings are validated, but the robot must play
/// whatever it is given).
pub fn level(number: u8) -> Level {
    LEVELS[usize::from(number.clamp(1, 5)) - 1]
}

#[cfg(test)]
mod tests {
    use super::LEVELS;

    /// The alpha-beta maps are usable and move an even raw v the way their games went.
    #[test]
    fn the_alpha_beta_maps_move_v_as_measured() {
        for level in LEVELS {
            assert!(level.alpha_beta_calibration.is_valid(), "{level:?}");
        }
        let even = |n: usize| LEVELS[n - 1].alpha_beta_calibration.apply(0.5);
        // The stand-ins of levels 1 and 2 play random moves and did worse; 3 and 4 did better,
        // and level 5 wins nearly every position its logistic curve calls even.
        assert!(even(1) < 0.35 && even(2) < 0.35);
        assert!(even(3) > 0.55 && even(4) > 0.7 && even(5) > 0.9);
    }
}
