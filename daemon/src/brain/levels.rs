//! Difficulty levels: what plays at each `play.level`.
//!
//! The reference robot set its difficulty by choosing the network generation; here a level is
//! a generation plus a playout budget and a temperature, so the weak levels are both less
//! knowledgeable and less careful. Without a network each level has an alpha-beta stand-in of
//! similar strength: a depth and a share of random moves. The table's strength figures are in
//! `models/README.md`.
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
}

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
    },
    Level {
        number: 2,
        generation: Some(1),
        playouts: Some(48),
        temperature: 1.0,
        fallback_depth: Some(2),
        fallback_random: 0.15,
    },
    Level {
        number: 3,
        generation: Some(2),
        playouts: Some(400),
        temperature: 0.0,
        fallback_depth: Some(6),
        fallback_random: 0.0,
    },
    Level {
        number: 4,
        generation: Some(2),
        playouts: Some(1_600),
        temperature: 0.0,
        fallback_depth: Some(10),
        fallback_random: 0.0,
    },
    Level {
        number: 5,
        generation: None,
        playouts: None,
        temperature: 0.0,
        fallback_depth: None,
        fallback_random: 0.0,
    },
];

/// The level `number`, clamped into 1..=5 (the settings are validated, but the robot must play
/// whatever it is given).
pub fn level(number: u8) -> Level {
    LEVELS[usize::from(number.clamp(1, 5)) - 1]
}
