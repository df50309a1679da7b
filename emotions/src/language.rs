//! The languages the robot speaks. They live here, with the categories of what it says, so
//! the game host (which knows no audio) can name the language in its events and texts; the
//! `sounds` crate re-exports them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A language with a voice pack. The names are the ISO 639-1 codes the packs' directories and
/// espeak-ng use.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Language {
    /// English: the fallback for a line a pack lacks, since every pack is translated from it.
    #[default]
    #[serde(rename = "en")]
    English,
    /// Russian.
    #[serde(rename = "ru")]
    Russian,
    /// Ukrainian.
    #[serde(rename = "uk")]
    Ukrainian,
}

impl Language {
    /// Every language with a pack (each loaded by the `sounds` crate's `Library::load`).
    pub const ALL: [Language; 3] = [Language::English, Language::Russian, Language::Ukrainian];

    /// The code naming the pack directory and used in settings.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
            Language::Ukrainian => "uk",
        }
    }
}

/// A language code without a pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected en, ru or uk")]
pub struct UnknownLanguage(pub String);

impl FromStr for Language {
    type Err = UnknownLanguage;

    /// Reads a language by its code (`ru`), as settings and command lines name it.
    fn from_str(code: &str) -> Result<Language, UnknownLanguage> {
        Language::ALL
            .into_iter()
            .find(|l| l.code() == code)
            .ok_or_else(|| UnknownLanguage(code.to_owned()))
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
