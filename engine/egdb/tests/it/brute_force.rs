//! Every position of 2 and 3 pieces against a solver that shares nothing with the crate but
//! the rules: no index, no colour flip, no slices, no files. It collects every legal
//! position of 1 to 3 pieces with either side to move in a hash map, links each to the
//! positions its legal moves reach, and iterates the plain game-theoretic fixpoint (a win if
//! a move reaches a loss, a loss if every move reaches a win or there is no move) until it
//! stops changing; what is left is a draw.
//!
//! The distances the same way: level by level from the end of the game, a position without
//! moves lost in 0, a win in `d` when a move reaches a loss in `d - 1` found in an earlier
//! level, a loss in `d` when every move reaches a win found in an earlier level, the longest
//! `d - 1`.

use std::collections::HashMap;

use egdb::{Builder, Wdl};
use rules::{BOARD_8X8, Bitboard, Color, Position, Setup, Variant};

/// White man, white king, black man, black king.
const KINDS: [(Color, bool); 4] = [
    (Color::White, false),
    (Color::White, true),
    (Color::Black, false),
    (Color::Black, true),
];

fn every_position(max_pieces: usize) -> Vec<Position> {
    fn place(first: usize, left: usize, squares: &mut Vec<usize>, out: &mut Vec<Position>) {
        if left == 0 {
            let n = squares.len();
            for kinds in 0..4usize.pow(n as u32) {
                for turn in Color::ALL {
                    let mut setup = Setup {
                        variant: Variant::Russian,
                        white: Bitboard::EMPTY,
                        black: Bitboard::EMPTY,
                        kings: Bitboard::EMPTY,
                        turn,
                    };
                    let mut k = kinds;
                    for &sq in squares.iter() {
                        let (color, king) = KINDS[k % 4];
                        k /= 4;
                        let square = BOARD_8X8.square(sq).unwrap();
                        match color {
                            Color::White => setup.white = setup.white.with(square),
                            Color::Black => setup.black = setup.black.with(square),
                        }
                        if king {
                            setup.kings = setup.kings.with(square);
                        }
                    }
                    if let Ok(p) = Position::from_setup(setup) {
                        out.push(p);
                    }
                }
            }
            return;
        }
        for sq in first..32 {
            squares.push(sq);
            place(sq + 1, left - 1, squares, out);
            squares.pop();
        }
    }
    let mut out = Vec::new();
    let mut squares = Vec::new();
    for n in 1..=max_pieces {
        place(0, n, &mut squares, &mut out);
    }
    out
}

fn successors(positions: &[Position]) -> Vec<Vec<usize>> {
    let id: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    positions
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .map(|mv| id[&p.play(mv).expect("a legal move")])
                .collect()
        })
        .collect()
}

fn solve(positions: &[Position]) -> Vec<Option<bool>> {
    let successors = successors(positions);
    // Some(true): the side to move wins; Some(false): it loses; None: not decided.
    let mut value: Vec<Option<bool>> = vec![None; positions.len()];
    loop {
        let mut changed = false;
        for (i, next) in successors.iter().enumerate() {
            if value[i].is_some() {
                continue;
            }
            if next.iter().any(|&j| value[j] == Some(false)) {
                value[i] = Some(true);
                changed = true;
            } else if next.iter().all(|&j| value[j] == Some(true)) {
                value[i] = Some(false);
                changed = true;
            }
        }
        if !changed {
            return value;
        }
    }
}

/// Each position's result and distance: `Some((true, d))` won in `d` plies, `Some((false,
/// d))` lost in `d`, `None` drawn. Each level reads only the levels before it.
fn solve_distances(positions: &[Position]) -> Vec<Option<(bool, u32)>> {
    let successors = successors(positions);
    let mut value: Vec<Option<(bool, u32)>> = vec![None; positions.len()];
    for d in 0.. {
        let before = value.clone();
        let mut changed = false;
        for (i, next) in successors.iter().enumerate() {
            if before[i].is_some() {
                continue;
            }
            let wins_now = d > 0 && next.iter().any(|&j| before[j] == Some((false, d - 1)));
            let loses_now = next.iter().all(|&j| matches!(before[j], Some((true, _))))
                && next
                    .iter()
                    .map(|&j| before[j].map_or(0, |(_, dj)| dj + 1))
                    .max()
                    .unwrap_or(0)
                    == d;
            if wins_now || loses_now {
                value[i] = Some((wins_now, d));
                changed = true;
            }
        }
        // A level that finds nothing leaves the next nothing to build on.
        if !changed {
            break;
        }
    }
    value
}

#[test]
fn every_two_and_three_piece_distance_matches_a_brute_force_solver() {
    let positions = every_position(3);
    let brute = solve_distances(&positions);

    let mut builder = Builder::new(Variant::Russian).unwrap();
    builder.solve_all(3, &mut |_, _| Ok(())).unwrap();
    let egdb = builder.into_egdb(3);

    let mut longest = 0;
    for (p, expected) in positions.iter().zip(&brute) {
        let both_sides = !p.pieces(Color::White).is_empty() && !p.pieces(Color::Black).is_empty();
        if !both_sides {
            continue;
        }
        let expected = match *expected {
            Some((true, d)) => (Wdl::Win, d),
            Some((false, d)) => (Wdl::Loss, d),
            None => (Wdl::Draw, 0),
        };
        assert_eq!(
            egdb.probe_distance(p),
            Some(expected),
            "{}",
            rules::fen::write(p)
        );
        longest = longest.max(expected.1);
    }
    // Wins of more than a few plies are met (a man walking to the crowning row, a king
    // hunted down), so a table of distances 1 and 0 fails.
    assert!(longest > 10, "{longest}");
}

#[test]
fn every_two_and_three_piece_position_matches_a_brute_force_solver() {
    let positions = every_position(3);
    let brute = solve(&positions);

    let mut builder = Builder::new(Variant::Russian).unwrap();
    builder.solve_all(3, &mut |_, _| Ok(())).unwrap();
    let egdb = builder.into_egdb(3);

    let mut checked = [0u32; 3];
    for (p, expected) in positions.iter().zip(&brute) {
        let both_sides = !p.pieces(Color::White).is_empty() && !p.pieces(Color::Black).is_empty();
        if !both_sides {
            continue;
        }
        let expected = match expected {
            Some(true) => Wdl::Win,
            Some(false) => Wdl::Loss,
            None => Wdl::Draw,
        };
        assert_eq!(egdb.probe(p), Some(expected), "{}", rules::fen::write(p));
        checked[expected as usize] += 1;
    }
    // Every kind of result is met, so a table that answers one value everywhere fails.
    assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
}
