//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.

use crate::moves::Move;
use crate::position::Position;

/// Number of leaf nodes `depth` plies below `position` (moves counted once by identity).
///
/// Uses bulk counting: at depth 1 the number of legal moves is the answer, so the last ply is
/// generated but never played.
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    count(position, depth, &mut buffers)
}

fn count(position: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return crate::movegen::count_legal_moves(position.board(), moves) as u64;
    }
    position.legal_moves_into(moves);
    moves
        .iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            count(&child, depth - 1, rest)
        })
        .sum()
}

/// Leaf counts below each legal move, for finding where two generators disagree.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs at least one ply");
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(&mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}
