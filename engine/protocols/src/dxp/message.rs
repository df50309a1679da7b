//! DXP's messages as typed values: [`parse`] reads one message's text (without its NUL), and
//! a [`Message`]'s `Display` writes it. The layouts are the `DamExchange` layer 2 description's:
//! fixed-width fields, numbers with leading zeros, names padded with blanks to 32 characters.
//! Pure and board-blind: squares are numbers 1 to 50 here, and `board` reads them against a
//! position.

use std::fmt;

/// The protocol version this side speaks, the only one there is.
pub const VERSION: &str = "01";

/// The width of a program's name in a game request or accept.
pub const NAME_WIDTH: usize = 32;

/// The most pieces one move can capture: all of one side's twenty.
pub const MAX_CAPTURES: usize = 20;

/// The longest chat text, so that the message stays within the protocol's 127 characters.
pub const MAX_CHAT: usize = 126;

/// A colour as DXP writes it: `W` white, `Z` (zwart) black.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `W`.
    White,
    /// `Z`.
    Black,
}

/// One DXP message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `C`: free text, at any time.
    Chat(String),
    /// `R`: the initiator asks for a game.
    GameRequest(GameRequest),
    /// `A`: the follower's answer to a game request.
    GameAccept {
        /// The follower's name (trailing blanks removed).
        name: String,
        /// Whether it plays.
        code: AcceptCode,
    },
    /// `M`: a move.
    Move(MoveMessage),
    /// `E`: the end of the game, asked for or confirmed.
    GameEnd {
        /// Why, for information.
        reason: EndReason,
        /// Whether another game may follow.
        stop: StopCode,
    },
    /// `B`: a request to go back to an earlier position of the game.
    BackRequest {
        /// The move number to go back to, from 1.
        move_number: u16,
        /// The side to move at that move.
        side: Side,
    },
    /// `K`: the answer to a back request.
    BackAccept(BackCode),
}

/// A game request's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRequest {
    /// The protocol version, two characters (`01`).
    pub version: String,
    /// The initiator's name (trailing blanks removed).
    pub name: String,
    /// The colour the follower plays.
    pub follower: Side,
    /// Each side's thinking time for the whole game, in minutes (0: none given).
    pub minutes: u16,
    /// The moves to play in that time (0: no limit).
    pub moves: u16,
    /// The starting position, or `None` for the usual one with White to move.
    pub position: Option<StartPosition>,
}

/// A starting position as a game request gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPosition {
    /// The side to move first.
    pub to_move: Side,
    /// Fifty characters, squares 1 to 50: `e` empty, `w`, `z` men, `W`, `Z` kings. Checked
    /// for those characters only; `board` checks it is a legal position.
    pub squares: String,
}

/// A move's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveMessage {
    /// Seconds spent on the move (0 to 9999), for information.
    pub seconds: u16,
    /// The square moved from, 1 to 50.
    pub from: u8,
    /// The square moved to, 1 to 50.
    pub to: u8,
    /// The squares of the captured pieces, in any order.
    pub captured: Vec<u8>,
}

/// The follower's answer to a game request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcceptCode {
    /// `0`: the game starts.
    Accepted,
    /// `1`: not this protocol version.
    WrongVersion,
    /// `2`: not this game (its position, its time), but another one is welcome.
    Declined,
    /// `3`: no game at all.
    NoGames,
}

impl AcceptCode {
    /// The answer in words, for a log or a refused game's error.
    pub fn describe(self) -> &'static str {
        match self {
            AcceptCode::Accepted => "accepted",
            AcceptCode::WrongVersion => "another protocol version",
            AcceptCode::Declined => "not this game, another one is welcome",
            AcceptCode::NoGames => "no games at all",
        }
    }
}

/// Why a game ends, for information.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed, and the reason of a confirmation).
    Unknown,
    /// `1`: the sender gives up.
    SenderLoses,
    /// `2`: a draw.
    Draw,
    /// `3`: the sender wins.
    SenderWins,
}

impl EndReason {
    /// The reason as the sender meant it, in words.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Unknown => "no reason given",
            EndReason::SenderLoses => "it gives up",
            EndReason::Draw => "a draw",
            EndReason::SenderWins => "it says it won",
        }
    }
}

/// Whether another game may follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopCode {
    /// `0`: another game is welcome.
    NextGameWelcome,
    /// `1`: no more games.
    NoMoreGames,
}

/// The answer to a back request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackCode {
    /// `0`: the moves are taken back.
    Accepted,
    /// `1`: taking moves back is not supported.
    NotSupported,
    /// `2`: the game goes on from where it is.
    Continue,
}

