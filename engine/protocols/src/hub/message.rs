//! The Hub protocol's lines as typed messages, in both directions: [`parse`] reads a line from
//! the GUI into a [`Command`], and a [`Reply`]'s `Display` writes the engine's answer (the
//! engine's side, `checkerbot hub`); a [`Command`]'s `Display` writes what a GUI sends and
//! [`parse_reply`] reads what an engine answers (the client's side, which drives another
//! engine). Pure: no I/O, no clock, no knowledge of the board (positions and moves stay text
//! here; `board_text` reads them against a variant).
//!
//! Every line is `<command> <name>=<value> ...`; a value may be double-quoted (it must be if
//! it holds a space or `=`, or is empty), and an argument without `=` is a flag. Arguments a
//! command does not know are ignored, as the protocol asks, so that a newer GUI still talks
//! to this engine; an unknown command is an error, answered with an `error` line.

use std::fmt;

/// What the GUI asks, one per line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `hub`: say who the engine is and which parameters it has, then `wait`.
    Hub,
    /// `set-param name=... value=...`.
    SetParam {
        /// The parameter's name.
        name: String,
        /// Its new value (empty when the GUI sent none).
        value: String,
    },
    /// `init`: the parameters are set; answer `ready`.
    Init,
    /// `pos [start] [pos=...] [moves="..."]`: the position to search, as text.
    Pos {
        /// The position string, or `None` for the variant's starting position.
        position: Option<String>,
        /// The moves played from it, in order.
        moves: Vec<String>,
    },
    /// `level ...`: the limits of the next search.
    Level(Level),
    /// `go think|ponder|analyze`: start a search.
    Go(GoMode),
    /// `ponder-hit`: the opponent played the expected move; the clock of a ponder search
    /// starts.
    PonderHit,
    /// `stop`: end the search and answer `done` now.
    Stop,
    /// `new-game`: the next search is unrelated to the earlier ones.
    NewGame,
    /// `ping`: answer `pong`, even during a search.
    Ping,
    /// `quit`.
    Quit,
}

/// The limits of a search, as `level` gives them. Several may be given at once; the search
/// ends at whichever comes first. Times are in seconds, as the protocol has them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Level {
    /// `depth=`: the deepest iteration, in plies.
    pub depth: Option<u32>,
    /// `nodes=`: about this many nodes.
    pub nodes: Option<u64>,
    /// `move-time=`: seconds for this move.
    pub move_time: Option<f64>,
    /// `time=`: seconds left on the engine's clock.
    pub time: Option<f64>,
    /// `inc=`: seconds added to the clock before every move.
    pub inc: Option<f64>,
    /// `moves=`: moves to play before the clock's next control.
    pub moves: Option<u32>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
}

/// The kind of search `go` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoMode {
    /// A move to play, within the level.
    Think,
    /// On the opponent's time: the clock starts at `ponder-hit`.
    Ponder,
    /// Analysis: the information matters more than the move.
    Analyze,
}

/// What the engine answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `id name=... version=... author=...` (the protocol's `country` is left out: a team has
    /// none).
    Id {
        /// The engine's name.
        name: String,
        /// Its version.
        version: String,
        /// Who wrote it.
        author: String,
    },
    /// `param name=... value=... type=enum values="..."`: an enumerated parameter.
    EnumParam {
        /// The parameter's name.
        name: String,
        /// Its current value.
        value: String,
        /// Every value it takes.
        values: Vec<String>,
    },
    /// `param name=... value=... type=T`: a parameter of another type (Scan's `bool`,
    /// `string`, ...), which a client reads but this engine never offers.
    OtherParam {
        /// The parameter's name.
        name: String,
        /// Its current value.
        value: String,
        /// Its type, as written.
        kind: String,
    },
    /// `param name=... value=... type=int min=... max=...`: a whole-number parameter.
    IntParam {
        /// The parameter's name.
        name: String,
        /// Its current value.
        value: i64,
        /// Its least value.
        min: i64,
        /// Its greatest value.
        max: i64,
    },
    /// `wait`: the end of the answer to `hub`.
    Wait,
    /// `ready`: the answer to `init`.
    Ready,
    /// `info ...`: the progress of a search.
    Info(Info),
    /// `done [move=...] [ponder=...]`: the end of a search.
    Done {
        /// The move to play, in Hub move text (none when there was nothing to search).
        mv: Option<String>,
        /// The expected answer, for pondering.
        ponder: Option<String>,
    },
    /// `pong`: the answer to `ping`.
    Pong,
    /// `error message="..."`: a line that could not be carried out; the engine goes on.
    Error(String),
}

