//! A spoken sentence as words with audio, and its text.

use std::fmt;

/// The name of a recorded piece of speech, the same in every language: `square.f4`,
/// `piece_missing.one`, `and`. The `sounds` crate finds its audio at
/// `fragments/<attitude>/<id>.ogg` in a language's pack, or an operator's recording by the
/// same name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FragmentId(String);

impl FragmentId {
    pub(crate) fn new(id: String) -> FragmentId {
        FragmentId(id)
    }

    /// The id as written in file names and the fragment catalogue.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FragmentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The silence after a word: none to speak of inside a phrase, a short one at a comma or
/// colon, a longer one between sentences. The player picks the lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gap {
    /// Between words.
    Word,
    /// After a comma, colon or dash.
    Comma,
    /// After a full stop, question or exclamation mark.
    Sentence,
}

impl Gap {
    /// The gap that the punctuation ending `text` calls for.
    pub(crate) fn after(text: &str) -> Gap {
        match text.trim_end().chars().last() {
            Some('.' | '?' | '!') => Gap::Sentence,
            Some(',' | ':' | ';' | '—') => Gap::Comma,
            _ => Gap::Word,
        }
    }
}

/// One spoken unit: a phrase or a square name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The recording that says it.
    pub fragment: FragmentId,
    /// What it says, with the punctuation after it: `"f4,"`, `"Please put a piece on square"`.
    pub text: String,
    /// The silence after it.
    pub gap: Gap,
}

/// A sentence or a few, ready to be shown and said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Utterance {
    /// In the order said.
    pub words: Vec<Word>,
}

impl Utterance {
    /// Whether there is nothing to say.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The text, as the event log and the operator page show it.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.words.iter().map(|w| w.text.as_str()).collect();
        texts.join(" ")
    }

    /// This utterance followed by `next`: the host joins a lesson and an offer this way.
    pub fn extend(&mut self, next: Utterance) {
        self.words.extend(next.words);
    }

    /// Appends punctuation to the last word (the text only: punctuation has no audio) and
    /// sets the gap it calls for.
    pub(crate) fn punctuate(&mut self, punctuation: &str) {
        if let Some(last) = self.words.last_mut() {
            last.text.push_str(punctuation);
            last.gap = Gap::after(&last.text);
        }
    }
}

impl fmt::Display for Utterance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
