//! `play.engine`: another draughts program that plays the robot's moves, and how to reach it.
//!
//! Written `hub:COMMAND ARGS` for an engine that speaks the Hub protocol on its standard input
//! and output (Scan, `checkerbot hub`). The command is split into words at blanks; a word with
//! blanks in it is written in double quotes (`hub:"/opt/my engine/scan" hub`). The program is
//! looked for on `PATH` unless the word holds a `/`. Written `dxp:HOST:PORT` for an engine that
//! listens for DXP (`DamExchange`) games on a TCP port; DXP plays International only. A kind this
//! build does not drive is refused with what it does drive.

use std::fmt;

/// An external engine, as `play.engine` (and `checkerbot-lab match`'s `hub:` and `dxp:`
/// players) name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    /// A program that speaks Hub on stdin and stdout: the program and its arguments.
    Hub {
        /// The program, then its arguments; never empty.
        command: Vec<String>,
    },
    /// An engine that listens for DXP games (International only): where to connect.
    Dxp {
        /// A host name or an IP address (an IPv6 one without its brackets).
        host: String,
        /// The TCP port, never 0.
        port: u16,
    },
}

/// Why a text is not an engine; each says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    /// No `kind:` at the start.
    #[error(
        "names no protocol; write \"hub:COMMAND ARGS\", such as \"hub:scan hub\", or \"dxp:HOST:PORT\""
    )]
    NoKind,
    /// A protocol this build cannot drive.
    #[error(
        "{0}: is not a protocol this build drives; write \"hub:COMMAND ARGS\" or \"dxp:HOST:PORT\""
    )]
    UnknownKind(String),
    /// `dxp:` without `HOST:PORT`.
    #[error(
        "names no port after dxp:HOST; write the host and the port, such as \"dxp:127.0.0.1:27531\""
    )]
    NoPort,
    /// A port that is not a number from 1 to 65535.
    #[error("has the port {0:?}, which is not a number from 1 to 65535")]
    BadPort(String),
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
    /// Reads `hub:COMMAND ARGS` or `dxp:HOST:PORT`.
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
            "dxp" => {
                let (host, port) = rest
                    .trim()
                    .rsplit_once(':')
                    .ok_or(EngineSpecError::NoPort)?;
                // An IPv6 address is written in brackets, as in a URL: `dxp:[::1]:27531`.
                let host = host
                    .strip_prefix('[')
                    .and_then(|inner| inner.strip_suffix(']'))
                    .unwrap_or(host);
                if host.is_empty() {
                    return Err(EngineSpecError::NoPort);
                }
                let port = port
                    .parse::<u16>()
                    .ok()
                    .filter(|&port| port != 0)
                    .ok_or_else(|| EngineSpecError::BadPort(port.to_owned()))?;
                Ok(EngineSpec::Dxp {
                    host: host.to_owned(),
                    port,
                })
            }
            other => Err(EngineSpecError::UnknownKind(other.to_owned())),
        }
    }

    /// A short name for logs and faults: the program's file name (`hub:scan`,
    /// `hub:checkerbot`), or the script's after an interpreter (`hub:my_engine.py` for
    /// `hub:python3 my_engine.py`); a DXP engine's address (`dxp:127.0.0.1:27531`).
    pub fn program_name(&self) -> String {
        match self {
            EngineSpec::Dxp { .. } => self.to_string(),
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
            EngineSpec::Dxp { host, port } if host.contains(':') => {
                write!(f, "dxp:[{host}]:{port}")
            }
            EngineSpec::Dxp { host, port } => write!(f, "dxp:{host}:{port}"),
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
        let dxp = EngineSpec::parse("dxp:127.0.0.1:27531").unwrap();
        assert_eq!(dxp.to_string(), "dxp:127.0.0.1:27531");
        assert_eq!(dxp.program_name(), "dxp:127.0.0.1:27531");
        let v6 = EngineSpec::parse("dxp:[::1]:27531").unwrap();
        assert_eq!(
            v6,
            EngineSpec::Dxp {
                host: "::1".to_owned(),
                port: 27531
            }
        );
        assert_eq!(EngineSpec::parse(&v6.to_string()), Ok(v6));
        assert_eq!(
            EngineSpec::parse("dxp:localhost"),
            Err(EngineSpecError::NoPort)
        );
        assert_eq!(
            EngineSpec::parse("dxp:localhost:0"),
            Err(EngineSpecError::BadPort("0".to_owned()))
        );
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