/// One `info` line: a completed iteration of the search, or what a weaker level's search
/// spent (it has no depth, and its network's value is not a score).
#[derive(Debug, Clone, PartialEq)]
pub struct Info {
    /// The iteration's depth, in plies.
    pub depth: Option<u32>,
    /// The score for the side to move, in men (Scan's unit).
    pub score: Option<f64>,
    /// Nodes searched so far (a weaker level with a network: playouts).
    pub nodes: u64,
    /// Seconds since the search started.
    pub time: f64,
    /// Millions of nodes (or playouts) a second (Scan's unit).
    pub nps: f64,
    /// The expected line, in Hub move text.
    pub pv: Vec<String>,
}

/// A line that is not a command this engine can carry out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// An empty line (or only blanks).
    #[error("missing command")]
    Empty,
    /// Where a name was expected (a command or an argument), something else: `=` or `"`.
    #[error("expected a name at character {at}")]
    ExpectedName {
        /// The character's index in the line, from 0.
        at: usize,
    },
    /// A quoted value without its closing quote.
    #[error("the value of {argument} has no closing quote")]
    UnclosedQuote {
        /// The argument's name.
        argument: String,
    },
    /// A command this engine does not know.
    #[error("unknown command {0}")]
    UnknownCommand(String),
    /// A command without an argument it needs.
    #[error("{command} needs {argument}=")]
    MissingArgument {
        /// The command.
        command: &'static str,
        /// The argument it needs.
        argument: &'static str,
    },
    /// A reply (an engine's line) that is not one of the protocol's.
    #[error("unknown reply {0}")]
    UnknownReply(String),
    /// A `param` line whose `value`, `min` or `max` is not a whole number, as `type=int` needs.
    #[error("{argument} of an int parameter must be a whole number, not {value}")]
    BadInteger {
        /// The argument's name.
        argument: &'static str,
        /// The text given.
        value: String,
    },
    /// A number that is not one, negative, or out of range.
    #[error("{argument} must be a non-negative number, not {value}")]
    BadNumber {
        /// The argument's name.
        argument: &'static str,
        /// The text given.
        value: String,
    },
}

impl From<ParseErrorKind> for ParseError {
    fn from(kind: ParseErrorKind) -> ParseError {
        ParseError { kind }
    }
}

/// One `name[=value]` of a line.
struct Argument<'a> {
    name: &'a str,
    value: Option<&'a str>,
}

/// A line cut into its first word and its arguments.
fn split(line: &str) -> Result<(&str, Vec<Argument<'_>>), ParseError> {
    let mut scanner = Scanner { line, at: 0 };
    if scanner.at_end() {
        return Err(ParseErrorKind::Empty.into());
    }
    let command = scanner.name()?;
    let mut arguments = Vec::new();
    while !scanner.at_end() {
        arguments.push(scanner.argument()?);
    }
    Ok((command, arguments))
}

