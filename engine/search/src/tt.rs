//! Transposition table: positions already searched, with their bound and best move.

use rules::Move;

/// How a stored score relates to the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub key: u64,
    pub best: Option<MoveKey>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// A compact identity of a move, enough to find it again in a legal-move list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveKey(u64);

impl MoveKey {
    pub fn of(mv: &Move) -> MoveKey {
        let captured = mv.captured().0;
        MoveKey(
            u64::from(mv.from().bit())
                | u64::from(mv.to().bit()) << 8
                | u64::from(mv.promotes()) << 16
                | ((captured as u64) ^ ((captured >> 64) as u64).rotate_left(23)) << 17,
        )
    }
}

/// A fixed-size table replaced by depth.
#[derive(Debug)]
pub struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    /// A table of about `megabytes` megabytes.
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes * 1024 * 1024 / size_of::<Option<Entry>>()).max(1024);
        Table {
            entries: vec![None; count],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key % self.entries.len() as u64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        let keep_old =
            self.entries[slot].is_some_and(|old| old.key == entry.key && old.depth > entry.depth);
        if !keep_old {
            self.entries[slot] = Some(entry);
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(None);
    }
}
