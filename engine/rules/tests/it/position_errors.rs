//! Why a setup is refused: the setup handed back, typed squares, and `Display` naming them as
//! the variant does; and a position's `Debug` shows its fields, not FEN.

use rules::notation::parse_square;
use rules::{Bitboard, Color, Position, PositionErrorKind, Setup, Variant};

fn setup(variant: Variant, white: &[&str], black: &[&str], kings: &[&str]) -> Setup {
    let board = |names: &[&str]| {
        names
            .iter()
            .map(|name| parse_square(variant, name).unwrap())
            .collect::<Bitboard>()
    };
    Setup {
        variant,
        white: board(white),
        black: board(black),
        kings: board(kings),
        turn: Color::White,
    }
}

#[test]
fn the_refused_setup_comes_back_with_a_typed_square() {
    let both = setup(Variant::Russian, &["c3", "e3"], &["c3"], &[]);
    let err = Position::from_setup(both).unwrap_err();
    assert_eq!(*err.setup, both);
    let c3 = parse_square(Variant::Russian, "c3").unwrap();
    assert_eq!(err.kind, PositionErrorKind::BothColors(c3));
    assert_eq!(
        err.to_string(),
        "square c3 holds both a white and a black piece"
    );
}

#[test]
fn display_names_squares_as_the_variant_does() {
    // International names squares by number: 3 is on Black's back row, where a white man
    // would have been crowned.
    let crowned = setup(Variant::International, &["3"], &["30"], &[]);
    let err = Position::from_setup(crowned).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the white man on 3 stands on its crowning row; it must be a king"
    );
    let king = setup(Variant::Russian, &["c3"], &["f6"], &["d4"]);
    assert_eq!(
        Position::from_setup(king).unwrap_err().to_string(),
        "square d4 is marked as a king but holds no piece"
    );
}

#[test]
fn a_position_debugs_as_its_fields_not_as_fen() {
    let text = format!("{:?}", Position::new(Variant::Russian));
    assert!(text.starts_with("Position { variant: Russian"), "{text}");
}
