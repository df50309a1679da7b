//! Endgame databases: the exact win/draw/loss value of every position with few pieces.
//!
//! [`build`] solves every material of up to N pieces by retrograde analysis over the moves
//! of [`rules`] (this crate knows no rule of its own: every move comes from
//! [`Position::legal_moves`]), [`Table`] holds one material's values, two bits a position,
//! and their distances, a byte a position, and writes and reads each in a versioned,
//! checksummed file, and [`Egdb`] loads a directory of them and answers [`Egdb::probe`],
//! [`Egdb::probe_distance`] and [`Egdb::best_move`].
//!
//! **What a value means.** The side to move wins, draws or loses with perfect play under the
//! variant's rules *without* the move-count draw rules: a position repeated is a draw (a
//! position from which neither side can force a win is a draw), but the Russian rule that
//! three kings must catch a lone king within 15 moves, and the other move-count rules, are
//! not counted. A table's win may need more moves than the rules allow: the distances say
//! how many.
//!
//! **What a distance means.** Beside each value the build keeps the plies to the end of the
//! game under perfect play, the winner taking the shortest way and the loser the longest
//! resistance ("distance to win", DTW), counted across captures and promotions (a move
//! into another material adds one ply to that material's distance). A win's distance is odd,
//! a loss's even, a position without moves 0. [`Egdb::probe_distance`] answers it, and
//! [`Egdb::best_move`] plays by it, so a won ending is won and the move-count draw rules can
//! be checked against it.
//!
//! Only Russian draughts is built for now; the index and file format serve every 8x8
//! variant.
#![warn(missing_docs)]

mod build;
mod file;
mod index;
mod table;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rules::{Move, Position, Variant};

pub use build::{BuildError, Builder, SliceReport, build};
pub use file::{DISTANCE_FORMAT_VERSION, FORMAT_VERSION, Fault, TableError};
pub use table::{SATURATED, Table};

/// The value of a position for the side to move.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins with perfect play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses against perfect play.
    Loss,
}

impl Wdl {
    /// The same result seen by the other side.
    #[must_use]
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// The pieces of a position counted from the side to move's view: one table per material.
///
/// Material with Black to move is the same table as with White to move and the colours
/// swapped (the board turned half a turn), so the side to move is always "own".
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub own_men: u8,
    /// Kings of the side to move.
    pub own_kings: u8,
    /// Men of the side not to move.
    pub opp_men: u8,
    /// Kings of the side not to move.
    pub opp_kings: u8,
}

impl Material {
    /// Material from its four counts.
    pub const fn new(own_men: u8, own_kings: u8, opp_men: u8, opp_kings: u8) -> Material {
        Material {
            own_men,
            own_kings,
            opp_men,
            opp_kings,
        }
    }

    /// The material of a position.
    pub fn of(position: &Position) -> Material {
        index::canonical(position).material()
    }

    /// Every piece on the board.
    pub const fn pieces(self) -> u32 {
        self.own_men as u32 + self.own_kings as u32 + self.opp_men as u32 + self.opp_kings as u32
    }

    /// Men of both sides: a promotion lowers it, so slices are built in its order.
    pub const fn men(self) -> u32 {
        self.own_men as u32 + self.opp_men as u32
    }

    /// The material after a quiet move, seen by the side then to move.
    #[must_use]
    pub const fn mirrored(self) -> Material {
        Material::new(self.opp_men, self.opp_kings, self.own_men, self.own_kings)
    }

