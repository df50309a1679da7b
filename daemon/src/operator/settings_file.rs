//! Writing the page's settings back into the settings file, when the operator asks: only the
//! keys the page changes are set, everything else in the file (comments, order, other keys)
//! stays as it was, and the file is replaced atomically.

use std::path::Path;

use anyhow::Context as _;
use toml_edit::{DocumentMut, Item, Table, value};

use checkerbot_config::PlayLevel;

use crate::state::write_atomically;

/// Sets `play.level`, `emotions.attitude`, `emotions.announce_moves`, `sounds.language`,
/// `sounds.volume`, `coach.enabled`, `coach.hints_per_game`, `coach.take_backs` and
/// `game.reset_board` in the file at `path` to those of `settings`.
pub fn write_back(path: &Path, settings: &checkerbot_config::Settings) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let edited = edit(&text, settings).with_context(|| format!("editing {}", path.display()))?;
    write_atomically(path, edited.as_bytes())
}

/// `text` with the page's keys set; the rest untouched.
fn edit(text: &str, settings: &checkerbot_config::Settings) -> anyhow::Result<String> {
    let mut doc: DocumentMut = text.parse().context("the file is not valid TOML")?;
    // A volume such as 0.7 is an f32; through its shortest text it stays 0.7, not 0.699999988.
    let volume: f64 = settings.sounds.volume.to_string().parse()?;
    set(
        &mut doc,
        "play",
        "level",
        match settings.play.level {
            PlayLevel::Fixed(level) => value(i64::from(level)),
            PlayLevel::Adaptive => value("adaptive"),
        },
    )?;
    set(
        &mut doc,
        "emotions",
        "attitude",
        value(settings.emotions.attitude.as_str()),
    )?;
    set(
        &mut doc,
        "emotions",
        "announce_moves",
        value(settings.emotions.announce_moves.as_str()),
    )?;
    set(
        &mut doc,
        "sounds",
        "language",
        value(settings.sounds.language.code()),
    )?;
    set(&mut doc, "sounds", "volume", value(volume))?;
    set(&mut doc, "coach", "enabled", value(settings.coach.enabled))?;
    set(
        &mut doc,
        "game",
        "reset_board",
        value(settings.game.reset_board),
    )?;
    set(
        &mut doc,
        "coach",
        "hints_per_game",
        value(i64::from(settings.coach.hints_per_game)),
    )?;
    set(
        &mut doc,
        "coach",
        "take_backs",
        value(settings.coach.take_backs),
    )?;
    Ok(doc.to_string())
}

fn set(doc: &mut DocumentMut, section: &str, key: &str, item: Item) -> anyhow::Result<()> {
    let table = doc
        .entry(section)
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .with_context(|| format!("`{section}` is not a table"))?;
    match table.get_mut(key) {
        // Keep the key's place and its comments; change only the value.
        Some(old) => {
            let decor = old.as_value().map(|v| v.decor().clone());
            *old = item;
            if let (Some(decor), Some(new)) = (decor, old.as_value_mut()) {
                *new.decor_mut() = decor;
            }
        }
        None => {
            table.insert(key, item);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pages_keys_change_and_comments_stay() {
        let text = "# my robot\n[play]\n# gentle for the kids\nlevel = 1 # keep low\nmove_time_ms = 900\n\n[devices]\nbaud = 57600\n";
        let mut settings = checkerbot_config::Settings::default();
        settings.play.level = PlayLevel::Fixed(4);
        settings.sounds.volume = 0.7;
        settings.emotions.attitude = emotions::Attitude::Rival;
        settings.emotions.announce_moves = emotions::AnnounceMoves::Always;
        settings.coach.hints_per_game = 1;
        settings.coach.take_backs = false;
        settings.game.reset_board = true;
        let edited = edit(text, &settings).unwrap();
        assert!(edited.starts_with("# my robot\n[play]\n# gentle for the kids\nlevel = 4 # keep low\nmove_time_ms = 900\n"), "{edited}");
        assert!(edited.contains("baud = 57600"), "{edited}");
        assert!(edited.contains("volume = 0.7\n"), "{edited}");
        assert!(edited.contains("attitude = \"rival\""), "{edited}");
        assert!(edited.contains("announce_moves = \"always\""), "{edited}");
        // What was written reads back as the same settings.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checkerbot.toml");
        std::fs::write(&path, text).unwrap();
        write_back(&path, &settings).unwrap();
        let loaded = checkerbot_config::load_with_env(Some(&path), []).unwrap();
        assert_eq!(loaded.play.level, PlayLevel::Fixed(4));
        assert_eq!(loaded.coach, settings.coach);
        assert_eq!(
            loaded.emotions.announce_moves,
            emotions::AnnounceMoves::Always
        );
        assert_eq!(loaded.play.move_time_ms, 900);
        assert!(loaded.game.reset_board);
        assert_eq!(loaded.devices.baud, 57_600);
        assert!((loaded.sounds.volume - 0.7).abs() < 1e-6);
    }

    #[test]
    fn a_broken_file_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checkerbot.toml");
        std::fs::write(&path, "[play\nlevel = 2\n").unwrap();
        let err = write_back(&path, &checkerbot_config::Settings::default()).unwrap_err();
        assert!(format!("{err:#}").contains("not valid TOML"), "{err:#}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[play\nlevel = 2\n"
        );
    }
}