/// A message that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Nothing between two NULs.
    #[error("an empty message")]
    Empty,
    /// A first character that is no message type.
    #[error("unknown message type {0:?}")]
    UnknownType(char),
    /// A character outside ASCII 1 to 127, which messages other than chat may not hold.
    #[error("a {message} message holds a character outside ASCII")]
    NotAscii {
        /// The message's name.
        message: &'static str,
    },
    /// A message of the wrong length for its type.
    #[error("a {message} message is {expected} characters long, not {found}")]
    Length {
        /// The message's name.
        message: &'static str,
        /// The length its fields make.
        expected: usize,
        /// The length received.
        found: usize,
    },
    /// A field that does not hold what it may.
    #[error("the {field} of a {message} message is {expected}, not {found:?}")]
    Field {
        /// The message's name.
        message: &'static str,
        /// The field's name.
        field: &'static str,
        /// What it may hold.
        expected: &'static str,
        /// What it held.
        found: String,
    },
}

impl From<ParseErrorKind> for ParseError {
    fn from(kind: ParseErrorKind) -> ParseError {
        ParseError { kind }
    }
}

/// Reads one message's text, without its NUL. Never panics, whatever the text.
pub fn parse(text: &str) -> Result<Message, ParseError> {
    let Some(kind) = text.chars().next() else {
        return Err(ParseErrorKind::Empty.into());
    };
    if kind == 'C' {
        return Ok(Message::Chat(text[1..].to_owned()));
    }
    let name = match kind {
        'R' => "GAMEREQ",
        'A' => "GAMEACC",
        'M' => "MOVE",
        'E' => "GAMEEND",
        'B' => "BACKREQ",
        'K' => "BACKACC",
        other => return Err(ParseErrorKind::UnknownType(other).into()),
    };
    if !text.is_ascii() {
        return Err(ParseErrorKind::NotAscii { message: name }.into());
    }
    let fields = Fields {
        text,
        message: name,
    };
    Ok(match kind {
        'R' => Message::GameRequest(game_request(fields)?),
        'A' => {
            fields.length(2 + NAME_WIDTH)?;
            Message::GameAccept {
                name: fields.name(1),
                code: match fields.letter(1 + NAME_WIDTH, "acceptance code", "0, 1, 2 or 3")? {
                    '0' => AcceptCode::Accepted,
                    '1' => AcceptCode::WrongVersion,
                    '2' => AcceptCode::Declined,
                    '3' => AcceptCode::NoGames,
                    _ => {
                        return Err(fields.bad(
                            1 + NAME_WIDTH,
                            1,
                            "acceptance code",
                            "0, 1, 2 or 3",
                        ));
                    }
                },
            }
        }
        'M' => {
            if text.len() < 11 {
                fields.length(11)?;
            }
            let count = fields.number(9, 2, "number captured", "00 to 20")?;
            let count = usize::from(count);
            if count > MAX_CAPTURES {
                return Err(fields.bad(9, 2, "number captured", "00 to 20"));
            }
            fields.length(11 + 2 * count)?;
            let square = |at| fields.square(at);
            Message::Move(MoveMessage {
                seconds: fields.number(1, 4, "time", "four digits")?,
                from: square(5)?,
                to: square(7)?,
                captured: (0..count)
                    .map(|i| square(11 + 2 * i))
                    .collect::<Result<_, _>>()?,
            })
        }
        'E' => {
            fields.length(3)?;
            Message::GameEnd {
                reason: match fields.letter(1, "reason", "0, 1, 2 or 3")? {
                    '0' => EndReason::Unknown,
                    '1' => EndReason::SenderLoses,
                    '2' => EndReason::Draw,
                    '3' => EndReason::SenderWins,
                    _ => return Err(fields.bad(1, 1, "reason", "0, 1, 2 or 3")),
                },
                stop: match fields.letter(2, "stop code", "0 or 1")? {
                    '0' => StopCode::NextGameWelcome,
                    '1' => StopCode::NoMoreGames,
                    _ => return Err(fields.bad(2, 1, "stop code", "0 or 1")),
                },
            }
        }
        'B' => {
            fields.length(5)?;
            Message::BackRequest {
                move_number: fields.number(1, 3, "move number", "001 to 999")?,
                side: fields.side(4, "colour to move")?,
            }
        }
        _ => {
            fields.length(2)?;
            Message::BackAccept(match fields.letter(1, "acceptance code", "0, 1 or 2")? {
                '0' => BackCode::Accepted,
                '1' => BackCode::NotSupported,
                '2' => BackCode::Continue,
                _ => return Err(fields.bad(1, 1, "acceptance code", "0, 1 or 2")),
            })
        }
    })
}

