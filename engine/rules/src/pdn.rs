//! PDN (Portable Draughts Notation): writing game records and reading them back.
//!
//! [`write()`] turns a [`Game`] into one PDN game: the seven-tag roster, `GameType` (and a
//! `Variant` tag for giveaway, which has no `GameType` number of its own), `FEN` when the game
//! did not start from the variant's initial position, then numbered movetext wrapped at 80
//! columns (captures with `x`, as the standard writes them, in every variant) and the result.
//!
//! [`read`] reads every game of a PDN text. The variant comes from the `GameType` tag (its
//! first field: 20 International, 21 English, 22 Italian, 23 pool, 25 Russian, 26 Brazilian,
//! 27 Canadian); a `Variant` tag that names one of [`Variant`]'s names wins over it (that is
//! how giveaway is told apart from Russian). A game with neither tag is International, as the
//! PDN standard says; [`read_with_default`] chooses another variant for such games. The `FEN`
//! tag, if any, is the start position.
//!
//! The movetext reader is liberal, as the PDN standard recommends: move numbers (`12.`,
//! `12...`, `12.c3-d4`) are skipped whatever they say (so the numbering pydraughts writes for
//! games that start with Black is read too), as are comments (`{...}`, `;` to the end of the
//! line, lines starting with `%`), variations (`( ... )`, nested), NAGs (`$3`) and annotation
//! suffixes (`!`, `?`, `!!`, `!?`, `?!`, `??`). Each move is resolved with
//! [`notation::parse_move`] on the current position, so algebraic and numeric squares, `-`, `:`
//! and `x`, and captures given by their first and last squares are all accepted. A game ends at
//! a result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `0-0`, `*`), at the tags of
//! the next game, or at the end of the text.
//!
//! ```
//! use rules::{Game, Variant, notation, pdn};
//!
//! let mut game = Game::new(Variant::Russian);
//! for text in ["c3-d4", "f6-g5"] {
//!     let mv = notation::parse_move(game.position(), text).unwrap();
//!     game.play(&mv).unwrap();
//! }
//! let text = pdn::write(&game, &[("White", "checkerbot")]);
//! assert!(text.contains("[GameType \"25\"]"));
//! assert!(text.contains("1. c3-d4 f6-g5 *"));
//!
//! let games = pdn::read(&text).unwrap();
//! assert_eq!(games[0].tag("White"), Some("checkerbot"));
//! assert_eq!(games[0].game.moves(), game.moves());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::fen::{self, FenError};
use crate::game::{Game, GameResult, Outcome};
use crate::notation::{self, MoveTextError};
use crate::position::Position;
use crate::variant::Variant;

/// Lines of movetext are wrapped before this many columns.
const LINE_WIDTH: usize = 80;

/// The seven-tag roster, in the order PDN writes it, with the value written when none is given.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "?"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Tags that [`write()`] derives from the game itself and never copies from the caller.
const DERIVED: [&str; 3] = ["GameType", "Variant", "FEN"];

/// One game read from PDN.
#[derive(Debug, Clone)]
pub struct PdnGame {
    /// The tags in the order they were read (a repeated tag keeps every occurrence).
    pub tags: Vec<(String, String)>,
    /// The start position and the moves, replayed under the variant's rules.
    pub game: Game,
    /// The result token that ended the movetext; without one, the `Result` tag's value, or
    /// `*` when there is neither.
    pub result: String,
}

impl PdnGame {
    /// The value of the first tag with this name (names compare without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The result the record states, if it states one (see [`parse_result`]).
    pub fn result(&self) -> Option<GameResult> {
        parse_result(&self.result)
    }
}

/// What a result token says: `1-0` and `2-0` a White win, `0-1` and `0-2` a Black win,
/// `1/2-1/2`, `1-1` and `½-½` a draw. `*` (unfinished), `0-0` (both lost) and anything else
/// give `None`.
pub fn parse_result(token: &str) -> Option<GameResult> {
    match token.trim() {
        "1-0" | "2-0" => Some(GameResult::Win(Color::White)),
        "0-1" | "0-2" => Some(GameResult::Win(Color::Black)),
        "1/2-1/2" | "1-1" | "½-½" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The result token [`write()`] uses: `1-0`, `0-1`, `1/2-1/2`, or `*` for an unfinished game.
pub fn result_token(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::Win(Color::White)) => "1-0",
        Some(GameResult::Win(Color::Black)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Whether a movetext word ends a game.
fn is_result_token(word: &str) -> bool {
    matches!(
        word,
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "0-0" | "½-½" | "*"
    )
}

/// The variant a `GameType` number stands for, if checkerbot plays it.
fn variant_of_game_type(number: &str) -> Option<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| *v != Variant::RussianGiveaway)
        .find(|v| v.rules().pdn_game_type == number)
}

/// PDN's marks for a move that was poor, written after its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveMark {
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl MoveMark {
    /// The mark as written after the move.
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveMark::Mistake => "?",
            MoveMark::Blunder => "??",
        }
    }
}

