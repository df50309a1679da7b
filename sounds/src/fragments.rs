//! Where the recorded fragments of explanations are: the packs' rendered ones, or an
//! operator's recordings.
//!
//! A pack holds `fragments/<attitude>/<id>.ogg` (the same words in the friendly and the
//! rival voice, so a sentence joined from them sounds like one speaker). An operator may drop
//! a recording for any fragment into `<overrides>/<language>/fragments/`, as `<id>.ogg`,
//! `.flac` or `.wav` for both attitudes, or under `friendly/` or `rival/` for one.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use emotions::{Attitude, Language};
use speech::FragmentId;

use crate::overrides::RECORDING_EXTENSIONS;

/// The directory of fragments within a language's pack or override directory.
pub const FRAGMENTS_DIR: &str = "fragments";

/// The audio of every fragment in every language.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FragmentAudio {
    /// `<packs>`, under which each language's rendered fragments lie.
    packs: PathBuf,
    /// An operator's recordings by language, attitude (`None`: both) and fragment id.
    recordings: HashMap<(Language, Option<Attitude>, String), PathBuf>,
}

impl FragmentAudio {
    /// Finds the rendered fragments under `packs` and the recordings under `overrides`.
    pub(crate) fn load(packs: &Path, overrides: Option<&Path>) -> FragmentAudio {
        let mut recordings = HashMap::new();
        if let Some(overrides) = overrides {
            for language in Language::ALL {
                let dir = overrides.join(language.code()).join(FRAGMENTS_DIR);
                for (attitude, dir) in [
                    (None, dir.clone()),
                    (
                        Some(Attitude::Friendly),
                        dir.join(attitude_dir(Attitude::Friendly)),
                    ),
                    (
                        Some(Attitude::Rival),
                        dir.join(attitude_dir(Attitude::Rival)),
                    ),
                ] {
                    for (id, path) in recordings_in(&dir) {
                        recordings.insert((language, attitude, id), path);
                    }
                }
            }
        }
        FragmentAudio {
            packs: packs.to_owned(),
            recordings,
        }
    }

    /// The file that says `id` in `language` with `attitude`'s voice: an operator's recording
    /// for this attitude, else one for both, else the pack's.
    pub(crate) fn audio(&self, language: Language, attitude: Attitude, id: &FragmentId) -> PathBuf {
        let key = |attitude| (language, attitude, id.as_str().to_owned());
        self.recordings
            .get(&key(Some(attitude)))
            .or_else(|| self.recordings.get(&key(None)))
            .cloned()
            .unwrap_or_else(|| {
                self.packs
                    .join(language.code())
                    .join(FRAGMENTS_DIR)
                    .join(attitude_dir(attitude))
                    .join(format!("{id}.ogg"))
            })
    }
}

/// The directory of an attitude's voice.
pub(crate) fn attitude_dir(attitude: Attitude) -> &'static str {
    match attitude {
        Attitude::Friendly => "friendly",
        Attitude::Rival => "rival",
    }
}

/// The recordings directly in `dir` by fragment id, the preferred format first; nothing when
/// there is no such directory.
fn recordings_in(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: HashMap<String, (usize, PathBuf)> = HashMap::new();
    for path in entries.flatten().map(|entry| entry.path()) {
        let (Some(stem), Some(extension)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|e| e.to_str()),
        ) else {
            continue;
        };
        let Some(rank) = RECORDING_EXTENSIONS.iter().position(|e| *e == extension) else {
            continue;
        };
        if !path.is_file() {
            continue;
        }
        let better = found.get(stem).is_none_or(|(old, _)| rank < *old);
        if better {
            found.insert(stem.to_owned(), (rank, path.clone()));
        }
    }
    found
        .into_iter()
        .map(|(id, (_, path))| (id, path))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recordings_win_over_rendered_fragments_and_the_attitudes_own_over_both() {
        let overrides = tempfile::tempdir().unwrap();
        let dir = overrides.path().join("ru").join(FRAGMENTS_DIR);
        fs::create_dir_all(dir.join("rival")).unwrap();
        for file in [
            "square.f4.wav",
            "square.f4.ogg",
            "and.flac",
            "rival/and.wav",
            "notes.txt",
        ] {
            fs::write(dir.join(file), b"recorded").unwrap();
        }
        let audio = FragmentAudio::load(Path::new("/packs"), Some(overrides.path()));
        let id = |s: &str| {
            speech::fragments(Language::Russian)
                .into_iter()
                .find(|f| f.id.as_str() == s)
                .unwrap()
                .id
        };
        let friendly = |s| audio.audio(Language::Russian, Attitude::Friendly, &id(s));
        let rival = |s| audio.audio(Language::Russian, Attitude::Rival, &id(s));
        assert_eq!(friendly("square.f4"), dir.join("square.f4.ogg"));
        assert_eq!(rival("square.f4"), dir.join("square.f4.ogg"));
        assert_eq!(friendly("and"), dir.join("and.flac"));
        assert_eq!(rival("and"), dir.join("rival/and.wav"));
        assert_eq!(
            friendly("or"),
            PathBuf::from("/packs/ru/fragments/friendly/or.ogg")
        );
        // Another language's recordings are its own.
        assert_eq!(
            audio.audio(Language::English, Attitude::Friendly, &id("square.f4")),
            PathBuf::from("/packs/en/fragments/friendly/square.f4.ogg")
        );
    }
}
