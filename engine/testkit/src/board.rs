//! Boards written the way the recognition cases are: a position by FEN or "start", and a scan
//! as changes to it.

use rules::{Bitboard, Position, Variant, fen, notation};

/// The position `text` names: `start`, or a FEN.
pub fn position(variant: Variant, text: &str) -> Position {
    if text == "start" {
        Position::new(variant)
    } else {
        fen::parse(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}

/// `before` with changes applied: "-c3" a piece lifted, "+d4" a piece placed, "=" nothing.
pub fn changed(variant: Variant, before: Bitboard, changes: &str) -> Bitboard {
    changes
        .split_whitespace()
        .filter(|c| *c != "=")
        .fold(before, |board, change| {
            let (sign, name) = change.split_at(1);
            let sq =
                notation::parse_square(variant, name).unwrap_or_else(|e| panic!("{change}: {e}"));
            match sign {
                "-" => board.without(sq),
                "+" => board.with(sq),
                _ => panic!("bad change {change}"),
            }
        })
}
