//! The state directory: what survives a crash, a power cut or a restart.
//!
//! - `journal.json`: the game in progress, rewritten after every ply (and every change of what
//!   the robot waits for), removed when the game ends.
//! - `games.pdn`: every game played, appended when it ends, with date, result, variant, level
//!   and attitude.
//! - `stats.json`: the counters (games, results, mistakes by kind, faults).
//!
//! Every rewrite is atomic (write a temporary file, fsync, rename, fsync the folder), so a file
//! is either the old version or the new one, never half of each.

mod atomic;
mod civil_date;
mod stats;

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

pub use atomic::write_atomically;
pub use civil_date::utc_date;
use host::Snapshot;
pub use stats::{GameNow, Stats};

/// The journal file: the game in progress and the id it is archived under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Journal {
    /// Unique per game: the archive's `CheckerbotGame` tag, so a game is archived once even
    /// when the daemon dies between archiving it and removing the journal.
    pub game_id: String,
    /// The game.
    pub snapshot: Snapshot,
}

/// The files of one robot's state directory.
#[derive(Debug, Clone)]
pub struct StateDir {
    dir: PathBuf,
}

impl StateDir {
    /// Opens (and creates) the directory.
    pub fn open(dir: &Path) -> anyhow::Result<StateDir> {
        fs::create_dir_all(dir)
            .with_context(|| format!("creating the state directory {}", dir.display()))?;
        Ok(StateDir {
            dir: dir.to_path_buf(),
        })
    }

    fn journal_path(&self) -> PathBuf {
        self.dir.join("journal.json")
    }

    /// The archive of finished games.
    pub fn archive_path(&self) -> PathBuf {
        self.dir.join("games.pdn")
    }

    fn stats_path(&self) -> PathBuf {
        self.dir.join("stats.json")
    }

