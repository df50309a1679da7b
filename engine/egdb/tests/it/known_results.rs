//! Published endgame theory of Russian draughts: three kings against one.
//!
//! A lone king on the main diagonal (a1-h8) draws against three kings: they can never drive
//! it off. When the three kings hold the main diagonal themselves and the lone king is
//! elsewhere, they win, whoever is to move, by building Petrov's triangle. The positions
//! below are chosen so that no piece can be taken at once, so the theory's answer is the
//! whole answer.

use egdb::{Builder, Egdb, Material, Wdl};
use rules::{Variant, fen};

fn three_kings_against_one() -> Egdb {
    let mut builder = Builder::new(Variant::Russian).unwrap();
    builder
        .solve(Material::new(0, 3, 0, 1), &mut |_, _| Ok(()))
        .unwrap();
    builder.into_egdb(4)
}

fn value(egdb: &Egdb, text: &str) -> Wdl {
    let position = fen::parse(Variant::Russian, text).unwrap();
    assert!(!position.has_capture(), "{text}: a capture is pending");
    egdb.probe(&position).unwrap()
}

#[test]
fn a_lone_king_on_the_main_diagonal_draws_against_three_kings() {
    let egdb = three_kings_against_one();
    for (text, expected) in [
        // White's kings on the first row, Black's on h8, either side to move.
        ("W:WKc1,Ke1,Kg1:BKh8", Wdl::Draw),
        ("B:WKc1,Ke1,Kg1:BKh8", Wdl::Draw),
        // The lone king in the middle of the main diagonal.
        ("W:WKa3,Kc1,Kh6:BKe5", Wdl::Draw),
        ("B:WKa3,Kc1,Kh6:BKe5", Wdl::Draw),
        // Black's three kings against White's lone king on a1.
        ("B:WKa1:BKb8,Kd8,Kf8", Wdl::Draw),
        ("W:WKa1:BKb8,Kd8,Kf8", Wdl::Draw),
    ] {
        assert_eq!(value(&egdb, text), expected, "{text}");
    }
}

#[test]
fn three_kings_holding_the_main_diagonal_win_petrovs_triangle() {
    let egdb = three_kings_against_one();
    for (text, expected) in [
        // White holds a1-h8 with the king on a1; Black's king on h4.
        ("W:WKa1,Kc1,Ke1:BKh4", Wdl::Win),
        ("B:WKa1,Kc1,Ke1:BKh4", Wdl::Loss),
        // White's king on the main diagonal at d4; Black's king in the far corner region.
        ("W:WKd4,Kc1,Ka3:BKb8", Wdl::Win),
        ("B:WKd4,Kc1,Ka3:BKb8", Wdl::Loss),
        // Colours swapped: Black holds the main diagonal on h8.
        ("B:WKa5:BKh8,Kf8,Kd8", Wdl::Win),
        ("W:WKa5:BKh8,Kf8,Kd8", Wdl::Loss),
    ] {
        assert_eq!(value(&egdb, text), expected, "{text}");
    }
}
