//! Recognising the visitor's move from occupancy scans.

use proptest::prelude::*;
use rules::recognition::{
    ArmProblem, Recognition, check_setup, outcome, recognize, verify_robot_move,
};
use rules::{Bitboard, Position, Variant, fen, notation};

use testkit::Lcg;
use testkit::board::{changed as scan, position};

/// The cases of `sounds/speech/tests/data/explanations.txt` are said there in every
/// language; here, that each mistake's fix leads to a legal board.
#[test]
fn the_fix_of_a_mistake_leads_to_a_legal_board() {
    let cases = [
        (Variant::Russian, "W:Wc3,e3:Bd4,h8", "-e3 +f4"),
        (Variant::Russian, "W:Wd4:Bh8", "-d4 +c3"),
        (Variant::Russian, "start", "-f6 +e5"),
        (Variant::Russian, "W:Wa3:Bb4,d6,h8", "-a3 -b4 +c5"),
        (Variant::Brazilian, "W:Wa3,h2:Bb4,g3,e5", "-a3 -b4 +c5"),
        (Variant::Italian, "W:Wd3,Kb5:Be4,c6", "-d3 -e4 +f5"),
        (Variant::Russian, "start", "-c3 +e5"),
        (Variant::Russian, "start", "-a1"),
        (Variant::Russian, "start", "+e5"),
        (Variant::Russian, "start", "-c3 -e3 +d4 +f4"),
    ];
    for (variant, fen_text, changes) in cases {
        let position = position(variant, fen_text);
        let scan = scan(variant, position.occupied(), changes);
        let Recognition::Mistake(mistake) = recognize(&position, scan) else {
            panic!("{variant} {fen_text} {changes}: not a mistake");
        };
        let fixed = (scan - mistake.remove) | mistake.place;
        let goal = mistake
            .target
            .map_or(position.occupied(), |m| outcome(&position, &m));
        assert_eq!(fixed, goal, "{variant} {fen_text} {changes}");
    }
}

#[test]
fn a_clean_move_and_an_unchanged_board_are_recognised() {
    let variant = Variant::Russian;
    let start = Position::new(variant);
    let played = recognize(&start, scan(variant, start.occupied(), "-c3 +d4"));
    assert_eq!(
        played,
        Recognition::Move(notation::parse_move(&start, "c3-d4").unwrap())
    );
    assert_eq!(recognize(&start, start.occupied()), Recognition::NoChange);
    let standing = fen::parse(variant, "W:Wc3:Bd4,h8").unwrap();
    let capture = recognize(&standing, scan(variant, standing.occupied(), "-c3 +e5"));
    assert!(
        matches!(capture, Recognition::CapturesNotRemoved { .. }),
        "{capture:?}"
    );
}

#[test]
fn arm_verification_names_what_went_wrong() {
    let variant = Variant::Russian;
    let before = fen::parse(variant, "B:Wc3,h2:Bd4,b6").unwrap();
    let mv = notation::parse_move(&before, "d4:b2").unwrap();
    let expected = outcome(&before, &mv);
    assert!(verify_robot_move(&before, &mv, expected).is_ok());

    let sq = |name| notation::parse_square(variant, name).unwrap();
    // The pick failed: the piece is still on d4.
    let failed = verify_robot_move(&before, &mv, before.occupied());
    assert_eq!(
        failed.problems,
        vec![
            ArmProblem::PickFailed { from: sq("d4") },
            ArmProblem::CaptureNotCleared { square: sq("c3") }
        ]
    );
    // Dropped on the way, and a visitor's hand moved h2.
    let dropped = verify_robot_move(&before, &mv, expected.without(sq("b2")).without(sq("h2")));
    assert_eq!(
        dropped.problems,
        vec![
            ArmProblem::PieceDropped {
                from: sq("d4"),
                to: sq("b2")
            },
            ArmProblem::Interference { square: sq("h2") }
        ]
    );
}

