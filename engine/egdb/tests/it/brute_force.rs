//! Every position of 2 and 3 pieces against a solver that shares nothing with the crate but
//! the rules: no index, no colour flip, no slices, no files. It collects every legal
//! position of 1 to 3 pieces with either side to move in a hash map, links each to the
//! positions its legal moves reach, and iterates the plain game-theoretic fixpoint (a win if
//! a move reaches a loss, a loss if every move reaches a win or there is no move) until it
//! stops changing; what is left is a draw.

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

fn solve(positions: &[Position]) -> Vec<Option<bool>> {
    let id: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let successors: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .map(|mv| id[&p.play(mv).expect("a legal move")])
                .collect()
        })
        .collect();
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
