//! Difficulty levels: what plays at each `play.level`.
//!
//! The reference robot set its difficulty by choosing the network generation; here a level is
//! a generation plus a playout budget and a temperature, so the weak levels are both less
//! knowledgeable and less careful. Without a network each level has an alpha-beta stand-in: a
//! depth and a share of random moves, chosen so that it scores like the network level against
//! a random mover and against alpha-beta depths 2 and 4 (measured within 5 points of it at
//! every level against random and depth 2, within 9 against depth 4). The table's strength
//! figures are in `models/README.md`.
//!
//! | level | network | playouts | temperature | without a network |
//! |-------|---------|----------|-------------|-------------------|
//! | 1 | gen1 | 8 | 2.0 | alpha-beta depth 1, 70% random moves |
//! | 2 | gen1 | 48 | 1.0 | alpha-beta depth 2, 55% random moves |
//! | 3 | gen3, else gen2 | 400 | 0 | alpha-beta depth 4 |
//! | 4 | gen3, else gen2 | 1,600 | 0 | alpha-beta depth 6 |
//! | 5 | none: alpha-beta until `move_time_ms` | | | the same |
//!
//! Generation 3 is generation 2 refined by self-play (`checkerbot selfplay`), so far for
//! Russian only; a variant without it plays its gen2 at levels 3-4.
//!
//! Level 5 is the strongest player within the move time, and measured at equal time (200 ms a
//! move) alpha-beta beat MCTS with the gen2 network clearly, so the top level searches with
//! alpha-beta until the caller's stop; a stronger network generation can take it back by
//! setting its `generations`.
//!
//! A temperature of 0 plays the most visited move; above it the move is drawn from the visit
//! counts (`N^(1/t)`), which is what makes levels 1 and 2 miss things a beginner can exploit.
//!
//! Each level reports a calibrated v ([`Calibration`]): its raw v, fitted against how its
//! games ended, was too hopeful in the middle at levels 1-2 and too cautious at 3-5. Level 5's
//! map was fitted at 200 ms a move and checked at the robot's default 2 s (100 games against
//! depth 4: calibration error 0.031). The stand-ins of levels 1-4 have maps of their own
//! ([`Level::fallback_calibration`]), fitted the same way on their own games: alpha-beta's
//! logistic v was too hopeful for the stand-ins of levels 1-2 (they play random moves) and too
//! cautious for those of 3-4.

use super::calibration::Calibration;

/// The settings of one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    /// The level, 1..=5.
    pub number: u8,
    /// The network generations the level can play (`<variant>-gen<N>.onnx`), newest first: the
    /// first one shipped for the variant plays, so a variant with a refined network gets it
    /// and the others keep the one they have. Empty: alpha-beta by design.
    pub generations: &'static [u8],
    /// Playouts per move; `None`: until the caller's stop (`move_time_ms`), with
    /// [`UNTIMED_PLAYOUTS`] as the cap when nobody stops it.
    pub playouts: Option<u32>,
    /// Move choice temperature.
    pub temperature: f32,
    /// Alpha-beta depth without a network; `None`: until the caller's stop.
    pub fallback_depth: Option<u32>,
    /// Share of random moves of the alpha-beta stand-in.
    pub fallback_random: f64,
    /// The map from the stand-in's raw v (alpha-beta's logistic curve) to the v it reports;
    /// `None` at level 5, whose own player is alpha-beta and uses [`Level::calibration`].
    pub fallback_calibration: Option<Calibration>,
    /// The map from the level's raw v to the v it reports; `None`: the raw v.
    pub calibration: Option<Calibration>,
    /// The network generations whose raw v [`Level::calibration`] maps: those it was fitted or
    /// checked on. Another generation reports its raw v, because a map fitted on one network is
    /// wrong for another (level 3's gen3 map on gen2's games: error 0.042 -> 0.058 for Russian,
    /// 0.041 -> 0.072 for Brazilian). Level 5's map is for its alpha-beta player.
    pub calibrated_generations: &'static [u8],
}

// The calibrations: Platt scaling fitted by `training/calibration.py --fit` on the v logs in
// `training/v-logs/` (Russian, `checkerbot match` against random, alpha-beta depth 2 and
// depth 4, one third each; the command for each is in `training/README.md`). They say how
// the level did against that mix of opponents, weaker than and as strong as the alpha-beta
// games the networks learned from; `models/README.md` has the tables before and after, on
// these games and on held-out ones.