/// Reads one line from the GUI. Never panics, whatever the line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (command, arguments) = split(line)?;
    let find = |name: &str| arguments.iter().find(|a| a.name == name);
    let flag = |name: &str| find(name).is_some();
    let text = |name: &str| find(name).map(|a| a.value.unwrap_or_default().to_owned());
    Ok(match command {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "ping" => Command::Ping,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "new-game" => Command::NewGame,
        "quit" => Command::Quit,
        "set-param" => Command::SetParam {
            name: text("name").ok_or(ParseErrorKind::MissingArgument {
                command: "set-param",
                argument: "name",
            })?,
            value: text("value").unwrap_or_default(),
        },
        "pos" => Command::Pos {
            position: text("pos"),
            moves: words(&text("moves").unwrap_or_default()),
        },
        "level" => {
            let value =
                |name: &'static str| find(name).map(|a| (name, a.value.unwrap_or_default()));
            Command::Level(Level {
                depth: value("depth").map(whole).transpose()?,
                nodes: value("nodes").map(whole).transpose()?,
                move_time: value("move-time").map(seconds).transpose()?,
                time: value("time").map(seconds).transpose()?,
                inc: value("inc").map(seconds).transpose()?,
                moves: value("moves").map(whole).transpose()?,
                infinite: flag("infinite"),
            })
        }
        "go" => Command::Go(if flag("ponder") {
            GoMode::Ponder
        } else if flag("analyze") {
            GoMode::Analyze
        } else {
            GoMode::Think
        }),
        other => return Err(ParseErrorKind::UnknownCommand(other.to_owned()).into()),
    })
}

/// Reads one line from an engine, the client's side of the protocol. Arguments the reply does
/// not know are ignored, and missing numbers of an `info` line read as 0 (Scan sends only what
/// it has). Never panics, whatever the line.
pub fn parse_reply(line: &str) -> Result<Reply, ParseError> {
    let (reply, arguments) = split(line)?;
    let find = |name: &str| arguments.iter().find(|a| a.name == name);
    let text = |name: &str| find(name).map(|a| a.value.unwrap_or_default().to_owned());
    let words = |name: &str| words(&text(name).unwrap_or_default());
    let integer = |argument: &'static str| -> Result<i64, ParseError> {
        let value = text(argument).unwrap_or_default();
        value.parse().map_err(|_| {
            ParseErrorKind::BadInteger {
                argument,
                value: value.clone(),
            }
            .into()
        })
    };
    let value = |name: &'static str| find(name).map(|a| (name, a.value.unwrap_or_default()));
    Ok(match reply {
        "id" => Reply::Id {
            name: text("name").unwrap_or_default(),
            version: text("version").unwrap_or_default(),
            author: text("author").unwrap_or_default(),
        },
        "param" => {
            let name = text("name").ok_or(ParseErrorKind::MissingArgument {
                command: "param",
                argument: "name",
            })?;
            match text("type").unwrap_or_default().as_str() {
                "enum" => Reply::EnumParam {
                    name,
                    value: text("value").unwrap_or_default(),
                    values: words("values"),
                },
                "int" => Reply::IntParam {
                    name,
                    value: integer("value")?,
                    min: integer("min")?,
                    max: integer("max")?,
                },
                kind => Reply::OtherParam {
                    name,
                    value: text("value").unwrap_or_default(),
                    kind: kind.to_owned(),
                },
            }
        }
        "wait" => Reply::Wait,
        "ready" => Reply::Ready,
        "pong" => Reply::Pong,
        "info" => Reply::Info(Info {
            depth: value("depth").map(whole).transpose()?,
            score: find("score")
                .map(|a| score(a.value.unwrap_or_default()))
                .transpose()?,
            nodes: value("nodes").map(whole).transpose()?.unwrap_or(0),
            time: value("time").map(seconds).transpose()?.unwrap_or(0.0),
            nps: value("nps").map(seconds).transpose()?.unwrap_or(0.0),
            pv: words("pv"),
        }),
        "done" => Reply::Done {
            mv: text("move").filter(|mv| !mv.is_empty()),
            ponder: text("ponder").filter(|mv| !mv.is_empty()),
        },
        "error" => Reply::Error(text("message").unwrap_or_default()),
        other => return Err(ParseErrorKind::UnknownReply(other.to_owned()).into()),
    })
}

/// A score in men: any finite number, negative for the side that is behind.
fn score(value: &str) -> Result<f64, ParseError> {
    match value.parse::<f64>() {
        Ok(score) if score.is_finite() => Ok(score),
        _ => Err(ParseErrorKind::BadNumber {
            argument: "score",
            value: value.to_owned(),
        }
        .into()),
    }
}

