//! Policy indices: which network output speaks for which move.
//!
//! An index is an ordered pair (from, to) of dark squares on a common diagonal, both seen from
//! the side to move's seat (see [`encoding`](super::encoding)). On 8x8 there are 280 such pairs,
//! the reference robot's policy size; 10x10 has 570 and 12x12 has 1,012. Indices are numbered by
//! the viewed `from` square in dense order (row by row from the viewer's bottom-left), then by
//! direction (up-left, up-right, down-left, down-right), then by distance.
//!
//! A move's pair is (from, first landing square): its whole path for a step or a slide, its first
//! leg for a capture. The first leg is always on one diagonal, so every legal move of every
//! variant has an index, including captures that end where they started.
//!
//! **Shared indices.** Two legal moves share an index exactly when they leave the same square
//! and land first on the same square, then go on differently (a capture that branches after its
//! first leg). The network cannot tell them apart, so:
//! - the prior of an index is split evenly among the legal moves that share it
//!   ([`priors`]);
//! - a training target adds up the visits of the moves that share an index ([`target`]).
//!
//! Search still tells such moves apart; only the prior is shared.

use rules::Color;
use rules::Move;
use rules::Position;
use rules::Square;
use rules::{Direction, Geometry, MAX_SQUARES};

use crate::encoding::view_coords;

/// The numbering of (from, to) pairs on one board size.
#[derive(Debug, Clone)]
pub struct PolicyMap {
    geometry: &'static Geometry,
    /// `pairs[i]` is the viewed (from, to) of index `i`, as dense indices of the viewed board.
    pairs: Vec<(u8, u8)>,
    /// `lookup[from * MAX_SQUARES + to]` is the index of a viewed pair plus one, 0 if none.
    lookup: Vec<u16>,
}

impl PolicyMap {
    /// The numbering for a board.
    pub fn new(geometry: &'static Geometry) -> PolicyMap {
        let side = geometry.side() as i32;
        let mut pairs = Vec::new();
        let mut lookup = vec![0u16; MAX_SQUARES * MAX_SQUARES];
        for from in geometry.squares() {
            let (row, col) = geometry.coords(from);
            for dir in Direction::ALL {
                let (dr, dc) = dir.delta();
                let (mut r, mut c) = (row as i32 + dr, col as i32 + dc);
                while (0..side).contains(&r) && (0..side).contains(&c) {
                    let to = geometry
                        .at(r as usize, c as usize)
                        .expect("a diagonal neighbour of a dark square is dark");
                    let pair = (geometry.index(from) as u8, geometry.index(to) as u8);
                    pairs.push(pair);
                    lookup[pair.0 as usize * MAX_SQUARES + pair.1 as usize] = pairs.len() as u16;
                    r += dr;
                    c += dc;
                }
            }
        }
        PolicyMap {
            geometry,
            pairs,
            lookup,
        }
    }

    /// The board this numbering is for.
    pub const fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Number of policy outputs (280 on 8x8).
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Always false: every board has diagonal pairs. Present because `len` is.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The dense index of `sq` on the board as `turn` sees it.
    fn viewed_index(&self, turn: Color, sq: Square) -> usize {
        let (row, col) = view_coords(self.geometry, turn, sq);
        row * self.geometry.width() + col / 2
    }

    /// The index of the pair (from, to) for the side `turn`, if they share a diagonal.
    pub fn pair_index(&self, turn: Color, from: Square, to: Square) -> Option<usize> {
        if !self.geometry.contains(from) || !self.geometry.contains(to) {
            return None;
        }
        let key = self.viewed_index(turn, from) * MAX_SQUARES + self.viewed_index(turn, to);
        self.lookup[key].checked_sub(1).map(usize::from)
    }

    /// The index of a move played by the side `turn`: (from, first landing).
    ///
    /// `None` only for a move that does not belong to this board.
    pub fn index(&self, turn: Color, mv: &Move) -> Option<usize> {
        let first = mv.landings().first().copied().unwrap_or(mv.to());
        self.pair_index(turn, mv.from(), first)
    }

    /// The real squares (from, to) behind an index for the side `turn`.
    pub fn pair(&self, turn: Color, index: usize) -> Option<(Square, Square)> {
        let &(from, to) = self.pairs.get(index)?;
        let unview = |dense: u8| {
            let sq = self.geometry.square(dense as usize)?;
            let (row, col) = view_coords(self.geometry, turn, sq);
            self.geometry.at(row, col)
        };
        Some((unview(from)?, unview(to)?))
    }
}

/// Policy indices of `moves` (legal moves of `position`), in the same order.
pub fn indices(map: &PolicyMap, position: &Position, moves: &[Move]) -> Vec<Option<usize>> {
    moves
        .iter()
        .map(|mv| map.index(position.turn(), mv))
        .collect()
}

/// Prior probabilities of `moves` (the legal moves of `position`) from the network's logits.
///
/// A softmax over the distinct indices the moves use, each index's share then split evenly
/// among the moves that share it (see the module docs). The result sums to 1 for a non-empty
/// move list. Logits that are not finite, or a logit slice too short for the board, give the
/// uniform prior instead of a panic: a broken model must not stop the game.
pub fn priors(map: &PolicyMap, position: &Position, moves: &[Move], logits: &[f32]) -> Vec<f32> {
    let uniform = || vec![1.0 / moves.len() as f32; moves.len()];
    let keys = indices(map, position, moves);
    let Some(keys) = keys.into_iter().collect::<Option<Vec<usize>>>() else {
        return uniform();
    };
    if moves.is_empty() || logits.len() != map.len() {
        return uniform();
    }
    let mut distinct = keys.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let max = distinct
        .iter()
        .map(|&i| logits[i])
        .fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() || distinct.iter().any(|&i| !logits[i].is_finite()) {
        return uniform();
    }
    let total: f32 = distinct.iter().map(|&i| (logits[i] - max).exp()).sum();
    keys.iter()
        .map(|&i| {
            let sharing = keys.iter().filter(|&&j| j == i).count() as f32;
            (logits[i] - max).exp() / total / sharing
        })
        .collect()
}

/// A training target over all policy indices: the visit share of each move, with the visits of
/// moves that share an index added together. All zeros when there are no visits.
pub fn target(map: &PolicyMap, position: &Position, moves: &[Move], visits: &[u32]) -> Vec<f32> {
    let mut out = vec![0.0; map.len()];
    let total: u64 = visits.iter().map(|&v| u64::from(v)).sum();
    if total == 0 {
        return out;
    }
    for (mv, &n) in moves.iter().zip(visits) {
        if let Some(i) = map.index(position.turn(), mv) {
            out[i] += n as f32 / total as f32;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{BOARD_8X8, BOARD_10X10, BOARD_12X12};

    #[test]
    fn sizes_match_the_count_of_diagonal_pairs() {
        assert_eq!(PolicyMap::new(&BOARD_8X8).len(), 280);
        assert_eq!(PolicyMap::new(&BOARD_10X10).len(), 570);
        assert_eq!(PolicyMap::new(&BOARD_12X12).len(), 1012);
    }

    #[test]
    fn pairs_round_trip_for_both_sides() {
        for geometry in [&BOARD_8X8, &BOARD_10X10] {
            let map = PolicyMap::new(geometry);
            for turn in Color::ALL {
                for i in 0..map.len() {
                    let (from, to) = map.pair(turn, i).unwrap();
                    assert_eq!(map.pair_index(turn, from, to), Some(i));
                }
            }
            assert_eq!(map.pair(Color::White, map.len()), None);
        }
    }
}
