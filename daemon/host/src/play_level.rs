//! `play.level`: a fixed level, or `"adaptive"`.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How the robot's strength is chosen: written `level = 3` or `level = "adaptive"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayLevel {
    /// One of the levels, 1 (gentle, for small children) to 5 (as strong as the machine
    /// allows); the settings' validation checks the range.
    Fixed(u8),
    /// The robot chooses its strength move by move to keep the visitor's expected score near
    /// `play.adaptive_target`.
    Adaptive,
}

/// What `play.level` accepts as a value in a file, in the operator's words (the range of the
/// number is checked, and explained, with the other ranges).
const PLAY_LEVEL_FORMS: &str = "a whole number or \"adaptive\"";

impl PlayLevel {
    /// The fixed levels there are: 1 (gentle) to 5 (strongest).
    pub const FIXED: std::ops::RangeInclusive<u8> = 1..=5;

    /// The fixed level, if it is one.
    pub fn fixed(self) -> Option<u8> {
        match self {
            PlayLevel::Fixed(level) => Some(level),
            PlayLevel::Adaptive => None,
        }
    }
}

impl fmt::Display for PlayLevel {
    /// `3` or `adaptive`, as the operator writes it on the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayLevel::Fixed(level) => write!(f, "{level}"),
            PlayLevel::Adaptive => f.write_str("adaptive"),
        }
    }
}

/// A `play.level` written on a command line that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a level: expected 1 (gentle) to 5 (strongest), or \"adaptive\"")]
pub struct PlayLevelError {
    /// What was written.
    pub text: String,
}

impl FromStr for PlayLevel {
    type Err = PlayLevelError;
    /// `1`..`5` or `adaptive` (a command line's `--level`).
    fn from_str(text: &str) -> Result<PlayLevel, PlayLevelError> {
        match text.trim() {
            "adaptive" => Ok(PlayLevel::Adaptive),
            number => match number.parse() {
                Ok(level) if PlayLevel::FIXED.contains(&level) => Ok(PlayLevel::Fixed(level)),
                _ => Err(PlayLevelError {
                    text: text.to_owned(),
                }),
            },
        }
    }
}

impl Serialize for PlayLevel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PlayLevel::Fixed(level) => s.serialize_u8(*level),
            PlayLevel::Adaptive => s.serialize_str("adaptive"),
        }
    }
}

impl<'de> Deserialize<'de> for PlayLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PlayLevel, D::Error> {
        d.deserialize_any(PlayLevelVisitor)
    }
}

/// Reads a whole number (checked for its range later, with the other ranges) or `"adaptive"`.
struct PlayLevelVisitor;

impl Visitor<'_> for PlayLevelVisitor {
    type Value = PlayLevel;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PLAY_LEVEL_FORMS)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<PlayLevel, E> {
        u8::try_from(value)
            .map(PlayLevel::Fixed)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(value), &self))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<PlayLevel, E> {
        u8::try_from(value)
            .map(PlayLevel::Fixed)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<PlayLevel, E> {
        // An environment variable's number arrives as text when it is not parsed first.
        match value {
            "adaptive" => Ok(PlayLevel::Adaptive),
            _ => match value.parse::<u8>() {
                Ok(level) => Ok(PlayLevel::Fixed(level)),
                Err(_) => Err(E::invalid_value(de::Unexpected::Str(value), &self)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PlayLevel;

    #[test]
    fn command_line_forms_parse_and_print_back() {
        for text in ["1", "5", "adaptive"] {
            assert_eq!(text.parse::<PlayLevel>().unwrap().to_string(), text);
        }
        for bad in ["0", "6", "Adaptive", "three", ""] {
            let err = bad.parse::<PlayLevel>().unwrap_err().to_string();
            assert!(err.contains("\"adaptive\""), "{err}");
        }
    }
}