/// What a written game says about one of its moves besides the move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNote {
    /// Which move, counting from 0.
    pub ply: usize,
    /// A mark after the move's text.
    pub mark: Option<MoveMark>,
    /// A `{comment}` after the move; braces in it become parentheses, so it cannot end early.
    pub comment: Option<String>,
}

/// Writes a game as PDN, ending with a blank line.
///
/// `tags` supply the seven-tag roster (Event, Site, Date, Round, White, Black, Result; `?` where
/// not given) and any other tags, written after the roster in the order given. `GameType`,
/// `Variant` and `FEN` always describe `game` and are not taken from `tags`. `Result` defaults
/// to the game's [`Game::outcome`]; a given `Result` that is not a result token is replaced by
/// it. The result is written both as the tag and at the end of the movetext. Characters that
/// cannot appear in a tag name are dropped; quotes and backslashes in values are escaped.
pub fn write(game: &Game, tags: &[(&str, &str)]) -> String {
    write_annotated(game, tags, &[])
}

/// Writes a game as [`write`] does, with `notes` on its moves: marks such as `c3-d4??` and
/// comments, which readers of PDN (this one included) skip when they replay the moves.
pub fn write_annotated(game: &Game, tags: &[(&str, &str)], notes: &[MoveNote]) -> String {
    let variant = game.variant();
    let given = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    };
    let result = given("Result")
        .map(str::trim)
        .filter(|r| is_result_token(r))
        .unwrap_or_else(|| result_token(game.outcome().map(|o| o.result)));

    let mut out = String::new();
    for (name, default) in ROSTER {
        push_tag(&mut out, name, given(name).unwrap_or(default));
    }
    push_tag(&mut out, "Result", result);
    push_tag(&mut out, "GameType", variant.rules().pdn_game_type);
    if variant_of_game_type(variant.rules().pdn_game_type) != Some(variant) {
        push_tag(&mut out, "Variant", variant.name());
    }
    if *game.start() != Position::new(variant) {
        push_tag(&mut out, "FEN", &fen::write(game.start()));
    }
    for (name, value) in tags {
        let known = ROSTER.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
            || "Result".eq_ignore_ascii_case(name)
            || DERIVED.iter().any(|n| n.eq_ignore_ascii_case(name));
        if !known {
            push_tag(&mut out, name, value);
        }
    }
    out.push('\n');
    write_movetext(&mut out, game, result, notes);
    out.push_str("\n\n");
    out
}

/// Appends `[Name "value"]` and a newline, cleaning the name and escaping the value.
fn push_tag(out: &mut String, name: &str, value: &str) {
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return;
    }
    out.push('[');
    out.push_str(&name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Appends the numbered moves and the result, wrapped at [`LINE_WIDTH`] columns.
/// A move as PDN writes it: the variant's squares, every landing square of a capture, and `x`
/// between the squares of a capture as the PDN standard has it. Russian texts usually write
/// `:`, which this reader takes but other readers (pydraughts among them) do not.
fn pdn_move_text(variant: Variant, mv: &crate::Move) -> String {
    let text = notation::move_text(variant, mv);
    if mv.is_capture() {
        text.replace(':', "x")
    } else {
        text
    }
}

fn write_movetext(out: &mut String, game: &Game, result: &str, notes: &[MoveNote]) {
    let variant = game.variant();
    let first = variant.rules().first;
    let mut units = Vec::with_capacity(game.moves().len() + 1);
    let mut number = 1;
    let mut turn = game.start().turn();
    for (i, mv) in game.moves().iter().enumerate() {
        let note = notes.iter().find(|note| note.ply == i);
        let mark = note.and_then(|note| note.mark).map_or("", MoveMark::as_str);
        let text = format!("{}{mark}", pdn_move_text(variant, mv));
        if turn == first {
            units.push(format!("{number}. {text}"));
        } else if i == 0 {
            units.push(format!("{number}... {text}"));
        } else {
            units.push(text);
        }
        if let Some(comment) = note.and_then(|note| note.comment.as_deref()) {
            units.push(format!(
                "{{{}}}",
                comment.replace('{', "(").replace('}', ")")
            ));
        }
        if turn != first {
            number += 1;
        }
        turn = !turn;
    }
    units.push(result.to_owned());

    let mut line_len = 0;
    for unit in units {
        let width = unit.chars().count();
        if line_len > 0 && line_len + 1 + width > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&unit);
        line_len += width;
    }
}

