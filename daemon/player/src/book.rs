//! The opening book: level 5's first moves, read from a file of deep searches
//! (`<models_dir>/<variant>-book.txt`, built by `checkerbot-lab book`) instead of searched.
//!
//! Level 5's search is deterministic, so without a book the robot would open every game it
//! plays with one colour the same way. The book holds, for each position of the common
//! openings, the moves a deep search found about equally good (within the builder's margin),
//! and the robot draws among them by its seed: a visitor meets a different opening from game to
//! game, each of them sound, and a game still replays from its seed. It also spares the opening
//! moves' thinking time.
//!
//! The file is text, one position a line, so an operator can read it and a diff shows what a
//! rebuild changed:
//!
//! ```text
//! checkerbot-book 1 russian
//! # any comment
//! W:Wa1,...:Ba7,...<TAB>c3-d4 12<TAB>c3-b4 7
//! ```
//!
//! The first line names the format's version and the variant. Every other line that is not a
//! comment or blank is a position (FEN) and its good moves in the variant's move text, each
//! with its score (hundredths of a man, for the side to move). Everything is checked on load:
//! a position that does not parse, a move that is not legal in it, a position given twice. A
//! book that fails the check is refused whole, with the line and the reason, and the robot
//! plays on without one, as it does without a network.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use checkerbot_config::{PlayLevel, Settings};
use rules::{Move, Position, Variant, fen, notation};

use crate::rng::SplitMix;

/// The format version this build reads and writes: the first line's number.
pub const FORMAT_VERSION: u32 = 1;

/// The first word of a book file.
const MAGIC: &str = "checkerbot-book";

/// One of the book's moves: the move and a deep search's score of it, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Hundredths of a man, for the side to move, after the move.
    pub score: i32,
}

/// An opening book: positions and their good moves.
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningBook {
    variant: Variant,
    /// Each position's moves, in the order the file gives them (best first, as written).
    entries: HashMap<Position, Vec<BookMove>>,
    /// The positions in the order they were added, so a written book reads in opening order.
    order: Vec<Position>,
}

/// Why a book file was refused: the line (1-based) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct BookError {
    /// The line of the file, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: BookErrorKind,
}

/// What is wrong with a line of a book file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BookErrorKind {
    /// The first line is not `checkerbot-book <version> <variant>`.
    Header(String),
    /// A version this build does not read.
    Version(u32),
    /// A variant other than the one the robot plays.
    Variant {
        /// The book's.
        found: String,
        /// The robot's.
        wanted: Variant,
    },
    /// The position does not parse.
    Position(String),
    /// A move field is not `<move> <score>`.
    Field(String),
    /// The move is not legal in the line's position.
    Move(String),
    /// The position has no moves listed.
    NoMoves,
    /// The position was listed before, on this line.
    Repeated(usize),
}

impl fmt::Display for BookErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookErrorKind::Header(found) => write!(
                f,
                "the first line must be `{MAGIC} <version> <variant>`, not {found:?}"
            ),
            BookErrorKind::Version(version) => write!(
                f,
                "format version {version}; this build reads version {FORMAT_VERSION} (rebuild \
                 the book with this build's `checkerbot-lab book`)"
            ),
            BookErrorKind::Variant { found, wanted } => write!(
                f,
                "a book for {found:?}, but the robot plays {}",
                wanted.name()
            ),
            BookErrorKind::Position(why) => write!(f, "the position does not parse: {why}"),
            BookErrorKind::Field(field) => {
                write!(f, "{field:?} is not a move and its score (`c3-d4 12`)")
            }
            BookErrorKind::Move(why) => write!(f, "{why}"),
            BookErrorKind::NoMoves => write!(f, "a position without moves"),
            BookErrorKind::Repeated(first) => {
                write!(f, "the position was listed already, on line {first}")
            }
        }
    }
}

impl OpeningBook {
    /// An empty book for `variant`, to be filled by [`OpeningBook::insert`].
    pub fn new(variant: Variant) -> OpeningBook {
        OpeningBook {
            variant,
            entries: HashMap::new(),
            order: Vec::new(),
        }
    }

