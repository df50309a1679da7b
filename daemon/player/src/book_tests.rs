use rules::{Position, Variant, fen, notation};

use super::{BookErrorKind, BookMove, OpeningBook};
use crate::rng::SplitMix;

/// A Russian book of the initial position with `moves` (move text and score).
pub(crate) fn book_of_the_start(moves: &[(&str, i32)]) -> OpeningBook {
    let start = Position::new(Variant::Russian);
    let moves = moves
        .iter()
        .map(|&(text, score)| BookMove {
            mv: notation::parse_move(&start, text).unwrap(),
            score,
        })
        .collect();
    let mut book = OpeningBook::new(Variant::Russian);
    book.insert(start, moves);
    book
}

/// The start with two moves, and a reply after the first.
fn start_book() -> OpeningBook {
    let mut book = book_of_the_start(&[("c3-d4", 12), ("g3-h4", 5)]);
    let start = Position::new(Variant::Russian);
    let after = start
        .play(&notation::parse_move(&start, "c3-d4").unwrap())
        .unwrap();
    let reply = notation::parse_move(&after, "f6-g5").unwrap();
    book.insert(
        after,
        vec![BookMove {
            mv: reply,
            score: -10,
        }],
    );
    book
}

#[test]
fn a_written_book_reads_back_the_same() {
    let book = start_book();
    let text = book.write(&["built by a test".to_owned()]);
    assert!(text.starts_with("checkerbot-book 1 russian\n# built by a test\n"));
    assert_eq!(OpeningBook::parse(&text, Variant::Russian), Ok(book));
}

#[test]
fn the_robot_draws_among_the_books_moves_by_its_seed() {
    let book = start_book();
    let start = Position::new(Variant::Russian);
    let first_moves: std::collections::BTreeSet<String> = (0..40)
        .map(|seed| {
            let drawn = book.choose(&start, &mut SplitMix::new(seed)).unwrap();
            notation::move_text(Variant::Russian, &drawn.mv)
        })
        .collect();
    assert_eq!(
        first_moves.into_iter().collect::<Vec<_>>(),
        ["c3-d4", "g3-h4"]
    );
    // The same seed draws the same move.
    let again = |seed| book.choose(&start, &mut SplitMix::new(seed)).unwrap();
    assert_eq!(again(7), again(7));
    // Out of the book: nothing.
    let elsewhere = fen::parse(Variant::Russian, "W:Wc3:Bf6").unwrap();
    assert_eq!(book.choose(&elsewhere, &mut SplitMix::new(1)), None);
    // A position inserted without moves is out of the book too.
    let mut empty = OpeningBook::new(Variant::Russian);
    empty.insert(start, Vec::new());
    assert_eq!(empty.choose(&start, &mut SplitMix::new(1)), None);
}

/// A damaged book: the file, the line refused, the reason expected.
type Case = (String, usize, fn(&BookErrorKind) -> bool);

#[test]
fn a_damaged_book_is_refused_with_its_line_and_reason() {
    let good = start_book().write(&[]);
    let start_line = good.lines().nth(1).unwrap().to_owned();
    let cases: [Case; 7] = [
        ("checkerbot-book 1\n".to_owned(), 1, |k| {
            matches!(k, BookErrorKind::Header(_))
        }),
        ("checkerbot-book 2 russian\n".to_owned(), 1, |k| {
            matches!(k, BookErrorKind::Version(2))
        }),
        ("checkerbot-book 1 brazilian\n".to_owned(), 1, |k| {
            matches!(k, BookErrorKind::Variant { .. })
        }),
        (good.replacen("c3-d4 12", "c3-e5 12", 1), 2, |k| {
            matches!(k, BookErrorKind::Move(_))
        }),
        (good.replacen("c3-d4 12", "c3-d4 twelve", 1), 2, |k| {
            matches!(k, BookErrorKind::Field(_))
        }),
        (format!("{good}{start_line}\n"), 4, |k| {
            matches!(k, BookErrorKind::Repeated(2))
        }),
        (format!("{good}W:Wz9:Bf6\tc3-d4 1\n"), 4, |k| {
            matches!(k, BookErrorKind::Position(_))
        }),
    ];
    for (text, line, kind) in cases {
        let err = OpeningBook::parse(&text, Variant::Russian).unwrap_err();
        assert_eq!(err.line, line, "{text}: {err}");
        assert!(kind(&err.kind), "{text}: {err}");
        assert!(err.to_string().starts_with(&format!("line {line}: ")));
    }
}

/// The books in `models/`, as the package installs them: each reads for the variant its name
/// gives (every move legal in its position) and answers the variant's first move.
#[test]
fn every_shipped_book_reads_for_the_variant_its_name_gives() {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut read = Vec::new();
    for entry in std::fs::read_dir(&models).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(variant) = name.strip_suffix("-book.txt") else {
            continue;
        };
        let variant: Variant = variant
            .parse()
            .unwrap_or_else(|_| panic!("{name}: no variant"));
        let text = std::fs::read_to_string(&path).unwrap();
        let book = OpeningBook::parse(&text, variant).unwrap_or_else(|err| panic!("{name}: {err}"));
        let first = book.moves(&Position::new(variant));
        assert!(
            first.is_some_and(|moves| !moves.is_empty()),
            "{name}: no first move"
        );
        read.push(variant.name());
    }
    read.sort_unstable();
    assert_eq!(
        read,
        [
            "brazilian",
            "english",
            "italian",
            "pool",
            "russian",
            "russian-giveaway"
        ]
    );
}