/// A PDN text that cannot be read: the game (counting from 1), the line, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PDN game {game}, line {line}: {kind}")]
pub struct PdnError {
    /// Which game of the text, counting from 1.
    pub game: usize,
    /// The line of the text, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: PdnErrorKind,
}

/// What is wrong with a PDN text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdnErrorKind {
    /// A tag pair is not `[Name "value"]`.
    #[error("malformed tag {text:?}: {why}")]
    Tag {
        /// The text of the tag as far as it was read.
        text: String,
        /// What is wrong.
        why: &'static str,
    },
    /// A `{` comment runs to the end of the text.
    #[error("a comment opened with {{ is never closed")]
    UnclosedComment,
    /// A `(` variation is still open where the game ends.
    #[error("{token:?}: a variation opened with ( is never closed")]
    UnclosedVariation {
        /// What ended the game: the next game's tag, a result or the end of the text.
        token: String,
    },
    /// A `)` without a `(`.
    #[error("\")\" closes a variation that was never opened")]
    UnmatchedParenthesis,
    /// The `GameType` tag names no variant checkerbot plays.
    #[error("GameType {value:?}: {why}")]
    GameType {
        /// The tag's value.
        value: String,
        /// What is wrong.
        why: String,
    },
    /// The `FEN` tag cannot be read.
    #[error("FEN {value:?}: {error}")]
    Fen {
        /// The tag's value.
        value: String,
        /// Why.
        error: FenError,
    },
    /// A movetext word is not a legal move (nor a move number, result or annotation).
    #[error("move {number} {token:?}: {error}")]
    Move {
        /// The move number, as the text numbers it (or as counted, where it has no numbers).
        number: u32,
        /// The word.
        token: String,
        /// Why it names no legal move.
        error: MoveTextError,
    },
    /// A move follows the end of the game by the rules (no move left, or a draw rule).
    #[error("move {number} {token:?}: the game was already over: {ended}")]
    AfterEnd {
        /// The move number, as the text numbers it (or as counted).
        number: u32,
        /// The word.
        token: String,
        /// How it ended, in words.
        ended: String,
    },
}

/// Reads every game of a PDN text. Games with neither a `GameType` nor a known `Variant` tag
/// are International, as the PDN standard says.
///
/// Stops at the first game that cannot be read; [`games`] reads on past bad games.
pub fn read(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    games(text, Variant::International).collect()
}

/// Reads every game of a PDN text; games with neither a `GameType` nor a known `Variant` tag
/// are played as `variant`. Tags that name a variant still win.
pub fn read_with_default(text: &str, variant: Variant) -> Result<Vec<PdnGame>, PdnError> {
    games(text, variant).collect()
}

/// The games of a PDN text one by one, `default` being the variant of games without a
/// `GameType` or known `Variant` tag. After a game that cannot be read, the iterator skips to
/// the end of that game (its result token or the next tags) and goes on with the next.
pub fn games(text: &str, default: Variant) -> Games<'_> {
    Games {
        lexer: Lexer::new(text),
        default,
        pending: None,
        number: 0,
    }
}

/// An iterator over the games of a PDN text; see [`games`].
#[derive(Debug, Clone)]
pub struct Games<'a> {
    lexer: Lexer<'a>,
    default: Variant,
    /// A token read past the end of the previous game (the first tag of this one).
    pending: Option<Located<'a>>,
    /// Games started so far.
    number: usize,
}