/// A whole number argument.
fn whole<T: std::str::FromStr>((argument, value): (&'static str, &str)) -> Result<T, ParseError> {
    value.parse().map_err(|_| {
        ParseErrorKind::BadNumber {
            argument,
            value: value.to_owned(),
        }
        .into()
    })
}

/// A time in seconds: finite and not negative.
fn seconds((argument, value): (&'static str, &str)) -> Result<f64, ParseError> {
    match value.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => Ok(secs),
        _ => Err(ParseErrorKind::BadNumber {
            argument,
            value: value.to_owned(),
        }
        .into()),
    }
}

/// Scan's reading of a line: names are runs of printable characters other than `=` and `"`,
/// separated by blanks.
struct Scanner<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn skip_blanks(&mut self) {
        let rest = &self.line[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn at_end(&mut self) -> bool {
        self.skip_blanks();
        self.at == self.line.len()
    }

    fn peek(&self) -> Option<char> {
        self.line[self.at..].chars().next()
    }

    fn name(&mut self) -> Result<&'a str, ParseError> {
        self.skip_blanks();
        let start = self.at;
        while let Some(c) = self.peek().filter(|&c| is_name_char(c)) {
            self.at += c.len_utf8();
        }
        if self.at == start {
            let at = self.line[..start].chars().count();
            return Err(ParseErrorKind::ExpectedName { at }.into());
        }
        Ok(&self.line[start..self.at])
    }

    fn argument(&mut self) -> Result<Argument<'a>, ParseError> {
        let name = self.name()?;
        self.skip_blanks();
        if self.peek() != Some('=') {
            return Ok(Argument { name, value: None });
        }
        self.at += 1;
        self.skip_blanks();
        if self.peek() != Some('"') {
            let value = self.name()?;
            return Ok(Argument {
                name,
                value: Some(value),
            });
        }
        self.at += 1;
        let Some(length) = self.line[self.at..].find('"') else {
            return Err(ParseErrorKind::UnclosedQuote {
                argument: name.to_owned(),
            }
            .into());
        };
        let value = &self.line[self.at..self.at + length];
        self.at += length + 1;
        Ok(Argument {
            name,
            value: Some(value),
        })
    }
}

/// The words of a quoted list (moves, a line): blanks and control characters both separate
/// them, so that no word holds a character that [`Pair`] would write as a blank.
fn words(list: &str) -> Vec<String> {
    list.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

fn is_name_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

/// Writes ` name=value`, quoting the value when it is not a plain name. The protocol has no
/// escape for a quote inside a quoted value, so one becomes `'`, and control characters
/// become spaces: a reply is always one line that a GUI can read.
struct Pair<'a>(&'a str, &'a str);

impl fmt::Display for Pair<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Pair(name, value) = *self;
        if !value.is_empty() && value.chars().all(is_name_char) {
            return write!(f, " {name}={value}");
        }
        let value: String = value
            .chars()
            .map(|c| match c {
                '"' => '\'',
                c if c.is_control() => ' ',
                c => c,
            })
            .collect();
        write!(f, " {name}=\"{value}\"")
    }
}

