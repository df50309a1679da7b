//! Difficulty levels: what plays at each `play.level`.
//!
//! The reference robot set its difficulty by choosing the network generation; here a level is
//! a generation plus a playout budget and a temperature, so the weak levels are both less
//! knowledgeable and less careful. Without a network each level has an alpha-beta stand-in: a
//! depth and a share of random moves, meant to be of similar strength but measured stronger
//! at every level (most at 1 and 2). The table's strength figures are in `models/README.md`.
//!
//! | level | network | playouts | temperature | without a network |
//! |-------|---------|----------|-------------|-------------------|
//! | 1 | gen1 | 8 | 2.0 | alpha-beta depth 1, 40% random moves |
//! | 2 | gen1 | 48 | 1.0 | alpha-beta depth 2, 15% random moves |
//! | 3 | gen2 | 400 | 0 | alpha-beta depth 6 |
//! | 4 | gen2 | 1,600 | 0 | alpha-beta depth 10 |
//! | 5 | none: alpha-beta until `move_time_ms` | | | the same |
//!
//! Level 5 is the strongest player within the move time, and measured at equal time (200 ms a
//! move) alpha-beta beat MCTS with the gen2 network clearly, so the top level searches with
//! alpha-beta until the caller's stop; a stronger network generation can take it back by
//! setting its `generation`.
//!
//! A temperature of 0 plays the most visited move; above it the move is drawn from the visit
//! counts (`N^(1/t)`), which is what makes levels 1 and 2 miss things a beginner can exploit.
//!
//! Each level but 3 reports a calibrated v ([`Calibration`]): its raw v, fitted against how its
//! games ended, was too hopeful in the middle at levels 1-2 and too cautious at 4-5. Level 3's
//! raw v was already close (calibration error 0.042; a fit would make it 0.026), so it stays.
//! Level 5's map was fitted at 200 ms a move; at the robot's default 2 s there were too few
//! games to check it. The map applies to the player the level asks for, not to
//! the alpha-beta stand-in of levels 1-4, whose v was not fitted.

use super::calibration::Calibration;

/// The settings of one level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    /// The level, 1..=5.
    pub number: u8,
    /// The network generation (`<variant>-gen<N>.onnx`); `None`: alpha-beta by design.
    pub generation: Option<u8>,
    /// Playouts per move; `None`: until the caller's stop (`move_time_ms`), with
    /// [`UNTIMED_PLAYOUTS`] as the cap when nobody stops it.
    pub playouts: Option<u32>,
    /// Move choice temperature.
    pub temperature: f32,
    /// Alpha-beta depth without a network; `None`: until the caller's stop.
    pub fallback_depth: Option<u32>,
    /// Share of random moves of the alpha-beta stand-in.
    pub fallback_random: f64,
    /// The map from the level's raw v to the v it reports; `None`: the raw v.
    pub calibration: Option<Calibration>,
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
/// Level 4 (gen2, 1,600 playouts): 300 games, seed 11, 7,918 moves. The raw v was too cautious
/// (0.4-0.5 ended 0.723): the network expects an opponent as strong as its teacher.
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

/// The most playouts of a level without a playout budget, if the caller never stops it.
pub const UNTIMED_PLAYOUTS: u32 = 200_000;
/// The most alpha-beta nodes of a level without a depth, if the caller never stops it.
pub const UNTIMED_NODES: u64 = 20_000_000;

/// The levels, 1..=5.
pub const LEVELS: [Level; 5] = [
    Level {
        number: 1,
        generation: Some(1),
        playouts: Some(8),
        temperature: 2.0,
        fallback_depth: Some(1),
        fallback_random: 0.4,
        calibration: Some(LEVEL_1_CALIBRATION),
    },
    Level {
        number: 2,
        generation: Some(1),
        playouts: Some(48),
        temperature: 1.0,
        fallback_depth: Some(2),
        fallback_random: 0.15,
        calibration: Some(LEVEL_2_CALIBRATION),
    },
    Level {
        number: 3,
        generation: Some(2),
        playouts: Some(400),
        temperature: 0.0,
        fallback_depth: Some(6),
        fallback_random: 0.0,
        calibration: None,
    },
    Level {
        number: 4,
        generation: Some(2),
        playouts: Some(1_600),
        temperature: 0.0,
        fallback_depth: Some(10),
        fallback_random: 0.0,
        calibration: Some(LEVEL_4_CALIBRATION),
    },
    Level {
        number: 5,
        generation: None,
        playouts: None,
        temperature: 0.0,
        fallback_depth: None,
        fallback_random: 0.0,
        calibration: Some(LEVEL_5_CALIBRATION),
    },
];

impl Level {
    /// The v the level reports for its own player's raw `v` (see [`Level::calibration`]).
    pub fn calibrated(&self, v: f32) -> f32 {
        self.calibration.map_or(v, |map| map.apply(v))
    }
}

/// The level `number`, clamped into 1..=5 (the settings are validated, but the robot must play
/// whatever it is given).
pub fn level(number: u8) -> Level {
    LEVELS[usize::from(number.clamp(1, 5)) - 1]
}