/// Level 1 (gen1, 8 playouts, temperature 2): 300 games, seed 11, 5,918 moves. The raw v was
/// too hopeful in the middle (0.4-0.5 ended 0.175) and too timid at the ends.
pub const LEVEL_1_CALIBRATION: Calibration = Calibration {
    slope: 2.530,
    offset: -1.032,
};
/// Level 2 (gen1, 48 playouts, temperature 1): 300 games, seed 11, 6,062 moves; like level 1.
pub const LEVEL_2_CALIBRATION: Calibration = Calibration {
    slope: 2.990,
    offset: -0.916,
};
/// Level 3 (gen3, 400 playouts): 300 games, seed 11, 7,984 moves. The raw v was too cautious
/// (calibration error 0.080, with the map 0.027; on held-out games 0.069 -> 0.023).
pub const LEVEL_3_CALIBRATION: Calibration = Calibration {
    slope: 1.140,
    offset: 0.528,
};
/// Level 4 (fitted with gen2, 1,600 playouts): 300 games, seed 11, 7,918 moves. The raw v was
/// too cautious (0.4-0.5 ended 0.723): the network expects an opponent as strong as its
/// teacher. It still fits gen3 (error 0.161 -> 0.052 and, held out, 0.111 -> 0.031), better on
/// held-out games than a refit on gen3's.
pub const LEVEL_4_CALIBRATION: Calibration = Calibration {
    slope: 0.909,
    offset: 0.959,
};
/// Level 5 (alpha-beta, 200 ms a move): 300 games, seeds 11 and 12, 7,331 moves. Alpha-beta's
/// logistic v was far too cautious (0.5-0.6 ended 0.989).
pub const LEVEL_5_CALIBRATION: Calibration = Calibration {
    slope: 2.425,
    offset: 2.852,
};

/// Level 1's stand-in (depth 1, 70% random moves): 300 games, seed 11, 6,252 moves. Alpha-beta's
/// v was too hopeful (0.4-0.5 ended 0.130): most of its moves are random.
pub const STAND_IN_1_CALIBRATION: Calibration = Calibration {
    slope: 1.252,
    offset: -0.905,
};
/// Level 2's stand-in (depth 2, 55% random moves): 300 games, seed 11, 6,372 moves; like
/// level 1's.
pub const STAND_IN_2_CALIBRATION: Calibration = Calibration {
    slope: 1.527,
    offset: -0.889,
};
/// Level 3's stand-in (depth 4): 300 games, seed 11, 8,595 moves. Too cautious (calibration
/// error 0.112, with the map 0.040; held out 0.119 -> 0.053).
pub const STAND_IN_3_CALIBRATION: Calibration = Calibration {
    slope: 1.083,
    offset: 0.645,
};
/// Level 4's stand-in (depth 6): 300 games, seed 11, 7,814 moves. Far too cautious (error
/// 0.214, with the map 0.030; held out 0.185 -> 0.030), like level 4's network and level 5: it
/// expects opponents as strong as itself.
pub const STAND_IN_4_CALIBRATION: Calibration = Calibration {
    slope: 1.368,
    offset: 1.584,
};

/// The most playouts of a level without a playout budget, if the caller never stops it.
pub const UNTIMED_PLAYOUTS: u32 = 200_000;
/// The most alpha-beta nodes of a level without a depth, if the caller never stops it.
pub const UNTIMED_NODES: u64 = 20_000_000;

/// The levels, 1..=5.
pub const LEVELS: [Level; 5] = [
    Level {
        number: 1,
        generations: &[1],
        playouts: Some(8),
        temperature: 2.0,
        fallback_depth: Some(1),
        fallback_random: 0.7,
        fallback_calibration: Some(STAND_IN_1_CALIBRATION),
        calibration: Some(LEVEL_1_CALIBRATION),
        calibrated_generations: &[1],
    },
    Level {
        number: 2,
        generations: &[1],
        playouts: Some(48),
        temperature: 1.0,
        fallback_depth: Some(2),
        fallback_random: 0.55,
        fallback_calibration: Some(STAND_IN_2_CALIBRATION),
        calibration: Some(LEVEL_2_CALIBRATION),
        calibrated_generations: &[1],
    },
    Level {
        number: 3,
        generations: &[3, 2],
        playouts: Some(400),
        temperature: 0.0,
        fallback_depth: Some(4),
        fallback_random: 0.0,
        fallback_calibration: Some(STAND_IN_3_CALIBRATION),
        calibration: Some(LEVEL_3_CALIBRATION),
        calibrated_generations: &[3],
    },
    Level {
        number: 4,
        generations: &[3, 2],
        playouts: Some(1_600),
        temperature: 0.0,
        fallback_depth: Some(6),
        fallback_random: 0.0,
        fallback_calibration: Some(STAND_IN_4_CALIBRATION),
        calibration: Some(LEVEL_4_CALIBRATION),
        calibrated_generations: &[3, 2],
    },
    Level {
        number: 5,
        generations: &[],
        playouts: None,
        temperature: 0.0,
        fallback_depth: None,
        fallback_random: 0.0,
        fallback_calibration: None,
        calibration: Some(LEVEL_5_CALIBRATION),
        calibrated_generations: &[],
    },
];

impl Level {
    /// The v the level reports for the raw `v` of its network of `generation` (see
    /// [`Level::calibrated_generations`]).
    pub fn calibrated(&self, generation: u8, v: f32) -> f32 {
        match self.calibration {
            Some(map) if self.calibrated_generations.contains(&generation) => map.apply(v),
            _ => v,
        }
    }

    /// The v the level reports for alpha-beta's raw `v`: level 5's own map, else the map of
    /// the level's stand-in ([`Level::fallback_calibration`]).
    pub fn alpha_beta_calibrated(&self, v: f32) -> f32 {
        let map = if self.generations.is_empty() {
            self.calibration
        } else {
            self.fallback_calibration
        };
        map.map_or(v, |map| map.apply(v))
    }
}

/// The level `number`, clamped into 1..=5 (the settings are validated, but the robot must play
/// whatever it is given).
pub fn level(number: u8) -> Level {
    LEVELS[usize::from(number.clamp(1, 5)) - 1]
}
