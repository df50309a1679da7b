//! What the speaker plays for one request: a pack's line, then the clips of an explanation.

use std::path::PathBuf;
use std::time::Duration;

use speech::Gap;

use crate::line::Line;

/// The silence before a word inside a phrase, after a comma or colon, and between sentences.
/// The fragments are rendered with their silence trimmed, so these are all the gaps there are:
/// short enough that the words read as one sentence, long enough that they do not run into
/// each other.
const WORD_GAP: Duration = Duration::from_millis(60);
const COMMA_GAP: Duration = Duration::from_millis(200);
const SENTENCE_GAP: Duration = Duration::from_millis(350);

/// The silence a gap stands for.
pub fn gap_length(gap: Gap) -> Duration {
    match gap {
        Gap::Word => WORD_GAP,
        Gap::Comma => COMMA_GAP,
        Gap::Sentence => SENTENCE_GAP,
    }
}

/// One audio file of an explanation and the silence before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clip {
    /// The fragment's recording.
    pub audio: PathBuf,
    /// Silence played before it.
    pub silence_before: Duration,
}

/// A line, and what follows it without a pause longer than a sentence's.
#[derive(Debug, Clone, PartialEq)]
pub struct Saying {
    /// The line from the pack: what the reports name.
    pub line: Line,
    /// The explanation's fragments, in order; empty for a plain line.
    pub clips: Vec<Clip>,
}

impl From<&Line> for Saying {
    fn from(line: &Line) -> Saying {
        Saying {
            line: line.clone(),
            clips: Vec::new(),
        }
    }
}

impl Saying {
    /// `line` followed by the words of `explanation`, each said by the file `audio` gives.
    pub fn explained(
        line: Line,
        explanation: &speech::Utterance,
        audio: impl Fn(&speech::FragmentId) -> PathBuf,
    ) -> Saying {
        let mut before = SENTENCE_GAP;
        let clips = explanation
            .words
            .iter()
            .map(|word| {
                let clip = Clip {
                    audio: audio(&word.fragment),
                    silence_before: before,
                };
                before = gap_length(word.gap);
                clip
            })
            .collect();
        Saying { line, clips }
    }
}