/// A game request: 43 characters, or 94 with a position.
fn game_request(fields: Fields<'_>) -> Result<GameRequest, ParseError> {
    const SHORT: usize = 1 + 2 + NAME_WIDTH + 1 + 3 + 3 + 1;
    if fields.text.len() < SHORT {
        fields.length(SHORT)?;
    }
    let at = 3 + NAME_WIDTH;
    let position = match fields.letter(at + 7, "starting position", "A or B")? {
        'A' => {
            fields.length(SHORT)?;
            None
        }
        'B' => {
            fields.length(SHORT + 1 + 50)?;
            let squares = &fields.text[SHORT + 1..];
            if let Some(bad) = squares.chars().find(|c| !"ewzWZ".contains(*c)) {
                return Err(ParseErrorKind::Field {
                    message: fields.message,
                    field: "position",
                    expected: "e, w, z, W or Z on each square",
                    found: bad.to_string(),
                }
                .into());
            }
            Some(StartPosition {
                to_move: fields.side(SHORT, "colour to move first")?,
                squares: squares.to_owned(),
            })
        }
        _ => return Err(fields.bad(at + 7, 1, "starting position", "A or B")),
    };
    Ok(GameRequest {
        version: fields.text[1..3].to_owned(),
        name: fields.name(3),
        follower: fields.side(at, "follower colour")?,
        minutes: fields.number(at + 1, 3, "thinking time", "three digits")?,
        moves: fields.number(at + 4, 3, "number of moves", "three digits")?,
        position,
    })
}

/// The fixed-width fields of an ASCII message.
#[derive(Clone, Copy)]
struct Fields<'a> {
    text: &'a str,
    message: &'static str,
}

impl Fields<'_> {
    fn length(&self, expected: usize) -> Result<(), ParseError> {
        if self.text.len() == expected {
            Ok(())
        } else {
            Err(ParseErrorKind::Length {
                message: self.message,
                expected,
                found: self.text.len(),
            }
            .into())
        }
    }

    /// The text from `at` to `at + width`, or what there is of it.
    fn slice(&self, at: usize, width: usize) -> &str {
        let end = (at + width).min(self.text.len());
        self.text.get(at.min(end)..end).unwrap_or_default()
    }

    fn bad(
        &self,
        at: usize,
        width: usize,
        field: &'static str,
        expected: &'static str,
    ) -> ParseError {
        ParseErrorKind::Field {
            message: self.message,
            field,
            expected,
            found: self.slice(at, width).to_owned(),
        }
        .into()
    }

    fn letter(
        &self,
        at: usize,
        field: &'static str,
        expected: &'static str,
    ) -> Result<char, ParseError> {
        self.slice(at, 1)
            .chars()
            .next()
            .ok_or_else(|| self.bad(at, 1, field, expected))
    }

    fn number(
        &self,
        at: usize,
        width: usize,
        field: &'static str,
        expected: &'static str,
    ) -> Result<u16, ParseError> {
        let digits = self.slice(at, width);
        if digits.len() != width || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(at, width, field, expected));
        }
        digits
            .parse()
            .map_err(|_| self.bad(at, width, field, expected))
    }

    fn square(&self, at: usize) -> Result<u8, ParseError> {
        let expected = "a square from 01 to 50";
        match self.number(at, 2, "square", expected)? {
            n @ 1..=50 => Ok(n as u8),
            _ => Err(self.bad(at, 2, "square", expected)),
        }
    }

    fn side(&self, at: usize, field: &'static str) -> Result<Side, ParseError> {
        match self.letter(at, field, "W or Z")? {
            'W' => Ok(Side::White),
            'Z' => Ok(Side::Black),
            _ => Err(self.bad(at, 1, field, "W or Z")),
        }
    }

    /// A name field, its padding removed.
    fn name(&self, at: usize) -> String {
        self.slice(at, NAME_WIDTH).trim_end().to_owned()
    }
}

/// Keeps what a peer can read: printable ASCII, other characters as `?`.
fn printable(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().map(|c| {
        if c.is_ascii_graphic() || c == ' ' {
            c
        } else {
            '?'
        }
    })
}

/// A name in its 32 characters: no leading blank, padded with blanks, cut if longer.
struct Name<'a>(&'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name: String = printable(self.0.trim_start()).take(NAME_WIDTH).collect();
        write!(f, "{name:<NAME_WIDTH$}")
    }
}

impl Side {
    fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'Z',
        }
    }
}

