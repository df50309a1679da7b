//! Every language's lines, with the operator's overrides applied.

use std::path::Path;

use std::path::PathBuf;

use emotions::{Attitude, Category, LineRequest, Mistake};
use speech::FragmentId;

use crate::error::PackError;
use crate::fragments::FragmentAudio;
use crate::line::Line;
use crate::overrides;
use crate::pack::read_index;
use emotions::Language;

/// All the lines the robot can say, per language.
#[derive(Debug, Clone, PartialEq)]
pub struct Library {
    /// Indexed like [`Language::ALL`].
    by_language: [Vec<Line>; Language::ALL.len()],
    /// The recordings explanations are joined from.
    fragments: FragmentAudio,
}

impl Library {
    /// Where the packs of this source tree are: the default for development, tests and the
    /// simulator. An installed robot names its packs directory in the settings.
    pub const BUNDLED: &'static str = concat!(env!("CARGO_MANIFEST_DIR"), "/packs");

    /// Loads `<packs>/<language>/lines.toml` for every language, then applies
    /// `<overrides>/<language>/` (see the crate docs for the override rule).
    pub fn load(packs: &Path, overrides: Option<&Path>) -> Result<Library, PackError> {
        let mut by_language: [Vec<Line>; Language::ALL.len()] = Default::default();
        for (lines, language) in by_language.iter_mut().zip(Language::ALL) {
            *lines = read_index(&packs.join(language.code()), language)?;
            if let Some(overrides) = overrides {
                overrides::apply(lines, overrides, language)?;
            }
        }
        Ok(Library {
            by_language,
            fragments: FragmentAudio::load(packs, overrides),
        })
    }

    /// The packs of this source tree without overrides.
    pub fn bundled() -> Result<Library, PackError> {
        Library::load(Path::new(Library::BUNDLED), None)
    }

    /// The file that says fragment `id` in `language` with `attitude`'s voice: an operator's
    /// recording (`<overrides>/<language>/fragments/[<attitude>/]<id>.ogg|flac|wav`) or the
    /// pack's `fragments/<attitude>/<id>.ogg`. Whether it exists is found out when played.
    pub fn fragment(&self, language: Language, attitude: Attitude, id: &FragmentId) -> PathBuf {
        self.fragments.audio(language, attitude, id)
    }

    /// Every line of `language`, in index order.
    pub fn lines(&self, language: Language) -> &[Line] {
        let index = Language::ALL
            .iter()
            .position(|&l| l == language)
            .expect("Language::ALL lists every language");
        &self.by_language[index]
    }

    /// The lines of exactly this language, category, attitude and reason: those naming
    /// `mistake` when it is `Some`, those naming none when it is `None`. No fallback; the
    /// completeness tests use this.
    pub fn matching(
        &self,
        language: Language,
        category: Category,
        attitude: Attitude,
        mistake: Option<Mistake>,
    ) -> impl Iterator<Item = &Line> {
        self.lines(language).iter().filter(move |line| {
            line.category == category && line.attitude.fits(attitude) && line.mistake == mistake
        })
    }

    /// The lines that may answer `request` in `language`, most fitting first: lines that
    /// explain the request's mistake, else the category's general lines; in `language`, else in
    /// English. The language comes before the reason's detail because a visitor who does not
    /// understand the line learns nothing from it.
    pub fn candidates(&self, language: Language, request: &LineRequest) -> Vec<&Line> {
        // Repeats (English twice, `None` twice) only search an empty set again.
        for language in [language, Language::English] {
            for reason in [request.mistake, None] {
                let found: Vec<&Line> = self
                    .matching(language, request.category, request.attitude, reason)
                    .collect();
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::pack::INDEX_FILE;

    /// A tiny library: English has a general and a reason-specific illegal-move line, Russian
    /// only a general one, Ukrainian nothing.
    fn small() -> (tempfile::TempDir, Library) {
        let packs = tempfile::tempdir().unwrap();
        let entry = |id: &str, attitude: &str, mistake: &str| {
            format!(
                "[[line]]\nid = \"{id}\"\ncategory = \"illegal_move\"\nattitude = \"{attitude}\"\n{mistake}text = \"{id}\"\naudio = \"{id}.ogg\"\n"
            )
        };
        let packs_content = [
            (
                "en",
                format!(
                    "{}{}{}",
                    entry("en-general", "any", ""),
                    entry(
                        "en-backwards",
                        "friendly",
                        "mistake = \"moved_backwards\"\n"
                    ),
                    entry("en-rival", "rival", ""),
                ),
            ),
            ("ru", entry("ru-general", "friendly", "")),
            ("uk", String::new()),
        ];
        for (code, lines) in packs_content {
            let dir = packs.path().join(code);
            fs::create_dir(&dir).unwrap();
            fs::write(
                dir.join(INDEX_FILE),
                format!("language = \"{code}\"\n{lines}"),
            )
            .unwrap();
        }
        let library = Library::load(packs.path(), None).unwrap();
        (packs, library)
    }

    fn ids(lines: &[&Line]) -> Vec<String> {
        lines.iter().map(|l| l.id.clone()).collect()
    }

    fn request(attitude: Attitude, mistake: Option<Mistake>) -> LineRequest {
        LineRequest {
            category: Category::IllegalMove,
            attitude,
            mistake,
        }
    }

    #[test]
    fn prefers_the_language_then_the_reason_then_english() {
        let (_packs, library) = small();
        let friendly_backwards = request(Attitude::Friendly, Some(Mistake::MovedBackwards));
        // English has the reason's own line.
        assert_eq!(
            ids(&library.candidates(Language::English, &friendly_backwards)),
            ["en-backwards"]
        );
        // Russian has no line for the reason: its general line beats English detail.
        assert_eq!(
            ids(&library.candidates(Language::Russian, &friendly_backwards)),
            ["ru-general"]
        );
        // Ukrainian has nothing: English, with the reason.
        assert_eq!(
            ids(&library.candidates(Language::Ukrainian, &friendly_backwards)),
            ["en-backwards"]
        );
        // Another reason: general lines only, "any" fits both attitudes.
        let rival_robot_piece = request(Attitude::Rival, Some(Mistake::MovedRobotPiece));
        assert_eq!(
            ids(&library.candidates(Language::Russian, &rival_robot_piece)),
            ["en-general", "en-rival"]
        );
        // A request without a reason never gets a reason's line.
        assert_eq!(
            ids(&library.candidates(Language::English, &request(Attitude::Friendly, None))),
            ["en-general"]
        );
    }

    #[test]
    fn nothing_to_say_is_an_empty_list() {
        let (_packs, library) = small();
        let win = LineRequest {
            category: Category::Win,
            attitude: Attitude::Friendly,
            mistake: None,
        };
        assert!(library.candidates(Language::Ukrainian, &win).is_empty());
    }
}
