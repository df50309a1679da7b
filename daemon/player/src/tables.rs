//! The endgame tables (`play.egdb_dir`) as the brain uses them: loaded once, and a position
//! within them played from them instead of searched.
//!
//! A search can misplay a won ending of few pieces (three kings against one needs a plan
//! deeper than it sees, and the 15-move rule then draws it); the tables know the shortest win.
//! They are read once at start (and again only when a reload changes the folder or the
//! variant), since the 5-piece set is 180 MB to read and verify. Anything wrong with them (no
//! folder, a missing or damaged file) is one warning naming the file and the fault, and the
//! robot plays on without them, as it does without a network.
//!
//! The same tables are handed to the full-strength search (see `Brain`), which then scores a
//! position below its root within them exactly instead of evaluating it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use checkerbot_config::Settings;
use egdb::{Egdb, Material, Wdl};
use rules::{Move, Position, Variant};

/// The most pieces looked for in the folder: more than the builder makes (5), so a larger
/// set built later is found without a change here.
const MOST_PIECES: u32 = 8;

/// The tables the settings ask for, loaded or not, and why not.
pub(crate) struct Tables {
    /// The folder they were read from; `None` when the settings name none or the variant has
    /// no tables (Russian only).
    dir: Option<PathBuf>,
    /// The loaded tables (shared with the search), or the warning that said why there are
    /// none.
    loaded: Result<Arc<Egdb>, String>,
}

/// A move from the tables, with the table's value of the position for the side to move.
pub(crate) struct TableMove {
    pub(crate) mv: Move,
    pub(crate) value: Wdl,
    pub(crate) distance: u32,
}

impl Tables {
    /// The tables `settings` name for its variant: loaded and verified, or a warning logged
    /// once and none.
    pub(crate) fn load(settings: &Settings) -> Tables {
        let dir = wanted(settings);
        let loaded = match &dir {
            None => Err(String::new()),
            Some(dir) => open(dir).map(Arc::new).inspect_err(|reason| {
                tracing::warn!("playing without endgame tables: {reason}");
            }),
        };
        if let (Some(dir), Ok(egdb)) = (&dir, &loaded) {
            tracing::info!(
                "endgame tables up to {} pieces from {}",
                egdb.max_pieces(),
                dir.display()
            );
        }
        Tables { dir, loaded }
    }

    /// Applies a reload: the tables are read again only when the folder or the variant
    /// changed, so a reload of other settings neither rereads 180 MB nor repeats a warning.
    pub(crate) fn reconfigure(&mut self, settings: &Settings) {
        if wanted(settings) != self.dir {
            *self = Tables::load(settings);
        }
    }

    /// The tables' move in `position`: when it is Russian, has no more pieces than the tables
    /// hold and no capture pending (a capture is forced anyway, and the search never stops
    /// while one is pending), the shortest win, the longest resistance or a drawing move.
    pub(crate) fn best_move(&self, position: &Position) -> Option<TableMove> {
        let egdb = self.loaded.as_ref().ok()?;
        if position.variant() != Variant::Russian
            || position.occupied().count() > egdb.max_pieces()
            || position.has_capture()
        {
            return None;
        }
        let (value, distance) = egdb.probe_distance(position)?;
        let mv = egdb.best_move(position)?;
        Some(TableMove {
            mv,
            value,
            distance,
        })
    }

    /// The loaded tables, for the search to probe below its root; `None` without.
    pub(crate) fn egdb(&self) -> Option<Arc<Egdb>> {
        self.loaded.as_ref().ok().cloned()
    }

    /// What the tables are, for [`Brain::describe`](crate::Brain::describe) and `checkerbot
    /// doctor`: `None` when none are asked for, else how many pieces they answer or the
    /// warning that said why there are none.
    pub(crate) fn status(&self) -> Option<Result<u32, &str>> {
        self.dir.as_ref()?;
        Some(match &self.loaded {
            Ok(egdb) => Ok(egdb.max_pieces()),
            Err(reason) => Err(reason.as_str()),
        })
    }
}

/// The folder to read: the setting's, when the variant has tables.
fn wanted(settings: &Settings) -> Option<PathBuf> {
    let dir = settings.play.egdb_dir()?;
    (settings.game.variant == Variant::Russian).then(|| dir.to_path_buf())
}

/// Opens every table with its distances up to the most pieces the folder holds in full: the
/// largest `n` for which every material of `n` pieces has both files (a build cut short
/// leaves the last size incomplete, and the sizes below it still serve).
fn open(dir: &Path) -> Result<Egdb, String> {
    if !dir.is_dir() {
        return Err(format!(
            "play.egdb_dir {}: not a folder (build the tables with `checkerbot-lab egdb build \
             --variant russian --pieces 5 --out {}`)",
            dir.display(),
            dir.display()
        ));
    }
    let variant = Variant::Russian;
    let files = |material: Material| {
        [
            material.file_name(variant),
            material.distance_file_name(variant),
        ]
        .map(|name| dir.join(name))
    };
    let mut pieces = 1;
    for n in 2..=MOST_PIECES {
        let of_n: Vec<PathBuf> = Material::all_up_to(n)
            .into_iter()
            .filter(|m| m.pieces() == n)
            .flat_map(files)
            .collect();
        let Some(absent) = of_n.iter().find(|path| !path.is_file()) else {
            pieces = n;
            continue;
        };
        if pieces < 2 {
            return Err(format!("endgame table {}: missing", absent.display()));
        }
        if of_n.iter().any(|path| path.is_file()) {
            // Some of this size and not all: a build cut short, or a file lost. Said, since
            // the operator meant the larger set; the complete sizes below still serve.
            tracing::warn!(
                "endgame tables of {n} pieces incomplete ({} missing): using those up to \
                 {pieces} pieces",
                absent.display()
            );
        }
        break;
    }
    Egdb::open_with_distances(dir, variant, pieces).map_err(|error| error.to_string())
}