    /// The unfinished game, if one was journaled.
    pub fn load_journal(&self) -> anyhow::Result<Option<Journal>> {
        let path = self.journal_path();
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .with_context(|| format!("reading the journal {}", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Records the game in progress, or removes the journal when there is none.
    pub fn save_journal(&self, journal: Option<&Journal>) -> anyhow::Result<()> {
        let path = self.journal_path();
        match journal {
            Some(journal) => write_atomically(&path, &serde_json::to_vec_pretty(journal)?),
            None => match fs::remove_file(&path) {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                    Err(err).with_context(|| format!("removing {}", path.display()))
                }
                _ => Ok(()),
            },
        }
    }

    /// Moves a journal that cannot be resumed out of the way, keeping it for a person to read.
    pub fn set_journal_aside(&self) -> anyhow::Result<PathBuf> {
        let aside = self.dir.join("journal.unreadable.json");
        fs::rename(self.journal_path(), &aside)
            .with_context(|| format!("moving the journal to {}", aside.display()))?;
        Ok(aside)
    }

    /// Appends one game's PDN to the archive and syncs it to disk.
    pub fn archive(&self, pdn: &str) -> anyhow::Result<PathBuf> {
        let path = self.archive_path();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening the archive {}", path.display()))?;
        file.write_all(pdn.as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing the archive {}", path.display()))?;
        Ok(path)
    }

    /// Whether the archive already holds the game with this id.
    pub fn is_archived(&self, game_id: &str) -> anyhow::Result<bool> {
        let tag = format!("[CheckerbotGame \"{game_id}\"]");
        match fs::read_to_string(self.archive_path()) {
            Ok(text) => Ok(text.lines().any(|line| line == tag)),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(err) => Err(err).context("reading the archive"),
        }
    }

    /// The counters, zero when none were saved yet.
    pub fn load_stats(&self) -> anyhow::Result<Stats> {
        let path = self.stats_path();
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .with_context(|| format!("reading the counters {}", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Stats::default()),
            Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Saves the counters.
    pub fn save_stats(&self, stats: &Stats) -> anyhow::Result<()> {
        write_atomically(&self.stats_path(), &serde_json::to_vec_pretty(stats)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(moves: &[&str]) -> Snapshot {
        Snapshot {
            variant: "russian".to_owned(),
            robot: "black".to_owned(),
            games_started: 3,
            start: None,
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
            arm_pending: false,
            notes: Vec::new(),
            hints_given: 0,
            ratings: Vec::new(),
            take_back_offer: None,
        }
    }

    #[test]
    fn the_journal_round_trips_and_disappears_between_games() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(&dir.path().join("state")).unwrap();
        assert_eq!(state.load_journal().unwrap(), None);
        let journal = Journal {
            game_id: "g1".to_owned(),
            snapshot: snapshot(&["c3-d4", "f6-g5"]),
        };
        state.save_journal(Some(&journal)).unwrap();
        assert_eq!(state.load_journal().unwrap(), Some(journal));
        state.save_journal(None).unwrap();
        assert_eq!(state.load_journal().unwrap(), None);
        // Removing twice is fine.
        state.save_journal(None).unwrap();
    }

    #[test]
    fn a_journal_keeps_the_notes_hints_and_ratings_and_one_from_before_them_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(dir.path()).unwrap();
        let mut noted = snapshot(&["c3-d4", "f6-g5"]);
        noted.notes = vec![host::NoteSnapshot {
            ply: 0,
            mark: Some("??".to_owned()),
            comment: Some("blunder".to_owned()),
        }];
        noted.hints_given = 2;
        noted.ratings = vec![host::RatingSnapshot {
            ply: 0,
            kind: host::AdviceKind::Blunder,
            expected_before: 0.45,
            expected_after: 0.1,
        }];
        noted.take_back_offer = Some(host::OfferSnapshot {
            line: vec!["g5-f4".to_owned()],
            v: 0.95,
            raw_v: Some(0.9),
        });
        let journal = Journal {
            game_id: "g1".to_owned(),
            snapshot: noted,
        };
        state.save_journal(Some(&journal)).unwrap();
        assert_eq!(state.load_journal().unwrap(), Some(journal));
        // Written by the release before the coach: no notes, no hints.
        fs::write(
            dir.path().join("journal.json"),
            r#"{"game_id": "g0", "snapshot": {"variant": "russian", "robot": "black",
                "games_started": 3, "moves": ["c3-d4", "f6-g5"], "arm_pending": false}}"#,
        )
        .unwrap();
        let old = state.load_journal().unwrap().unwrap();
        assert_eq!(old.snapshot, snapshot(&["c3-d4", "f6-g5"]));
    }

    #[test]
    fn a_damaged_journal_is_an_error_naming_the_file_and_can_be_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(dir.path()).unwrap();
        fs::write(dir.path().join("journal.json"), "{\"game_id\": ").unwrap();
        let err = state.load_journal().unwrap_err();
        assert!(format!("{err:#}").contains("journal.json"), "{err:#}");
        let aside = state.set_journal_aside().unwrap();
        assert!(aside.exists());
        assert_eq!(state.load_journal().unwrap(), None);
    }

    #[test]
    fn games_are_appended_and_found_by_id() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(dir.path()).unwrap();
        assert!(!state.is_archived("a").unwrap());
        state
            .archive("[CheckerbotGame \"a\"]\n\n1. c3-d4 *\n\n")
            .unwrap();
        state
            .archive("[CheckerbotGame \"b\"]\n\n1. c3-d4 *\n\n")
            .unwrap();
        assert!(state.is_archived("a").unwrap());
        assert!(state.is_archived("b").unwrap());
        assert!(!state.is_archived("c").unwrap());
        let text = fs::read_to_string(state.archive_path()).unwrap();
        assert_eq!(text.matches("CheckerbotGame").count(), 2);
    }

    #[test]
    fn counters_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let mut stats = Stats {
            games: 4,
            ..Stats::default()
        };
        stats.mistakes.insert(host::MistakeReason::Backwards, 2);
        StateDir::open(dir.path())
            .unwrap()
            .save_stats(&stats)
            .unwrap();
        let reopened = StateDir::open(dir.path()).unwrap().load_stats().unwrap();
        assert_eq!(reopened, stats);
    }
}
