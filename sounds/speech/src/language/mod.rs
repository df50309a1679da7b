//! Each language's words: its phrases, connectives and letter names, one file per language so
//! a translator reads one page.

mod english;
mod russian;
mod ukrainian;

use emotions::Language;

use crate::vocabulary::{Connective, Phrase};

/// What a language says.
pub(crate) struct Table {
    /// The pattern of each phrase.
    pub(crate) phrase: fn(Phrase) -> &'static str,
    /// The joining words.
    pub(crate) connective: fn(Connective) -> &'static str,
    /// How a file letter of a square name is said (`f` is "ef" in English, «эф» in Russian),
    /// for the voice renderer: espeak-ng reads a lone Latin letter in a Russian sentence
    /// with English sounds.
    pub(crate) letter: fn(char) -> &'static str,
}

pub(crate) fn table(language: Language) -> &'static Table {
    match language {
        Language::English => &english::TABLE,
        Language::Russian => &russian::TABLE,
        Language::Ukrainian => &ukrainian::TABLE,
    }
}