    /// Every material with at least one piece on each side and at most `pieces` in all,
    /// ordered so that each comes after everything it can reach by a capture or promotion.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let n = pieces.min(32) as u8;
        let mut all = Vec::new();
        for own_men in 0..=n {
            for own_kings in 0..=n - own_men {
                for opp_men in 0..=n - own_men - own_kings {
                    for opp_kings in 0..=n - own_men - own_kings - opp_men {
                        let m = Material::new(own_men, own_kings, opp_men, opp_kings);
                        if own_men + own_kings > 0 && opp_men + opp_kings > 0 {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }

    /// The file name of this material's table:
    /// `<variant>_<own men><own kings><opp men><opp kings>.egdb`, e.g. `russian_0301.egdb`.
    pub fn file_name(self, variant: Variant) -> String {
        format!(
            "{}_{}{}{}{}.egdb",
            variant.name(),
            self.own_men,
            self.own_kings,
            self.opp_men,
            self.opp_kings
        )
    }

    /// The file name of this material's distances, beside its table:
    /// `<variant>_<own men><own kings><opp men><opp kings>.dtw`, e.g. `russian_0301.dtw`.
    pub fn distance_file_name(self, variant: Variant) -> String {
        format!(
            "{}_{}{}{}{}.dtw",
            variant.name(),
            self.own_men,
            self.own_kings,
            self.opp_men,
            self.opp_kings
        )
    }
}

impl fmt::Display for Material {
    /// `1m2k-v-0m1k`: the side to move's men and kings, then the other side's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k-v-{}m{}k",
            self.own_men, self.own_kings, self.opp_men, self.opp_kings
        )
    }
}

/// Where [`Egdb::probe`] finds a position's answer.
enum Located<'a> {
    /// Decided by the pieces alone: a side has none.
    Over(Wdl),
    /// In this table, at these pieces.
    In(&'a Table, index::Pieces),
}

/// The tables of one variant for every material of up to `max_pieces` pieces.
#[derive(Debug)]
pub struct Egdb {
    variant: Variant,
    max_pieces: u32,
    tables: HashMap<Material, Table>,
}

impl Egdb {
    /// Loads and verifies every table of `variant` with up to `max_pieces` pieces from `dir`.
    ///
    /// A missing, short or corrupt file is an error naming it: a database that answers
    /// only some positions would make the search's results depend on which files survived.
    pub fn open(dir: &Path, variant: Variant, max_pieces: u32) -> Result<Egdb, TableError> {
        let mut tables = HashMap::new();
        for material in Material::all_up_to(max_pieces) {
            let path: PathBuf = dir.join(material.file_name(variant));
            tables.insert(material, Table::load(&path, variant, material)?);
        }
        Ok(Egdb {
            variant,
            max_pieces,
            tables,
        })
    }

    /// Like [`Egdb::open`], and loads and verifies every table's distance file beside it
    /// too: a missing or damaged one is an error naming it, since a player that plays by
    /// distances must have them for every material it may reach.
    pub fn open_with_distances(
        dir: &Path,
        variant: Variant,
        max_pieces: u32,
    ) -> Result<Egdb, TableError> {
        let mut egdb = Egdb::open(dir, variant, max_pieces)?;
        for (material, table) in &mut egdb.tables {
            table.load_distances(&dir.join(material.distance_file_name(variant)))?;
        }
        Ok(egdb)
    }

    /// A database of tables already in memory (a build's, for example); `max_pieces` is the
    /// most pieces it answers, and it must hold every material up to that.
    pub fn from_tables(
        variant: Variant,
        max_pieces: u32,
        tables: impl IntoIterator<Item = Table>,
    ) -> Egdb {
        Egdb {
            variant,
            max_pieces,
            tables: tables.into_iter().map(|t| (t.material(), t)).collect(),
        }
    }

    /// The most pieces a position may have to be answered.
    pub const fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The value for the side to move, or `None` for another variant or more pieces than
    /// the database holds. A side without pieces has lost, as the rules have it.
    ///
    /// A pending capture is answered too (the tables hold every position); a search that
    /// resolves captures before it trusts a static value may still choose to probe only
    /// quiet positions.
    pub fn probe(&self, position: &Position) -> Option<Wdl> {
        match self.locate(position)? {
            Located::Over(value) => Some(value),
            Located::In(table, pieces) => Some(table.value_of(&pieces)),
        }
    }

    /// Where `position` is answered: by its pieces alone (a side without pieces), or in its
    /// material's table; `None` for another variant, too many pieces or a table not held.
    fn locate(&self, position: &Position) -> Option<Located<'_>> {
        if position.variant() != self.variant {
            return None;
        }
        let pieces = index::canonical(position);
        let material = pieces.material();
        if material.pieces() > self.max_pieces {
            return None;
        }
        if material.own_men + material.own_kings == 0 {
            return Some(Located::Over(Wdl::Loss));
        }
        if material.opp_men + material.opp_kings == 0 {
            return Some(Located::Over(Wdl::Win));
        }
        Some(Located::In(self.tables.get(&material)?, pieces))
    }

    /// The value for the side to move and the plies to the end of the game with perfect
    /// play (the winner's shortest, the loser's longest; 0 for a draw and for a side
    /// without pieces; [`SATURATED`] for "255 or more"), or `None` where [`Egdb::probe`] has
    /// no answer or the tables were loaded without distances.
    ///
    /// A position whose opponent has no pieces (the game over, the side to move the winner)
    /// answers a win at distance 0.
    pub fn probe_distance(&self, position: &Position) -> Option<(Wdl, u32)> {
        let (table, pieces) = match self.locate(position)? {
            Located::Over(value) => return Some((value, 0)),
            Located::In(table, pieces) => (table, pieces),
        };
        let distance = table.distance_of(&pieces)?;
        Some((table.value_of(&pieces), u32::from(distance)))
    }

    /// The move to play by the distances: in a won position one to a lost position with the
    /// shortest distance (so the win is reached in the position's own distance), in a lost
    /// one the move to the longest win (the longest resistance, which is where a defender
    /// may hope for the move-count rules or a mistake), in a drawn one the first move that
    /// keeps the draw. `None` without a legal move or an answer for every move.
    pub fn best_move(&self, position: &Position) -> Option<Move> {
        let (value, _) = self.probe_distance(position)?;
        let mut best: Option<(Move, u32)> = None;
        for mv in position.legal_moves() {
            let next = position.play(&mv).ok()?;
            let (child, distance) = self.probe_distance(&next)?;
            let better = match (value, child) {
                (Wdl::Win, Wdl::Loss) => best.is_none_or(|(_, b)| distance < b),
                (Wdl::Loss, Wdl::Win) => best.is_none_or(|(_, b)| distance > b),
                (Wdl::Draw, Wdl::Draw) => best.is_none(),
                _ => false,
            };
            if better {
                best = Some((mv, distance));
            }
        }
        best.map(|(mv, _)| mv)
    }

    /// The loaded tables.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }
}
