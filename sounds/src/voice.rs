//! The robot's voice: from the emotion model's line requests to sound and the event log.

use emotions::{Language, LineRequest};
use speech::Utterance;

use crate::chooser::LineChooser;
use crate::library::Library;
use crate::line::Line;
use crate::saying::Saying;
use crate::settings::SoundSettings;
use crate::speaker::Speaker;

/// What the robot said for one request, for the event log.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    /// The pack's line chosen.
    pub line: Line,
    /// Everything said: the line's text, then the explanation's.
    pub text: String,
}

/// Chooses a phrasing for each [`LineRequest`] in the configured language and hands it to the
/// speaker. The chosen line is returned so the host logs it whether or not it is heard.
#[derive(Debug)]
pub struct Voice {
    library: Library,
    chooser: LineChooser,
    speaker: Speaker,
    language: Language,
}

impl Voice {
    /// A voice speaking `library`'s lines through `speaker` as `settings` say; `seed` makes the
    /// choice of phrasings replayable.
    pub fn new(library: Library, speaker: Speaker, settings: &SoundSettings, seed: u64) -> Voice {
        speaker.set_volume(settings.volume);
        Voice {
            library,
            chooser: LineChooser::new(settings.no_repeat, seed),
            speaker,
            language: settings.language,
        }
    }

    /// Chooses a line for `request`, starts saying it, followed by `explanation` (which the
    /// caller composed in this voice's language) in the same voice, and returns what was said
    /// for the event log. `None` (with a warning) only when neither the language nor English
    /// has a fitting line.
    pub fn speak(
        &mut self,
        request: &LineRequest,
        explanation: Option<&Utterance>,
    ) -> Option<Said> {
        let Some(line) = self
            .chooser
            .choose(&self.library, self.language, request)
            .cloned()
        else {
            tracing::warn!(
                category = %request.category,
                attitude = %request.attitude,
                mistake = ?request.mistake,
                language = %self.language,
                "no voice line fits"
            );
            return None;
        };
        let Some(explanation) = explanation.filter(|e| !e.is_empty()) else {
            self.speaker.say(&line);
            let text = line.text.clone();
            return Some(Said { line, text });
        };
        let text = format!("{} {}", line.text, explanation.text());
        let (language, attitude) = (self.language, request.attitude);
        let saying = Saying::explained(line.clone(), explanation, |id| {
            self.library.fragment(language, attitude, id)
        });
        self.speaker.say(saying);
        Some(Said { line, text })
    }

    /// Applies changed settings while running: language, volume and the repetition window.
    /// The packs are not reloaded; build a new `Library` for that.
    pub fn apply(&mut self, settings: &SoundSettings) {
        self.language = settings.language;
        self.speaker.set_volume(settings.volume);
        self.chooser.set_window(settings.no_repeat);
    }

    /// The language spoken now.
    pub fn language(&self) -> Language {
        self.language
    }

    /// The lines this voice chooses from.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The speaker, for its reports and output.
    pub fn speaker(&self) -> &Speaker {
        &self.speaker
    }
}
