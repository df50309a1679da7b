//! Reading one voice pack index: `lines.toml` in a directory of one language.

use std::fs;
use std::path::{Path, PathBuf};

use emotions::{Category, Mistake};
use serde::Deserialize;

use crate::error::PackError;
use crate::line::{Line, LineAttitude};
use emotions::Language;

/// The index file's name in a pack or override directory.
pub const INDEX_FILE: &str = "lines.toml";

/// The file as written: one language for the whole file, so no entry can drift into another.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexFile {
    language: Language,
    #[serde(default)]
    line: Vec<IndexEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IndexEntry {
    id: String,
    category: Category,
    attitude: LineAttitude,
    #[serde(default)]
    mistake: Option<Mistake>,
    text: String,
    audio: PathBuf,
}

/// Reads and checks `dir/lines.toml`, which must be for `language`, resolving each audio path
/// against `dir`. Whether the audio files exist is checked when they are played (and by the
/// crate's tests for the bundled packs): a missing recording should silence one line, not keep
/// the robot from starting.
pub(crate) fn read_index(dir: &Path, language: Language) -> Result<Vec<Line>, PackError> {
    let path = dir.join(INDEX_FILE);
    let text = fs::read_to_string(&path).map_err(|source| PackError::Read {
        path: path.clone(),
        source,
    })?;
    let index: IndexFile = toml::from_str(&text).map_err(|source| PackError::Parse {
        path: path.clone(),
        source,
    })?;
    if index.language != language {
        return Err(PackError::WrongLanguage {
            path,
            expected: language,
            found: index.language,
        });
    }
    let mut lines: Vec<Line> = Vec::with_capacity(index.line.len());
    for entry in index.line {
        check_entry(&path, &entry, &lines)?;
        lines.push(Line {
            audio: dir.join(&entry.audio),
            id: entry.id,
            language,
            category: entry.category,
            attitude: entry.attitude,
            mistake: entry.mistake,
            text: entry.text,
        });
    }
    Ok(lines)
}

fn check_entry(path: &Path, entry: &IndexEntry, earlier: &[Line]) -> Result<(), PackError> {
    if entry.id.trim().is_empty() || entry.text.trim().is_empty() {
        return Err(PackError::Empty {
            path: path.to_owned(),
            id: entry.id.clone(),
        });
    }
    if earlier.iter().any(|line| line.id == entry.id) {
        return Err(PackError::DuplicateId {
            path: path.to_owned(),
            id: entry.id.clone(),
        });
    }
    if let Some(mistake) = entry.mistake
        && mistake.category() != entry.category
    {
        return Err(PackError::MistakeOutsideCategory {
            path: path.to_owned(),
            id: entry.id.clone(),
            category: entry.category,
            mistake,
            expected: mistake.category(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(index: &str) -> (tempfile::TempDir, Result<Vec<Line>, PackError>) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(INDEX_FILE), index).unwrap();
        let lines = read_index(dir.path(), Language::Russian);
        (dir, lines)
    }

    #[test]
    fn reads_lines_and_resolves_audio_against_the_directory() {
        let (dir, lines) = pack(
            r#"
            language = "ru"
            [[line]]
            id = "win.rival.1"
            category = "win"
            attitude = "rival"
            text = "Победа за мной!"
            audio = "audio/win.rival.1.ogg"
            [[line]]
            id = "illegal_move.moved_backwards.any.1"
            category = "illegal_move"
            attitude = "any"
            mistake = "moved_backwards"
            text = "Простые шашки ходят только вперёд."
            audio = "audio/x.ogg"
            "#,
        );
        let lines = lines.unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].category, Category::Win);
        assert_eq!(lines[0].attitude, LineAttitude::Rival);
        assert_eq!(lines[0].mistake, None);
        assert_eq!(lines[0].language, Language::Russian);
        assert_eq!(lines[0].audio, dir.path().join("audio/win.rival.1.ogg"));
        assert_eq!(lines[1].mistake, Some(Mistake::MovedBackwards));
    }

    #[test]
    fn refuses_what_could_never_be_said_right() {
        let entry = |id: &str, category: &str, mistake: &str, text: &str| {
            format!(
                "[[line]]\nid = \"{id}\"\ncategory = \"{category}\"\nattitude = \"friendly\"\n{mistake}text = \"{text}\"\naudio = \"a.ogg\"\n"
            )
        };
        let ok = entry("a", "win", "", "Ура!");
        let cases = [
            format!("language = \"en\"\n{ok}"),
            format!("language = \"ru\"\n{ok}{ok}"),
            format!("language = \"ru\"\n{}", entry("b", "win", "", " ")),
            format!(
                "language = \"ru\"\n{}",
                entry("c", "win", "mistake = \"moved_backwards\"\n", "Ура!")
            ),
            format!("language = \"ru\"\n{}", entry("d", "victory", "", "Ура!")),
            format!("language = \"ru\"\nvoice = \"ru\"\n{ok}"),
        ];
        let errors: Vec<String> = cases
            .iter()
            .map(|index| pack(index).1.unwrap_err().to_string())
            .collect();
        assert!(errors[0].contains("declares language en"), "{}", errors[0]);
        assert!(errors[1].contains("the id \"a\" twice"), "{}", errors[1]);
        assert!(errors[2].contains("empty id or text"), "{}", errors[2]);
        assert!(errors[3].contains("said as illegal_move"), "{}", errors[3]);
        assert!(
            errors[4].contains("unknown variant `victory`"),
            "{}",
            errors[4]
        );
        assert!(errors[5].contains("unknown field `voice`"), "{}", errors[5]);
    }

    #[test]
    fn a_missing_index_is_a_read_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_index(dir.path(), Language::English).unwrap_err();
        assert!(matches!(error, PackError::Read { .. }));
        assert!(error.to_string().contains(INDEX_FILE));
    }
}
