//! Square names as spoken words.

use std::collections::BTreeSet;

use rules::SquareNotation;
use rules::Variant;
use rules::notation::square_name_in;

use crate::language::Table;
use crate::utterance::FragmentId;

/// The fragment that says the square named `name` (`square.f4`, `square.32`).
pub(crate) fn square_word(name: &str) -> FragmentId {
    FragmentId::new(format!("square.{name}"))
}

/// Every square name the robot can say: each dark square of every variant's board, in
/// algebraic and in numeric notation, algebraic names by file then rank, then the numbers.
pub(crate) fn all_square_names() -> Vec<String> {
    let mut algebraic = BTreeSet::new();
    let mut numeric = BTreeSet::new();
    for variant in Variant::ALL {
        for square in variant.geometry().squares() {
            let name = square_name_in(variant, square, SquareNotation::Algebraic);
            let file = name.as_bytes()[0];
            let rank: u32 = name[1..].parse().expect("algebraic ranks are numbers");
            algebraic.insert((file, rank));
            let number = square_name_in(variant, square, SquareNotation::Numeric);
            numeric.insert(number.parse::<u32>().expect("numeric names are numbers"));
        }
    }
    algebraic
        .into_iter()
        .map(|(file, rank)| format!("{}{rank}", char::from(file)))
        .chain(numeric.into_iter().map(|n| n.to_string()))
        .collect()
}

/// How the voice renderer should say a square name: the file letter by its name in the
/// language, the number as digits (espeak-ng reads those in the voice's language).
pub(crate) fn spoken_square(table: &Table, name: &str) -> String {
    match name.chars().next() {
        Some(file) if file.is_ascii_lowercase() => {
            format!("{} {}", (table.letter)(file), &name[1..])
        }
        _ => name.to_owned(),
    }
}