impl fmt::Display for Command {
    /// The line a GUI sends (without its line end). Times are written exactly, so that the
    /// engine reads back the number given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hub => f.write_str("hub"),
            Command::SetParam { name, value } => {
                write!(f, "set-param{}{}", Pair("name", name), Pair("value", value))
            }
            Command::Init => f.write_str("init"),
            Command::Pos { position, moves } => {
                f.write_str("pos")?;
                match position {
                    Some(position) => write!(f, "{}", Pair("pos", position))?,
                    None => f.write_str(" start")?,
                }
                if !moves.is_empty() {
                    write!(f, "{}", Pair("moves", &moves.join(" ")))?;
                }
                Ok(())
            }
            Command::Level(level) => {
                f.write_str("level")?;
                let numbers = [
                    ("depth", level.depth.map(|n| n.to_string())),
                    ("nodes", level.nodes.map(|n| n.to_string())),
                    ("move-time", level.move_time.map(|s| s.to_string())),
                    ("time", level.time.map(|s| s.to_string())),
                    ("inc", level.inc.map(|s| s.to_string())),
                    ("moves", level.moves.map(|n| n.to_string())),
                ];
                for (name, value) in numbers {
                    if let Some(value) = value {
                        write!(f, "{}", Pair(name, &value))?;
                    }
                }
                if level.infinite {
                    f.write_str(" infinite")?;
                }
                Ok(())
            }
            Command::Go(mode) => f.write_str(match mode {
                GoMode::Think => "go think",
                GoMode::Ponder => "go ponder",
                GoMode::Analyze => "go analyze",
            }),
            Command::PonderHit => f.write_str("ponder-hit"),
            Command::Stop => f.write_str("stop"),
            Command::NewGame => f.write_str("new-game"),
            Command::Ping => f.write_str("ping"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id {
                name,
                version,
                author,
            } => write!(
                f,
                "id{}{}{}",
                Pair("name", name),
                Pair("version", version),
                Pair("author", author)
            ),
            Reply::EnumParam {
                name,
                value,
                values,
            } => write!(
                f,
                "param{}{}{}{}",
                Pair("name", name),
                Pair("value", value),
                Pair("type", "enum"),
                Pair("values", &values.join(" "))
            ),
            Reply::IntParam {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "param{}{}{}{}{}",
                Pair("name", name),
                Pair("value", &value.to_string()),
                Pair("type", "int"),
                Pair("min", &min.to_string()),
                Pair("max", &max.to_string())
            ),
            Reply::OtherParam { name, value, kind } => write!(
                f,
                "param{}{}{}",
                Pair("name", name),
                Pair("value", value),
                Pair("type", kind)
            ),
            Reply::Wait => f.write_str("wait"),
            Reply::Ready => f.write_str("ready"),
            Reply::Info(info) => {
                f.write_str("info")?;
                if let Some(depth) = info.depth {
                    write!(f, "{}", Pair("depth", &depth.to_string()))?;
                }
                if let Some(score) = info.score {
                    write!(f, "{}", Pair("score", &format!("{score:.2}")))?;
                }
                write!(
                    f,
                    "{}{}{}{}",
                    Pair("nodes", &info.nodes.to_string()),
                    Pair("time", &format!("{:.3}", info.time)),
                    Pair("nps", &format!("{:.3}", info.nps)),
                    Pair("pv", &info.pv.join(" "))
                )
            }
            Reply::Done { mv, ponder } => {
                f.write_str("done")?;
                if let Some(mv) = mv {
                    write!(f, "{}", Pair("move", mv))?;
                }
                if let Some(ponder) = ponder {
                    write!(f, "{}", Pair("ponder", ponder))?;
                }
                Ok(())
            }
            Reply::Pong => f.write_str("pong"),
            Reply::Error(message) => write!(f, "error{}", Pair("message", message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_examples_reads_them() {
        assert_eq!(
            parse(
                r#"pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee moves="38-15 5-41 48-26""#
            ),
            Ok(Command::Pos {
                position: Some("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee".to_owned()),
                moves: vec!["38-15".to_owned(), "5-41".to_owned(), "48-26".to_owned()],
            })
        );
        assert_eq!(
            parse("level moves=9 time=291.587"),
            Ok(Command::Level(Level {
                moves: Some(9),
                time: Some(291.587),
                ..Level::default()
            }))
        );
        assert_eq!(parse("go ponder"), Ok(Command::Go(GoMode::Ponder)));
        assert_eq!(
            parse("set-param name=variant value=russian"),
            Ok(Command::SetParam {
                name: "variant".to_owned(),
                value: "russian".to_owned()
            })
        );
    }

    #[test]
    fn unknown_arguments_are_ignored_and_unknown_commands_refused() {
        assert_eq!(parse("go think now=yes"), Ok(Command::Go(GoMode::Think)));
        assert_eq!(
            parse("dance").unwrap_err().to_string(),
            "unknown command dance"
        );
        assert_eq!(parse("   ").unwrap_err().kind, ParseErrorKind::Empty);
        assert_eq!(
            parse("level time=-1").unwrap_err().to_string(),
            "time must be a non-negative number, not -1"
        );
        assert_eq!(
            parse(r#"pos moves="1-2"#).unwrap_err().to_string(),
            "the value of moves has no closing quote"
        );
    }

    #[test]
    fn scans_replies_read_as_a_client_sees_them() {
        assert_eq!(
            parse_reply(r#"id name=Scan version=3.1 author="Fabien Letouzey" country=France"#),
            Ok(Reply::Id {
                name: "Scan".to_owned(),
                version: "3.1".to_owned(),
                author: "Fabien Letouzey".to_owned(),
            })
        );
        assert_eq!(
            parse_reply("param name=book value=true type=bool"),
            Ok(Reply::OtherParam {
                name: "book".to_owned(),
                value: "true".to_owned(),
                kind: "bool".to_owned(),
            })
        );
        assert_eq!(
            parse_reply(r#"info depth=12 score=-0.25 nodes=1000 time=0.5 pv="32-28 19-23""#),
            Ok(Reply::Info(Info {
                depth: Some(12),
                score: Some(-0.25),
                nodes: 1000,
                time: 0.5,
                nps: 0.0,
                pv: vec!["32-28".to_owned(), "19-23".to_owned()],
            }))
        );
        assert_eq!(
            parse_reply("done move=32x21x27 ponder=16-21"),
            Ok(Reply::Done {
                mv: Some("32x21x27".to_owned()),
                ponder: Some("16-21".to_owned())
            })
        );
        assert_eq!(
            parse_reply("done"),
            Ok(Reply::Done {
                mv: None,
                ponder: None
            })
        );
        assert_eq!(
            parse_reply("bestmove 32-28").unwrap_err().to_string(),
            "unknown reply bestmove"
        );
        assert_eq!(
            parse_reply("param name=x value=y type=int min=1 max=9")
                .unwrap_err()
                .to_string(),
            "value of an int parameter must be a whole number, not y"
        );
    }

    #[test]
    fn control_characters_separate_moves_like_blanks() {
        // A GUI's stray NUL must not glue two moves into one word that would be written back
        // as two (found by the hub_line fuzz target).
        assert_eq!(
            parse("pos start moves=\"32-28\x00\x0019-23\"").unwrap(),
            Command::Pos {
                position: None,
                moves: vec!["32-28".to_owned(), "19-23".to_owned()],
            }
        );
    }

    #[test]
    fn commands_are_written_as_scan_reads_them() {
        assert_eq!(
            Command::Pos {
                position: None,
                moves: vec!["32-28".to_owned(), "19-23".to_owned()],
            }
            .to_string(),
            r#"pos start moves="32-28 19-23""#
        );
        assert_eq!(
            Command::Level(Level {
                move_time: Some(0.25),
                ..Level::default()
            })
            .to_string(),
            "level move-time=0.25"
        );
        assert_eq!(Command::Go(GoMode::Think).to_string(), "go think");
    }

    #[test]
    fn replies_quote_what_needs_it_and_stay_one_line() {
        assert_eq!(
            Reply::Done {
                mv: Some("32x21x27".to_owned()),
                ponder: None
            }
            .to_string(),
            "done move=32x21x27"
        );
        assert_eq!(
            Reply::Error("bad \"x\"\nnext".to_owned()).to_string(),
            "error message=\"bad 'x' next\""
        );
        assert_eq!(
            Reply::EnumParam {
                name: "variant".to_owned(),
                value: "russian".to_owned(),
                values: vec!["russian".to_owned(), "pool".to_owned()],
            }
            .to_string(),
            "param name=variant value=russian type=enum values=\"russian pool\""
        );
    }
}
