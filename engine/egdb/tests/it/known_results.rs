//! Published endgame theory of Russian draughts: three kings against one.
//!
//! A lone king on the main diagonal (a1-h8) draws against three kings: they can never drive
//! it off. When the three kings hold the main diagonal themselves and the lone king is
//! elsewhere, they win, whoever is to move, by building Petrov's triangle. The positions
//! below are chosen so that no piece can be taken at once, so the theory's answer is the
//! whole answer.

use egdb::{Builder, Egdb, Material, Wdl};
use rules::game::{EndReason, Game, GameResult};
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

/// Three kings against one off the main diagonal, the strong side to move or not, either
/// colour strong: the positions above whose wins the 15-move rule must allow.
const PETROV: [&str; 6] = [
    "W:WKa1,Kc1,Ke1:BKh4",
    "B:WKa1,Kc1,Ke1:BKh4",
    "W:WKd4,Kc1,Ka3:BKb8",
    "B:WKd4,Kc1,Ka3:BKb8",
    "B:WKa5:BKh8,Kf8,Kd8",
    "W:WKa5:BKh8,Kf8,Kd8",
];

/// The measured plies to the capture of the lone king with perfect play, in [`PETROV`]'s
/// order: the strong side's 15 moves are 30 plies (29 when it moves first, 30 when the lone
/// king does), and every one of these wins fits.
const PETROV_PLIES: [u32; 6] = [7, 20, 23, 24, 7, 20];

#[test]
fn petrovs_triangle_wins_within_the_fifteen_move_rule() {
    let egdb = three_kings_against_one();
    for (text, plies) in PETROV.iter().zip(PETROV_PLIES) {
        let position = fen::parse(Variant::Russian, text).unwrap();
        let (value, distance) = egdb.probe_distance(&position).unwrap();
        assert_eq!(Some(value), egdb.probe(&position), "{text}");
        assert_eq!(distance, plies, "{text}: {value}");
        // The strong side's 15th move ends the count: ply 29 when it moves first, 30 when
        // the lone king does (rules.md, Russian draw rule 2).
        let limit = if value == Wdl::Win { 29 } else { 30 };
        assert!(distance <= limit, "{text}: {distance} plies");
    }
}

/// Both sides play by the distances, the strong side its shortest win and the lone king its
/// longest resistance, in a [`Game`] that applies the move-count draw rules: the game ends
/// in the lone king's capture after exactly the table's distance, before any rule draws it.
#[test]
fn best_moves_win_petrovs_triangle_before_the_move_count_rules_draw() {
    let egdb = three_kings_against_one();
    for text in PETROV {
        let start = fen::parse(Variant::Russian, text).unwrap();
        let (value, distance) = egdb.probe_distance(&start).unwrap();
        let strong = if value == Wdl::Win {
            start.turn()
        } else {
            !start.turn()
        };
        let mut game = Game::from_position(start);
        while game.outcome().is_none() {
            let position = *game.position();
            let (_, left) = egdb.probe_distance(&position).unwrap();
            assert_eq!(
                left + game.moves().len() as u32,
                distance,
                "{text}: the distance falls by one each ply"
            );
            let mv = egdb.best_move(&position).expect("a position with moves");
            game.play(&mv).unwrap();
        }
        let outcome = game.outcome().unwrap();
        assert_eq!(
            outcome.result,
            GameResult::Win(strong),
            "{text}: {outcome:?}"
        );
        assert_eq!(outcome.reason, EndReason::NoPieces, "{text}");
        assert_eq!(game.moves().len() as u32, distance, "{text}");
    }
}

/// Every won position of three kings against one, whoever is to move (`longest[1]`: the
/// three kings to move, `longest[0]`: the lone king): the longest win the table holds, which the 15-move rule must allow for the
/// published result to hold everywhere and not only in the positions above.
#[test]
fn every_win_of_three_kings_against_one_fits_the_fifteen_move_rule() {
    let egdb = three_kings_against_one();
    let mut longest = [0u32; 2];
    for table in egdb.tables() {
        let material = table.material();
        if material != Material::new(0, 3, 0, 1) && material != Material::new(0, 1, 0, 3) {
            continue;
        }
        let strong_to_move = usize::from(material.own_kings == 3);
        for i in 0..table.len() {
            if table.get(i) != Wdl::Draw {
                let d = u32::from(table.distance(i).unwrap());
                longest[strong_to_move] = longest[strong_to_move].max(d);
            }
        }
    }
    // Measured: 25 plies with the three kings to move (13 of their moves), 26 with the lone
    // king to move (13 of theirs): within the 15 moves everywhere.
    assert_eq!(longest, [26, 25]);
    assert!(longest.iter().all(|&d| d <= 30));
}
