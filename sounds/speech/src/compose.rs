//! Sentences from phrases: a pattern's slots filled with squares, lists and captures.

use emotions::Language;
use rules::{Move, Square, Variant};

use crate::language;
use crate::square_words::square_word;
use crate::utterance::{FragmentId, Gap, Utterance, Word};
use crate::vocabulary::{Connective, Phrase};

/// What fills a slot.
pub(crate) enum Filler<'a> {
    /// `{from}`, `{to}`, `{square}`.
    Square(Square),
    /// `{squares}`: "f4", "f4 and e5", "c5, d6 and e7".
    Squares(&'a [Square]),
    /// `{capture}`: "from square c3 over d4".
    Capture(&'a Move),
    /// `{route}`: "from square c3 to square e5", captures or not.
    Route(&'a Move),
    /// `{captures}`: captures joined with "or".
    Captures(&'a [Move]),
}

/// A piece of a phrase's pattern: words to say, or a slot.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Segment<'a> {
    Text(&'a str),
    Slot(&'a str),
}

/// Splits a pattern at its `{slot}`s.
pub(crate) fn segments(pattern: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .map(|i| open + i)
            .expect("phrase patterns close their slots");
        if open > 0 {
            out.push(Segment::Text(&rest[..open]));
        }
        out.push(Segment::Slot(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Segment::Text(rest));
    }
    out
}

/// A text segment split into the punctuation that belongs to the word before it and the
/// words to say (`None` when it is punctuation only).
pub(crate) fn split_leading_punctuation(text: &str) -> (&str, Option<&str>) {
    match text.find(char::is_alphanumeric) {
        Some(start) => (text[..start].trim_end(), Some(text[start..].trim())),
        None => (text.trim_end(), None),
    }
}

/// The id of a phrase's `n`th spoken text segment (from 1): the phrase's id, then `.2`, `.3`.
pub(crate) fn segment_id(phrase: Phrase, n: usize) -> FragmentId {
    if n == 1 {
        FragmentId::new(phrase.id())
    } else {
        FragmentId::new(format!("{}.{n}", phrase.id()))
    }
}

/// Says `phrase` in `language` with its slots filled.
pub(crate) fn say(
    language: Language,
    variant: Variant,
    phrase: Phrase,
    fillers: &[(&str, Filler<'_>)],
) -> Utterance {
    let table = language::table(language);
    let pattern = (table.phrase)(phrase);
    let mut out = Utterance::default();
    let mut spoken = 0;
    for segment in segments(pattern) {
        match segment {
            Segment::Text(text) => {
                let (punctuation, words) = split_leading_punctuation(text);
                if !punctuation.is_empty() {
                    out.punctuate(punctuation);
                }
                if let Some(words) = words {
                    spoken += 1;
                    out.words.push(Word {
                        fragment: segment_id(phrase, spoken),
                        text: words.to_owned(),
                        gap: Gap::after(words),
                    });
                }
            }
            Segment::Slot(name) => {
                let Some((_, filler)) = fillers.iter().find(|(slot, _)| *slot == name) else {
                    panic!("{} has no filler for {{{name}}}", phrase.id());
                };
                out.extend(fill(language, variant, filler));
            }
        }
    }
    out
}

fn fill(language: Language, variant: Variant, filler: &Filler<'_>) -> Utterance {
    match filler {
        Filler::Square(square) => square_utterance(variant, *square),
        Filler::Squares(squares) => joined(
            language,
            squares.iter().map(|&sq| square_utterance(variant, sq)),
            Connective::And,
        ),
        Filler::Capture(mv) => move_utterance(language, variant, mv),
        Filler::Route(mv) => route_utterance(language, variant, mv),
        Filler::Captures(moves) => joined(
            language,
            moves.iter().map(|mv| move_utterance(language, variant, mv)),
            Connective::Or,
        ),
    }
}

fn square_utterance(variant: Variant, square: Square) -> Utterance {
    let name = rules::notation::square_name(variant, square);
    Utterance {
        words: vec![Word {
            fragment: square_word(&name),
            text: name,
            gap: Gap::Word,
        }],
    }
}

/// "from square c3 over d4 and f6" for a capture, "from square c3 to square d4" otherwise.
fn move_utterance(language: Language, variant: Variant, mv: &Move) -> Utterance {
    let mut out = connective(language, Connective::From);
    out.extend(square_utterance(variant, mv.from()));
    if mv.is_capture() {
        out.extend(connective(language, Connective::Over));
        let captured = mv.captures_in_order(variant.geometry());
        out.extend(joined(
            language,
            captured.iter().map(|&sq| square_utterance(variant, sq)),
            Connective::And,
        ));
    } else {
        out.extend(connective(language, Connective::To));
        out.extend(square_utterance(variant, mv.to()));
    }
    out
}

/// "from square c3 to square e5".
fn route_utterance(language: Language, variant: Variant, mv: &Move) -> Utterance {
    let mut out = connective(language, Connective::From);
    out.extend(square_utterance(variant, mv.from()));
    out.extend(connective(language, Connective::To));
    out.extend(square_utterance(variant, mv.to()));
    out
}

fn connective(language: Language, connective: Connective) -> Utterance {
    let table = language::table(language);
    Utterance {
        words: vec![Word {
            fragment: connective.id(),
            text: (table.connective)(connective).to_owned(),
            gap: Gap::Word,
        }],
    }
}

/// "a", "a and b", "a, b and c" (or "or" for `conjunction`).
fn joined(
    language: Language,
    items: impl ExactSizeIterator<Item = Utterance>,
    conjunction: Connective,
) -> Utterance {
    let count = items.len();
    let mut out = Utterance::default();
    for (i, item) in items.enumerate() {
        if i > 0 && i + 1 == count {
            out.extend(connective(language, conjunction));
        } else if i > 0 {
            out.punctuate(",");
        }
        out.extend(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every language fills a phrase's slots with the same fillers as English does: a
    /// translation that drops or misspells a slot would panic when said.
    #[test]
    fn every_translation_has_the_english_slots() {
        let slots = |language, phrase| -> Vec<String> {
            let mut names: Vec<String> = segments((language::table(language).phrase)(phrase))
                .into_iter()
                .filter_map(|s| match s {
                    Segment::Slot(name) => Some(name.to_owned()),
                    Segment::Text(_) => None,
                })
                .collect();
            names.sort();
            names
        };
        for phrase in Phrase::all() {
            let english = slots(Language::English, phrase);
            for language in Language::ALL {
                assert_eq!(
                    slots(language, phrase),
                    english,
                    "{language} {}",
                    phrase.id()
                );
            }
        }
    }

    #[test]
    fn patterns_split_at_slots_and_punctuation_goes_to_the_word_before() {
        assert_eq!(
            segments("On {a}, then {b}."),
            [
                Segment::Text("On "),
                Segment::Slot("a"),
                Segment::Text(", then "),
                Segment::Slot("b"),
                Segment::Text("."),
            ]
        );
        assert_eq!(split_leading_punctuation(", then "), (",", Some("then")));
        assert_eq!(split_leading_punctuation(" — моя."), (" —", Some("моя.")));
        assert_eq!(split_leading_punctuation("."), (".", None));
    }
}