impl fmt::Display for Message {
    /// The message's text, without its NUL; numbers too large for their field are written as
    /// its largest value, so the text always fits its layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Chat(text) => {
                let text: String = printable(text).take(MAX_CHAT).collect();
                write!(f, "C{text}")
            }
            Message::GameRequest(request) => {
                let version: String = printable(&request.version)
                    .chain("00".chars())
                    .take(2)
                    .collect();
                write!(
                    f,
                    "R{version}{}{}{:03}{:03}",
                    Name(&request.name),
                    request.follower.letter(),
                    request.minutes.min(999),
                    request.moves.min(999)
                )?;
                match &request.position {
                    None => f.write_str("A"),
                    Some(start) => {
                        let squares: String = start
                            .squares
                            .chars()
                            .map(|c| if "ewzWZ".contains(c) { c } else { 'e' })
                            .chain(std::iter::repeat('e'))
                            .take(50)
                            .collect();
                        write!(f, "B{}{squares}", start.to_move.letter())
                    }
                }
            }
            Message::GameAccept { name, code } => {
                let code = match code {
                    AcceptCode::Accepted => '0',
                    AcceptCode::WrongVersion => '1',
                    AcceptCode::Declined => '2',
                    AcceptCode::NoGames => '3',
                };
                write!(f, "A{}{code}", Name(name))
            }
            Message::Move(mv) => {
                let captured = &mv.captured[..mv.captured.len().min(MAX_CAPTURES)];
                write!(
                    f,
                    "M{:04}{:02}{:02}{:02}",
                    mv.seconds.min(9999),
                    mv.from.min(99),
                    mv.to.min(99),
                    captured.len()
                )?;
                captured
                    .iter()
                    .try_for_each(|sq| write!(f, "{:02}", sq.min(&99)))
            }
            Message::GameEnd { reason, stop } => {
                let reason = match reason {
                    EndReason::Unknown => '0',
                    EndReason::SenderLoses => '1',
                    EndReason::Draw => '2',
                    EndReason::SenderWins => '3',
                };
                let stop = match stop {
                    StopCode::NextGameWelcome => '0',
                    StopCode::NoMoreGames => '1',
                };
                write!(f, "E{reason}{stop}")
            }
            Message::BackRequest { move_number, side } => {
                write!(f, "B{:03}{}", move_number.min(&999), side.letter())
            }
            Message::BackAccept(code) => {
                let code = match code {
                    BackCode::Accepted => '0',
                    BackCode::NotSupported => '1',
                    BackCode::Continue => '2',
                };
                write!(f, "K{code}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocols_examples_read_and_write_back() {
        let examples = [
            "R01Tornado voor Windows 4.0        W060065A",
            "ATornado voor Windows 4.0        0",
            "M0012061100",
            "M001205250422122320",
            "E00",
            "B005Z",
            "K1",
            "CWhat do you think about move 35?",
        ];
        for text in examples {
            let message = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(message.to_string(), text);
        }
        assert_eq!(
            parse("M001205250422122320"),
            Ok(Message::Move(MoveMessage {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            }))
        );
        let Ok(Message::GameRequest(request)) =
            parse("R01Tornado voor Windows 4.0        W060065A")
        else {
            panic!("not a request");
        };
        assert_eq!(request.name, "Tornado voor Windows 4.0");
        assert_eq!(
            (request.follower, request.minutes, request.moves),
            (Side::White, 60, 65)
        );
    }

    #[test]
    fn pydraughts_request_with_a_position_reads() {
        let squares = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let text = format!("R01{:<32}Z000000BW{squares}", "DXP Client");
        let Ok(Message::GameRequest(request)) = parse(&text) else {
            panic!("not a request");
        };
        assert_eq!(request.follower, Side::Black);
        assert_eq!(
            request.position,
            Some(StartPosition {
                to_move: Side::White,
                squares,
            })
        );
        assert_eq!(Message::GameRequest(request).to_string(), text);
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        let error = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(error(""), "an empty message");
        assert_eq!(error("X12"), "unknown message type 'X'");
        assert_eq!(error("E0"), "a GAMEEND message is 3 characters long, not 2");
        assert_eq!(
            error("E05"),
            "the stop code of a GAMEEND message is 0 or 1, not \"5\""
        );
        assert_eq!(
            error("M0012066100"),
            "the square of a MOVE message is a square from 01 to 50, not \"61\""
        );
        assert_eq!(
            error("M00120611019"),
            "a MOVE message is 13 characters long, not 12"
        );
        assert_eq!(
            error("M0012061121"),
            "the number captured of a MOVE message is 00 to 20, not \"21\""
        );
        assert_eq!(
            error("Bé05Z"),
            "a BACKREQ message holds a character outside ASCII"
        );
        assert_eq!(
            error("R01"),
            "a GAMEREQ message is 43 characters long, not 3"
        );
    }

    #[test]
    fn written_names_and_chat_fit_their_fields() {
        let accept = Message::GameAccept {
            name: " a very long name that goes beyond thirty-two characters".to_owned(),
            code: AcceptCode::Declined,
        };
        assert_eq!(accept.to_string(), "Aa very long name that goes beyon2");
        assert_eq!(Message::Chat("héllo\0".to_owned()).to_string(), "Ch?llo?");
        assert_eq!(Message::Chat("x".repeat(200)).to_string().len(), 127);
    }
}