impl Iterator for Games<'_> {
    type Item = Result<PdnGame, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let first = match self.pending.take() {
            Some(token) => token,
            None => self.lexer.next()?,
        };
        self.number += 1;
        let mut reader = GameReader::new(self.default, self.number);
        let mut token = Some(first);
        while let Some(located) = token {
            match reader.feed(&located) {
                Ok(Step::Continue) => token = self.lexer.next(),
                Ok(Step::Done) => return Some(reader.finish(None)),
                Ok(Step::NextGame) => {
                    self.pending = Some(located);
                    return Some(reader.finish(None));
                }
                Err(error) => {
                    match located.token {
                        // A variation left open: the tag starts the next game.
                        Token::Tag { .. } | Token::BadTag { .. } if reader.game.is_some() => {
                            self.pending = Some(located);
                        }
                        // The game ended here.
                        Token::Word(word) if is_result_token(word) => {}
                        Token::Tag { .. } | Token::BadTag { .. } => self.skip_rest_of_game(false),
                        _ => self.skip_rest_of_game(true),
                    }
                    return Some(Err(error));
                }
            }
        }
        Some(reader.finish(Some(self.lexer.line)))
    }
}

impl Games<'_> {
    /// Skips to just after the current game's result token, or to the next game's tags.
    fn skip_rest_of_game(&mut self, mut in_movetext: bool) {
        for located in self.lexer.by_ref() {
            match located.token {
                Token::Tag { .. } | Token::BadTag { .. } if in_movetext => {
                    self.pending = Some(located);
                    return;
                }
                Token::Tag { .. } | Token::BadTag { .. } => {}
                Token::Word(word) if is_result_token(word) => return,
                _ => in_movetext = true,
            }
        }
    }
}

/// What the game reader wants after a token.
enum Step {
    /// More of this game.
    Continue,
    /// The game ended with this token (a result).
    Done,
    /// This token belongs to the next game.
    NextGame,
}

/// Reads the tokens of one game.
struct GameReader {
    default: Variant,
    number: usize,
    tags: Vec<(String, String)>,
    /// Created at the first movetext token, once the tags are known.
    game: Option<Game>,
    result: Option<String>,
    /// Depth of `( ... )` variations.
    depth: usize,
    /// The last move number the text gave, if any.
    label: Option<u32>,
    /// The line of the last token.
    line: usize,
}

impl GameReader {
    fn new(default: Variant, number: usize) -> GameReader {
        GameReader {
            default,
            number,
            tags: Vec::new(),
            game: None,
            result: None,
            depth: 0,
            label: None,
            line: 1,
        }
    }

    fn error(&self, kind: PdnErrorKind) -> PdnError {
        PdnError {
            game: self.number,
            line: self.line,
            kind,
        }
    }

    fn feed(&mut self, located: &Located<'_>) -> Result<Step, PdnError> {
        self.line = located.line;
        match &located.token {
            Token::Tag { name, value } => {
                if self.game.is_some() {
                    if self.depth > 0 {
                        return Err(self.error(PdnErrorKind::UnclosedVariation {
                            token: format!("[{name}"),
                        }));
                    }
                    return Ok(Step::NextGame);
                }
                self.tags.push(((*name).to_owned(), value.clone()));
                Ok(Step::Continue)
            }
            Token::BadTag { text, why } => {
                if self.game.is_some() {
                    if self.depth > 0 {
                        return Err(self.error(PdnErrorKind::UnclosedVariation {
                            token: (*text).to_owned(),
                        }));
                    }
                    return Ok(Step::NextGame);
                }
                Err(self.error(PdnErrorKind::Tag {
                    text: (*text).to_owned(),
                    why,
                }))
            }
            Token::UnclosedComment => Err(self.error(PdnErrorKind::UnclosedComment)),
            Token::Open => {
                self.start()?;
                self.depth += 1;
                Ok(Step::Continue)
            }
            Token::Close => {
                self.start()?;
                if self.depth == 0 {
                    return Err(self.error(PdnErrorKind::UnmatchedParenthesis));
                }
                self.depth -= 1;
                Ok(Step::Continue)
            }
            Token::Nag => {
                self.start()?;
                Ok(Step::Continue)
            }
            &Token::Word(word) => {
                self.start()?;
                if is_result_token(word) {
                    if self.depth > 0 {
                        return Err(self.error(PdnErrorKind::UnclosedVariation {
                            token: word.to_owned(),
                        }));
                    }
                    self.result = Some(word.to_owned());
                    return Ok(Step::Done);
                }
                if self.depth > 0 {
                    return Ok(Step::Continue);
                }
                self.word(word)?;
                Ok(Step::Continue)
            }
        }
    }

