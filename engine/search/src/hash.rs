//! A 64-bit position key for the transposition table and repetition checks.

use rules::Position;

/// Mixes 64 bits (splitmix64's finaliser): good avalanche for a table index.
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const fn fold(bits: u128) -> u64 {
    (bits as u64) ^ ((bits >> 64) as u64).rotate_left(29)
}

/// The key of a position: pieces, kings and side to move (the variant is fixed in a search).
pub fn key(position: &Position) -> u64 {
    let white = mix(fold(position.pieces(rules::Color::White).0) ^ 0x9e37_79b9_7f4a_7c15);
    let black = mix(fold(position.pieces(rules::Color::Black).0) ^ 0x3c6e_f372_fe94_f82b);
    let kings = mix(fold(position.kings().0) ^ 0xa54f_f53a_5f1d_36f1);
    let turn = position.turn() as u64;
    mix(white ^ black.rotate_left(17) ^ kings.rotate_left(41) ^ turn)
}
