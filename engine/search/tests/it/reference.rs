//! The searcher's scores worked out the slow way: plain negamax with its rules, to compare an
//! unpruned search against.

use egdb::{Egdb, Wdl};
use evalnet::EvalNet;
use rules::{Goal, Position};
use search::{EVALNET_LIMIT, SCORE_PER_LOGIT, TB_EVAL_CLAMP, TB_WIN, WIN, evaluate, key};

/// The static score the searcher gives a leaf: `evalnet`'s from scratch, or the hand-written
/// evaluation's.
pub fn static_score(evalnet: Option<&EvalNet>, position: &Position) -> i32 {
    match evalnet {
        Some(net) => ((net.evaluate_position(position) * SCORE_PER_LOGIT).round() as i32)
            .clamp(-EVALNET_LIMIT, EVALNET_LIMIT),
        None => evaluate(position),
    }
}

/// Plain negamax with the same rules as the searcher (repetitions draw, captures searched on
/// past the depth, a forced move not counted): no pruning, no transposition table. With
/// `egdb`, the searcher's probe too: a quiet position below the root with no more pieces than
/// the tables hold scores the table's value, a loss without a move excepted (a mate). With
/// `evalnet`, leaves are scored by it, from scratch.
pub fn minimax(
    egdb: Option<&Egdb>,
    evalnet: Option<&EvalNet>,
    position: &Position,
    depth: i32,
    ply: i32,
    path: &mut Vec<u64>,
) -> i32 {
    let k = key(position);
    if ply > 0 && path.iter().rev().skip(1).step_by(2).any(|&p| p == k) {
        return 0;
    }
    let moves = position.legal_moves();
    if let Some(egdb) = egdb
        && ply > 0
        && position.occupied().count() <= egdb.max_pieces()
        && !position.has_capture()
    {
        let eval = static_score(evalnet, position).clamp(-TB_EVAL_CLAMP, TB_EVAL_CLAMP);
        match egdb.probe(position).unwrap() {
            Wdl::Draw => return 0,
            Wdl::Win => return TB_WIN - ply + eval,
            Wdl::Loss if !moves.is_empty() => return -TB_WIN + ply + eval,
            Wdl::Loss => {}
        }
    }
    if moves.is_empty() {
        return match position.variant().rules().goal {
            Goal::Win => -WIN + ply,
            Goal::Lose => WIN - ply,
        };
    }
    if depth <= 0 && !moves[0].is_capture() {
        return static_score(evalnet, position);
    }
    let next = if moves.len() == 1 { depth } else { depth - 1 };
    path.push(k);
    let best = moves
        .iter()
        .map(|mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            -minimax(egdb, evalnet, &child, next, ply + 1, path)
        })
        .max()
        .unwrap();
    path.pop();
    best
}