    /// Creates the game from the tags, once.
    fn start(&mut self) -> Result<(), PdnError> {
        if self.game.is_none() {
            self.game = Some(self.new_game()?);
        }
        Ok(())
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    fn variant(&self) -> Result<Variant, PdnError> {
        if let Some(variant) = self.tag("Variant").and_then(|v| Variant::from_str(v).ok()) {
            return Ok(variant);
        }
        let Some(value) = self.tag("GameType") else {
            return Ok(self.default);
        };
        let number = value.split(',').next().unwrap_or_default().trim();
        let bad = |why: String| {
            self.error(PdnErrorKind::GameType {
                value: value.to_owned(),
                why,
            })
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(
                "the first field must be the game type number".to_owned()
            ));
        }
        variant_of_game_type(number).ok_or_else(|| {
            bad(format!(
                "game type {number} is not a variant checkerbot plays (20 International, \
                 21 English, 22 Italian, 23 pool, 25 Russian, 26 Brazilian, 27 Canadian)"
            ))
        })
    }

    fn new_game(&self) -> Result<Game, PdnError> {
        let variant = self.variant()?;
        match self.tag("FEN") {
            None => Ok(Game::new(variant)),
            Some(value) => fen::parse(variant, value)
                .map(Game::from_position)
                .map_err(|error| {
                    self.error(PdnErrorKind::Fen {
                        value: value.to_owned(),
                        error,
                    })
                }),
        }
    }

    /// A movetext word outside variations that is not a result.
    fn word(&mut self, word: &str) -> Result<(), PdnError> {
        let word = match split_move_number(word) {
            Some((number, rest)) => {
                self.label = Some(number);
                rest
            }
            None => word,
        };
        if word.is_empty() || word.chars().all(|c| matches!(c, '.' | '…' | '!' | '?')) {
            return Ok(());
        }
        let number = self.move_number();
        let (game_number, line) = (self.number, self.line);
        let error = |kind| PdnError {
            game: game_number,
            line,
            kind,
        };
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        if let Some(outcome) = game.outcome() {
            return Err(error(PdnErrorKind::AfterEnd {
                number,
                token: word.to_owned(),
                ended: describe(outcome),
            }));
        }
        let mv = notation::parse_move(game.position(), word).map_err(|e| {
            error(PdnErrorKind::Move {
                number,
                token: word.to_owned(),
                error: e,
            })
        })?;
        // `parse_move` returns only legal moves and the game is not over, so this holds.
        game.play(&mv).map_err(|_| {
            error(PdnErrorKind::AfterEnd {
                number,
                token: word.to_owned(),
                ended: "the move could not be played".to_owned(),
            })
        })
    }

    /// The number of the move about to be read: the text's last move number, or else the
    /// count of moves so far.
    fn move_number(&self) -> u32 {
        if let Some(label) = self.label {
            return label;
        }
        let Some(game) = &self.game else { return 1 };
        let first = game.variant().rules().first;
        let offset = usize::from(game.start().turn() != first);
        u32::try_from(usize::midpoint(game.moves().len(), offset) + 1).unwrap_or(u32::MAX)
    }

    /// Ends the game. `eof_line` is set when the text ended without a result token.
    fn finish(mut self, eof_line: Option<usize>) -> Result<PdnGame, PdnError> {
        if let Some(line) = eof_line {
            self.line = line;
        }
        if self.depth > 0 {
            return Err(self.error(PdnErrorKind::UnclosedVariation {
                token: "end of text".to_owned(),
            }));
        }
        let game = match self.game.take() {
            Some(game) => game,
            None => self.new_game()?,
        };
        let result = match self.result.take() {
            Some(token) => token,
            None => self.tag("Result").unwrap_or("*").to_owned(),
        };
        Ok(PdnGame {
            tags: self.tags,
            game,
            result,
        })
    }
}

/// `12.` / `12...` / `12.c3-d4` → (12, the rest after the dots).
fn split_move_number(word: &str) -> Option<(u32, &str)> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    if digits == 0 || !rest.starts_with(['.', '…']) {
        return None;
    }
    let number = word[..digits].parse().unwrap_or(u32::MAX);
    Some((number, rest.trim_start_matches(['.', '…'])))
}

