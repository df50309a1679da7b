//! `play.engine`: another draughts program that plays the robot's moves, and how to reach it.
//!
//! Written `hub:COMMAND ARGS` for an engine that speaks the Hub protocol on its standard input
//! and output (Scan, `checkerbot hub`). The command is split into words at blanks; a word with
//! blanks in it is written in double quotes (`hub:"/opt/my engine/scan" hub`). The program is
//! looked for on `PATH` unless the word holds a `/`. Other protocols (DXP) are further kinds of
//! [`EngineSpec`]; a kind this build does not drive is refused with what it does drive.

use std::fmt;

/// An external engine, as `play.engine` (and `checkerbot-lab match`'s `hub:` players) name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    /// A program that speaks Hub on stdin and stdout: the program and its arguments.
    Hub {
        /// The program, then its arguments; never empty.
        command: Vec<String>,
    },
}

/// Why a text is not an engine; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    /// No `kind:` at the start.
    #[error("names no protocol; write \"hub:COMMAND ARGS\", such as \"hub:scan hub\"")]
    NoKind,
    /// A protocol this build cannot drive.
    #[error("{0}: is not a protocol this build drives; write \"hub:COMMAND ARGS\"")]
    UnknownKind(String),
    /// `hub:` and nothing else.
    #[error(
        "names no command after hub:; write the program and its arguments, such as \"hub:scan hub\""
    )]
    NoCommand,
    /// A double quote without its closing one.
    #[error("has a double quote without its closing one")]
    UnclosedQuote,
}

impl EngineSpec {
    /// Reads `hub:COMMAND ARGS`.
    pub fn parse(text: &str) -> Result<EngineSpec, EngineSpecError> {
        let (kind, rest) = text.trim().split_once(':').ok_or(EngineSpecError::NoKind)?;
        match kind {
            "hub" => {
                let command = words(rest)?;
                if command.is_empty() {
                    return Err(EngineSpecError::NoCommand);
                }
                Ok(EngineSpec::Hub { command })
            }
            other => Err(EngineSpecError::UnknownKind(other.to_owned())),
        }
    }

    /// A short name for logs and faults: the program's file name (`hub:scan`,
    /// `hub:checkerbot`), or the script's after an interpreter (`hub:my_engine.py` for
    /// `hub:python3 my_engine.py`).
    pub fn program_name(&self) -> String {
        match self {
            EngineSpec::Hub { command } => {
                let file = |word: &str| word.rsplit('/').next().unwrap_or(word).to_owned();
                let program = file(&command[0]);
                let interpreter = ["python", "python3", "sh", "bash", "node", "perl", "env"]
                    .contains(&program.as_str());
                let script = command[1..].iter().find(|word| !word.starts_with('-'));
                match script {
                    Some(script) if interpreter => format!("hub:{}", file(script)),
                    _ => format!("hub:{program}"),
                }
            }
        }
    }
}

/// Words separated by blanks, a double-quoted run being one word (quotes removed).
fn words(text: &str) -> Result<Vec<String>, EngineSpecError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(EngineSpecError::UnclosedQuote);
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl fmt::Display for EngineSpec {
    /// The text [`EngineSpec::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpec::Hub { command } => {
                f.write_str("hub:")?;
                for (i, word) in command.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    if word.is_empty() || word.contains(char::is_whitespace) {
                        write!(f, "\"{word}\"")?;
                    } else {
                        f.write_str(word)?;
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_commands_split_into_words_and_print_back() {
        let spec = EngineSpec::parse(r#"hub:"/opt/my engine/scan" hub  --fast"#).unwrap();
        assert_eq!(
            spec,
            EngineSpec::Hub {
                command: vec!["/opt/my engine/scan".into(), "hub".into(), "--fast".into()]
            }
        );
        assert_eq!(spec.program_name(), "hub:scan");
        assert_eq!(EngineSpec::parse(&spec.to_string()), Ok(spec));
        assert_eq!(
            EngineSpec::parse("hub:python3 -u tests/engines/hub_proxy.py crash 2")
                .unwrap()
                .program_name(),
            "hub:hub_proxy.py"
        );
        assert_eq!(
            EngineSpec::parse("hub:checkerbot hub")
                .unwrap()
                .program_name(),
            "hub:checkerbot"
        );
    }

    #[test]
    fn bad_engines_say_what_to_write() {
        assert_eq!(EngineSpec::parse("scan"), Err(EngineSpecError::NoKind));
        assert_eq!(EngineSpec::parse("hub:  "), Err(EngineSpecError::NoCommand));
        assert_eq!(
            EngineSpec::parse("uci:stockfish"),
            Err(EngineSpecError::UnknownKind("uci".into()))
        );
        assert_eq!(
            EngineSpec::parse("hub:\"scan"),
            Err(EngineSpecError::UnclosedQuote)
        );
    }
}
