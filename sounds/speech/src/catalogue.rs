//! Every fragment a language can need: what `sounds/render-packs` renders and an operator
//! may replace with a recording.

use emotions::Language;

use crate::compose::{Segment, segment_id, segments, split_leading_punctuation};
use crate::language;
use crate::square_words::{all_square_names, spoken_square, square_word};
use crate::utterance::FragmentId;
use crate::vocabulary::{Connective, Phrase};

/// One recording to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// Its name.
    pub id: FragmentId,
    /// What it says, as shown.
    pub text: String,
    /// What the speech synthesiser is given: the text, except that square names spell their
    /// letter the language's way ("эф 4" for f4 in Russian).
    pub spoken: String,
}

/// Every fragment of `language`: the phrases' spoken segments, the connectives, then every
/// square name of every board.
pub fn fragments(language: Language) -> Vec<Fragment> {
    let table = language::table(language);
    let mut out = Vec::new();
    for phrase in Phrase::all() {
        let mut spoken = 0;
        for segment in segments((table.phrase)(phrase)) {
            if let Segment::Text(text) = segment
                && let (_, Some(words)) = split_leading_punctuation(text)
            {
                spoken += 1;
                out.push(Fragment {
                    id: segment_id(phrase, spoken),
                    text: words.to_owned(),
                    spoken: words.to_owned(),
                });
            }
        }
    }
    for connective in Connective::ALL {
        let text = (table.connective)(connective).to_owned();
        out.push(Fragment {
            id: connective.id(),
            spoken: text.clone(),
            text,
        });
    }
    for name in all_square_names() {
        out.push(Fragment {
            id: square_word(&name),
            spoken: spoken_square(table, &name),
            text: name,
        });
    }
    out
}
