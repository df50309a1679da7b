//! Properties over random games in every variant: `is_legal` agrees with `legal_moves`,
//! playing on a copy and undoing restore positions, FEN round-trips, parsers never panic.

use proptest::prelude::*;
use rules::{Game, Move, Position, SquareNotation, Variant, fen, notation};

use testkit::Lcg;

/// Positions of one random game from the start, at most `plies` long.
fn random_game(variant: Variant, seed: u64, plies: usize) -> Vec<Position> {
    testkit::random_game(Position::new(variant), &mut Lcg(seed), plies)
        .positions()
        .to_vec()
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// Positions where the side to move has pieces and no legal move, so loses: a man against
/// the last row's edge, a man and a king walled in by pieces that cannot be jumped.
#[test]
fn blocked_pieces_cannot_move() {
    let mut buffer = Vec::new();
    for (variant, text) in [
        (Variant::Russian, "W:Wa7:Bb8"),
        (Variant::Russian, "W:WKa1:Bb2,c3"),
        (Variant::English, "W:WKa1:Bb2,c3"),
        (Variant::English, "W:Wa7:Bb8"),
    ] {
        let p = fen::parse(variant, text).expect("a valid FEN");
        assert!(p.legal_moves().is_empty(), "{text}");
        assert!(!p.forced_captures_into(&mut buffer), "{text}");
        assert!(buffer.is_empty(), "{text}");
    }
    let free = fen::parse(Variant::Russian, "W:WKa1:Bc3").expect("a valid FEN");
    assert!(
        free.forced_captures_into(&mut buffer),
        "the king can step to b2"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn is_legal_agrees_with_legal_moves(variant in variant_strategy(), seed in any::<u64>()) {
        let positions = random_game(variant, seed, 200);
        // Candidate moves: every move legal somewhere in this game, for either side.
        let mut candidates: Vec<Move> = Vec::new();
        for p in positions.iter().step_by(3) {
            candidates.extend(p.legal_moves());
            candidates.extend(p.with_turn(!p.turn()).legal_moves());
        }
        for p in &positions {
            let legal = p.legal_moves();
            for mv in &legal {
                prop_assert!(p.is_legal(mv), "{p:?} rejects its own move {mv:?}");
            }
            for mv in &candidates {
                prop_assert_eq!(p.is_legal(mv), legal.contains(mv), "{:?} {:?}", p, mv);
            }
        }
    }

    #[test]
    fn play_keeps_material_consistent(variant in variant_strategy(), seed in any::<u64>()) {
        for p in random_game(variant, seed, 200) {
            for mv in p.legal_moves() {
                let after = p.play(&mv).expect("legal");
                let mover = p.turn();
                prop_assert_eq!(after.turn(), !mover);
                prop_assert_eq!(after.pieces(mover).count(), p.pieces(mover).count());
                prop_assert_eq!(
                    after.pieces(!mover).count() + mv.captured().count(),
                    p.pieces(!mover).count()
                );
                prop_assert!(after.occupied().contains(mv.to()));
                prop_assert!((after.pieces(mover) & after.pieces(!mover)).is_empty());
                prop_assert_eq!(after.kings().contains(mv.to()),
                    p.kings().contains(mv.from()) || mv.promotes());
            }
        }
    }

    #[test]
    fn undo_restores_every_position(variant in variant_strategy(), seed in any::<u64>()) {
        let positions = random_game(variant, seed, 120);
        let mut game = Game::from_position(positions[0]);
        for pair in positions.windows(2) {
            let mv = pair[0].legal_moves().into_iter()
                .find(|m| pair[0].play(m).ok() == Some(pair[1]))
                .expect("consecutive positions are one move apart");
            game.play(&mv).unwrap();
        }
        for expected in positions.iter().rev().skip(1) {
            game.undo().expect("a move to undo");
            prop_assert_eq!(game.position(), expected);
        }
        prop_assert!(game.undo().is_none());
    }

    #[test]
    fn forced_captures_agree_with_legal_moves(
        variant in variant_strategy(),
        seed in any::<u64>(),
    ) {
        let mut buffer = Vec::new();
        for p in random_game(variant, seed, 200) {
            // The side not to move too: its men are more often blocked.
            for p in [p, p.with_turn(!p.turn())] {
                let legal = p.legal_moves();
                let can_move = p.forced_captures_into(&mut buffer);
                prop_assert_eq!(can_move, !legal.is_empty(), "{:?}", p);
                let expected = if p.has_capture() { legal } else { Vec::new() };
                prop_assert_eq!(&buffer, &expected, "{:?}", p);
            }
        }
    }

    #[test]
    fn fen_round_trips(variant in variant_strategy(), seed in any::<u64>()) {
        for p in random_game(variant, seed, 200) {
            for notation in [SquareNotation::Algebraic, SquareNotation::Numeric] {
                let text = fen::write_in(&p, notation);
                prop_assert_eq!(fen::parse(variant, &text), Ok(p), "{}", text);
            }
        }
    }

    #[test]
    fn move_text_round_trips(variant in variant_strategy(), seed in any::<u64>()) {
        for p in random_game(variant, seed, 150) {
            for mv in p.legal_moves() {
                for notation in [SquareNotation::Algebraic, SquareNotation::Numeric] {
                    let text = notation::move_text_in(variant, &mv, notation);
                    prop_assert_eq!(notation::parse_move(&p, &text), Ok(mv), "{}", text);
                }
            }
        }
    }

    #[test]
    fn fen_parser_never_panics(variant in variant_strategy(), text in ".{0,60}") {
        let _ = fen::parse(variant, &text);
    }

    #[test]
    fn fen_parser_never_panics_on_near_fens(
        variant in variant_strategy(),
        text in "[WBwbK:,0-9a-l .\\-H\"]{0,40}",
    ) {
        let _ = fen::parse(variant, &text);
    }

    #[test]
    fn move_parser_never_panics(variant in variant_strategy(), text in "[a-l0-9:x\\-×!? ]{0,24}") {
        let _ = notation::parse_move(&Position::new(variant), &text);
    }
}