#[test]
fn setup_detection_lists_wrong_squares() {
    let variant = Variant::Russian;
    let start = Position::new(variant).occupied();
    assert!(check_setup(variant, start).is_complete());
    let sq = |name| notation::parse_square(variant, name).unwrap();
    let check = check_setup(variant, start.without(sq("a1")).with(sq("d4")));
    assert_eq!(check.missing, Bitboard::from_square(sq("a1")));
    assert_eq!(check.extra, Bitboard::from_square(sq("d4")));
    assert!(!check.is_complete());
    assert!(
        check_setup(
            Variant::International,
            Position::new(Variant::International).occupied()
        )
        .is_complete()
    );
}

fn random_positions(variant: Variant, seed: u64) -> Vec<Position> {
    testkit::random_game(Position::new(variant), &mut Lcg(seed), 160)
        .positions()
        .to_vec()
}

fn recognised_variants() -> impl Strategy<Value = Variant> {
    prop::sample::select(vec![
        Variant::Russian,
        Variant::Brazilian,
        Variant::English,
        Variant::Italian,
        Variant::Pool,
        Variant::RussianGiveaway,
        Variant::International,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every legal move's outcome is recognised as that move, or as an ambiguity that holds it.
    #[test]
    fn every_legal_move_is_recognised(variant in recognised_variants(), seed in any::<u64>()) {
        for position in random_positions(variant, seed) {
            for mv in position.legal_moves() {
                match recognize(&position, outcome(&position, &mv)) {
                    Recognition::Move(found) => prop_assert_eq!(found, mv),
                    Recognition::Ambiguous(candidates) => prop_assert!(candidates.contains(&mv)),
                    other => prop_assert!(false, "{:?} {:?} -> {:?}", position, mv, other),
                }
            }
        }
    }

    /// Corrupting one or two squares of a legal outcome never yields a move whose outcome is
    /// not the scan; with one square it never yields a move at all.
    #[test]
    fn corrupted_scans_never_give_a_wrong_move(
        variant in recognised_variants(),
        seed in any::<u64>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 8),
    ) {
        let geometry = variant.geometry();
        for position in random_positions(variant, seed).iter().step_by(5) {
            for (i, mv) in position.legal_moves().iter().enumerate() {
                let (a, b) = flips[i % flips.len()];
                let first = geometry.square(a.index(geometry.square_count())).unwrap();
                let second = geometry.square(b.index(geometry.square_count())).unwrap();
                let clean = outcome(position, mv);
                let one = clean ^ Bitboard::from_square(first);
                prop_assert!(
                    !matches!(recognize(position, one), Recognition::Move(_) | Recognition::Ambiguous(_)),
                    "one flipped square ({:?}) read as a move in {:?}", first, position
                );
                let two = one ^ Bitboard::from_square(second);
                if let Recognition::Move(found) = recognize(position, two) {
                    prop_assert_eq!(outcome(position, &found), two);
                }
            }
        }
    }

    /// Different legal moves always leave different occupancies, so a move is never guessed.
    #[test]
    fn legal_outcomes_differ_in_two_squares(variant in recognised_variants(), seed in any::<u64>()) {
        for position in random_positions(variant, seed) {
            let moves = position.legal_moves();
            for (i, a) in moves.iter().enumerate() {
                for b in &moves[i + 1..] {
                    let differ = (outcome(&position, a) ^ outcome(&position, b)).count();
                    prop_assert!(differ >= 2, "{:?}: {:?} {:?}", position, a, b);
                }
            }
        }
    }

    /// Recognition never panics, whatever the sensors report, and its fixes fit the board.
    #[test]
    fn any_scan_is_answered(variant in recognised_variants(), seed in any::<u64>(), bits in any::<u128>()) {
        let positions = random_positions(variant, seed);
        let position = positions[positions.len() / 2];
        let board = Bitboard(bits) & variant.geometry().all();
        // The fix clears only squares that hold a piece and fills only empty ones.
        if let Recognition::Mistake(mistake) = recognize(&position, Bitboard(bits)) {
            prop_assert!((mistake.remove - board).is_empty(), "{mistake:?}");
            prop_assert!(!mistake.place.intersects(board), "{mistake:?}");
        }
    }
}