/// An outcome in words: "white won: no legal move".
fn describe(outcome: Outcome) -> String {
    match outcome.result {
        GameResult::Win(color) => format!("{color} won: {}", outcome.reason),
        GameResult::Draw => format!("drawn: {}", outcome.reason),
    }
}

/// A lexical token of PDN.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag { name: &'a str, value: String },
    /// A `[` that does not start a well-formed tag.
    BadTag { text: &'a str, why: &'static str },
    /// A `{` without `}`; the rest of the text is gone.
    UnclosedComment,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `$n`.
    Nag,
    /// Anything else up to whitespace or punctuation: moves, numbers, results, annotations.
    Word(&'a str),
}

/// A token and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Located<'a> {
    token: Token<'a>,
    line: usize,
}

/// Splits PDN text into tokens, dropping whitespace and comments.
#[derive(Debug, Clone)]
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// The line at `pos`.
    line: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        // A byte-order mark is not text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.text[..self.pos]
            .chars()
            .next_back()
            .is_none_or(|c| c == '\n' || c == '\r')
    }

    /// Skips characters until `stop` has been passed; false if the text ended first.
    fn skip_past(&mut self, stop: char) -> bool {
        while let Some(c) = self.bump() {
            if c == stop {
                return true;
            }
        }
        false
    }

    fn tag(&mut self, start: usize) -> Token<'a> {
        let bad = |lexer: &mut Lexer<'a>, why| {
            let text: &'a str = lexer.text;
            // Resynchronise at the end of the tag or of the line.
            while let Some(c) = lexer.peek() {
                if c == '\n' {
                    break;
                }
                lexer.bump();
                if c == ']' {
                    break;
                }
            }
            Token::BadTag {
                text: text[start..lexer.pos].trim_end(),
                why,
            }
        };
        self.skip_spaces();
        let name_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            self.bump();
        }
        let name = &self.text[name_start..self.pos];
        if name.is_empty() {
            return bad(self, "expected a tag name after [");
        }
        self.skip_spaces();
        if self.peek() != Some('"') {
            return bad(
                self,
                "expected the value in double quotes after the tag name",
            );
        }
        self.bump();
        let mut value = String::new();
        loop {
            // A value ends on its line; a newline is left for the next token.
            let c = match self.peek() {
                None | Some('\n' | '\r') => {
                    return bad(self, "the value's closing quote is missing");
                }
                Some(c) => c,
            };
            self.bump();
            match c {
                '"' => break,
                '\\' => match self.peek() {
                    Some(escaped) if escaped != '\n' && escaped != '\r' => {
                        self.bump();
                        value.push(escaped);
                    }
                    _ => return bad(self, "the value's closing quote is missing"),
                },
                _ => value.push(c),
            }
        }
        self.skip_spaces();
        if self.peek() != Some(']') {
            return bad(self, "expected ] after the value");
        }
        self.bump();
        Token::Tag { name, value }
    }

    /// Skips spaces and tabs, not newlines.
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Located<'a>;

    fn next(&mut self) -> Option<Located<'a>> {
        loop {
            let line_start = self.at_line_start();
            let start = self.pos;
            let line = self.line;
            let c = self.bump()?;
            let token = match c {
                c if c.is_whitespace() => continue,
                '%' if line_start => {
                    self.skip_past('\n');
                    continue;
                }
                ';' => {
                    self.skip_past('\n');
                    continue;
                }
                '{' => {
                    if self.skip_past('}') {
                        continue;
                    }
                    Token::UnclosedComment
                }
                '[' => self.tag(start),
                '(' => Token::Open,
                ')' => Token::Close,
                '$' => {
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                    Token::Nag
                }
                _ => {
                    while self
                        .peek()
                        .is_some_and(|c| !c.is_whitespace() && !"{}()[];$\"".contains(c))
                    {
                        self.bump();
                    }
                    Token::Word(&self.text[start..self.pos])
                }
            };
            return Some(Located { token, line });
        }
    }
}

impl fmt::Display for PdnGame {
    /// Writes the game back as PDN with its own tags.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut tags: Vec<(&str, &str)> = self
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Result"));
        tags.push(("Result", &self.result));
        f.write_str(&write(&self.game, &tags))
    }
}