    /// Adds (or replaces) `position`'s moves. Moves must be legal in it; the builder makes
    /// them so.
    pub fn insert(&mut self, position: Position, moves: Vec<BookMove>) {
        if self.entries.insert(position, moves).is_none() {
            self.order.push(position);
        }
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's moves in `position`, if it is in the book.
    pub fn moves(&self, position: &Position) -> Option<&[BookMove]> {
        self.entries.get(position).map(Vec::as_slice)
    }

    /// One of the book's moves in `position`, drawn from `rng` (each as likely: all are within
    /// the builder's margin of the best), or `None` out of the book.
    pub fn choose(&self, position: &Position, rng: &mut SplitMix) -> Option<BookMove> {
        let moves = self.moves(position).filter(|moves| !moves.is_empty())?;
        Some(moves[rng.below(moves.len())])
    }

    /// Reads a book for `variant` from `text`, checking every line.
    pub fn parse(text: &str, variant: Variant) -> Result<OpeningBook, BookError> {
        let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
        let (_, header) = lines.next().unwrap_or((1, ""));
        let fail = |line, kind| BookError { line, kind };
        parse_header(header, variant).map_err(|kind| fail(1, kind))?;
        let mut book = OpeningBook::new(variant);
        let mut first_seen = HashMap::new();
        for (number, line) in lines {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (position, moves) =
                parse_entry(line, variant).map_err(|kind| fail(number, kind))?;
            if let Some(&first) = first_seen.get(&position) {
                return Err(fail(number, BookErrorKind::Repeated(first)));
            }
            first_seen.insert(position, number);
            book.insert(position, moves);
        }
        Ok(book)
    }

    /// The book as its file's text: the header, `comments` (each line made a `#` comment),
    /// then a line a position in the order they were inserted.
    pub fn write(&self, comments: &[String]) -> String {
        let mut out = format!("{MAGIC} {FORMAT_VERSION} {}\n", self.variant.name());
        for comment in comments {
            let _ = writeln!(out, "# {comment}");
        }
        for position in &self.order {
            out.push_str(&fen::write(position));
            for book_move in &self.entries[position] {
                let text = notation::move_text(position.variant(), &book_move.mv);
                let _ = write!(out, "\t{text} {}", book_move.score);
            }
            out.push('\n');
        }
        out
    }
}

fn parse_header(header: &str, variant: Variant) -> Result<(), BookErrorKind> {
    let words: Vec<&str> = header.split_whitespace().collect();
    let [MAGIC, version, name] = words.as_slice() else {
        return Err(BookErrorKind::Header(header.to_owned()));
    };
    let version: u32 = version
        .parse()
        .map_err(|_| BookErrorKind::Header(header.to_owned()))?;
    if version != FORMAT_VERSION {
        return Err(BookErrorKind::Version(version));
    }
    if *name != variant.name() {
        return Err(BookErrorKind::Variant {
            found: (*name).to_owned(),
            wanted: variant,
        });
    }
    Ok(())
}

fn parse_entry(line: &str, variant: Variant) -> Result<(Position, Vec<BookMove>), BookErrorKind> {
    let mut fields = line.split('\t');
    let fen_text = fields.next().unwrap_or_default();
    let position =
        fen::parse(variant, fen_text).map_err(|err| BookErrorKind::Position(err.to_string()))?;
    let mut moves = Vec::new();
    for field in fields {
        let (text, score) = field
            .rsplit_once(' ')
            .ok_or_else(|| BookErrorKind::Field(field.to_owned()))?;
        let score: i32 = score
            .parse()
            .map_err(|_| BookErrorKind::Field(field.to_owned()))?;
        let mv = notation::parse_move(&position, text)
            .map_err(|err| BookErrorKind::Move(err.to_string()))?;
        moves.push(BookMove { mv, score });
    }
    if moves.is_empty() {
        return Err(BookErrorKind::NoMoves);
    }
    Ok((position, moves))
}

/// Where the settings' book for `variant` is: beside the networks.
pub fn book_path(settings: &Settings, variant: Variant) -> PathBuf {
    settings
        .paths
        .models_dir()
        .join(format!("{}-book.txt", variant.name()))
}

/// The book as the brain holds it: read at start (level 5 only) and again when a reload
/// changes the file to read.
#[derive(Debug, Default)]
pub(crate) struct LoadedBook {
    /// The file read, or `None` when the level uses no book.
    path: Option<PathBuf>,
    /// The book, or why there is none (a missing file, a damaged one).
    book: Option<Result<OpeningBook, String>>,
}

impl LoadedBook {
    /// The book `settings` ask for: at level 5, the variant's file. A missing file is one line
    /// of the log (the robot searches from the first move); a damaged one is a warning naming
    /// the line and what is wrong.
    pub(crate) fn load(settings: &Settings) -> LoadedBook {
        let Some(path) = wanted(settings) else {
            return LoadedBook::default();
        };
        let book = read(&path, settings.game.variant);
        match &book {
            Ok(book) => tracing::info!(
                "opening book of {} positions from {}",
                book.len(),
                path.display()
            ),
            // Shipped but unreadable: something an operator should see.
            Err(reason) if path.exists() => {
                tracing::warn!("level 5 plays without an opening book: {reason}");
            }
            Err(reason) => tracing::info!("level 5 plays without an opening book: {reason}"),
        }
        LoadedBook {
            path: Some(path),
            book: Some(book),
        }
    }

    /// Applies a reload: the file is read again only when the level, the variant or the
    /// folder changed.
    pub(crate) fn reconfigure(&mut self, settings: &Settings) {
        if wanted(settings) != self.path {
            *self = LoadedBook::load(settings);
        }
    }

    /// The book, if one was read.
    pub(crate) fn book(&self) -> Option<&OpeningBook> {
        self.book.as_ref()?.as_ref().ok()
    }

    /// For `checkerbot doctor`: `None` when the level uses no book, else how many positions
    /// the book holds or why there is none.
    pub(crate) fn status(&self) -> Option<Result<usize, &str>> {
        Some(match self.book.as_ref()? {
            Ok(book) => Ok(book.len()),
            Err(reason) => Err(reason.as_str()),
        })
    }
}

/// The book file level 5 reads under `settings`; none at the other levels.
fn wanted(settings: &Settings) -> Option<PathBuf> {
    (settings.play.level == PlayLevel::Fixed(5)).then(|| book_path(settings, settings.game.variant))
}

/// The book at `path`, or why it cannot be used.
fn read(path: &Path, variant: Variant) -> Result<OpeningBook, String> {
    let text = std::fs::read_to_string(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => format!("no file {}", path.display()),
        _ => format!("{}: {err}", path.display()),
    })?;
    OpeningBook::parse(&text, variant).map_err(|err| format!("{}: {err}", path.display()))
}

#[cfg(test)]
#[path = "book_tests.rs"]
pub(crate) mod tests;
