//! An operator's own recordings and phrasings, laid over a bundled pack.
//!
//! The override directory mirrors the packs: `<overrides>/<language>/`. In it,
//! - a recording named after a line's id (`<id>.ogg`, `<id>.flac` or `<id>.wav`, tried in that
//!   order) is played instead of that line's audio; the text stays the pack's;
//! - an optional `lines.toml` in the pack format replaces the lines whose ids it repeats (text
//!   and audio, the audio resolved against the override directory) and adds the others.
//!
//! The index is applied first and recordings named by id last, so a recording always wins.
//! Override files never change the bundled packs, so re-rendering or updating the packs keeps
//! the operator's work.

use std::path::Path;

use crate::error::PackError;
use crate::line::Line;
use crate::pack::{INDEX_FILE, read_index};
use emotions::Language;

/// The extensions of recordings that replace a line's audio, in order of preference: the
/// formats the speaker decodes.
pub const RECORDING_EXTENSIONS: [&str; 3] = ["ogg", "flac", "wav"];

/// Applies `<overrides>/<language>/` to `lines`; a language without a directory is left alone.
pub(crate) fn apply(
    lines: &mut Vec<Line>,
    overrides: &Path,
    language: Language,
) -> Result<(), PackError> {
    let dir = overrides.join(language.code());
    if dir.join(INDEX_FILE).is_file() {
        for line in read_index(&dir, language)? {
            match lines.iter_mut().find(|old| old.id == line.id) {
                Some(old) => *old = line,
                None => lines.push(line),
            }
        }
    }
    for line in lines.iter_mut() {
        if let Some(recording) = RECORDING_EXTENSIONS
            .iter()
            .map(|extension| dir.join(format!("{}.{extension}", line.id)))
            .find(|path| path.is_file())
        {
            line.audio = recording;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;

    use emotions::Category;

    use super::*;
    use crate::line::LineAttitude;

    fn bundled(id: &str, text: &str) -> Line {
        Line {
            id: id.to_owned(),
            language: Language::Ukrainian,
            category: Category::Win,
            attitude: LineAttitude::Friendly,
            mistake: None,
            text: text.to_owned(),
            audio: PathBuf::from(format!("/packs/uk/audio/{id}.ogg")),
        }
    }

    #[test]
    fn recordings_replace_audio_and_the_index_replaces_or_adds_lines() {
        let overrides = tempfile::tempdir().unwrap();
        let dir = overrides.path().join("uk");
        fs::create_dir(&dir).unwrap();
        fs::write(
            dir.join(INDEX_FILE),
            r#"
            language = "uk"
            [[line]]
            id = "b"
            category = "win"
            attitude = "friendly"
            text = "Нова фраза оператора"
            audio = "mine/b.ogg"
            [[line]]
            id = "new"
            category = "win"
            attitude = "any"
            text = "Зовсім нова"
            audio = "new.wav"
            "#,
        )
        .unwrap();
        // A recording for "a" in two formats: ogg is preferred. One for "b" beats its entry.
        for file in ["a.ogg", "a.wav", "b.flac"] {
            fs::write(dir.join(file), b"recorded").unwrap();
        }
        let mut lines = vec![
            bundled("a", "Я виграв!"),
            bundled("b", "Гарна гра!"),
            bundled("c", "Партію завершено!"),
        ];
        apply(&mut lines, overrides.path(), Language::Ukrainian).unwrap();

        let summary: Vec<(&str, &str, PathBuf)> = lines
            .iter()
            .map(|l| (l.id.as_str(), l.text.as_str(), l.audio.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                ("a", "Я виграв!", dir.join("a.ogg")),
                ("b", "Нова фраза оператора", dir.join("b.flac")),
                (
                    "c",
                    "Партію завершено!",
                    PathBuf::from("/packs/uk/audio/c.ogg")
                ),
                ("new", "Зовсім нова", dir.join("new.wav")),
            ]
        );
    }

    #[test]
    fn a_language_without_overrides_is_unchanged() {
        let overrides = tempfile::tempdir().unwrap();
        let mut lines = vec![bundled("a", "Я виграв!")];
        let before = lines.clone();
        apply(&mut lines, overrides.path(), Language::Ukrainian).unwrap();
        assert_eq!(lines, before);
    }

    #[test]
    fn a_broken_override_index_is_reported() {
        let overrides = tempfile::tempdir().unwrap();
        let dir = overrides.path().join("uk");
        fs::create_dir(&dir).unwrap();
        fs::write(
            dir.join(INDEX_FILE),
            "language = \"uk\"\n[[line]]\nid = 1\n",
        )
        .unwrap();
        let error = apply(&mut Vec::new(), overrides.path(), Language::Ukrainian).unwrap_err();
        assert!(matches!(error, PackError::Parse { .. }), "{error}");
    }
}
