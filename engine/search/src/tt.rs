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

/// Entries a bucket holds: a position's slot is its key's bucket, any of whose entries may
/// hold it, so a deep entry is not lost to one shallow position that shares its slot.
const BUCKET: usize = 4;

/// An entry as stored: 24 bytes, a move key of 0 for none (a move's from and to differ, so
/// no move's key is 0) and a depth of `EMPTY` for an unused entry.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    best: u64,
    score: i16,
    depth: i8,
    bound: Bound,
    /// The search that stored it ([`Table::new_search`]), so that what older searches left is
    /// replaced first.
    age: u8,
}

const EMPTY: i8 = i8::MIN;

impl Slot {
    const UNUSED: Slot = Slot {
        key: 0,
        best: 0,
        score: 0,
        depth: EMPTY,
        bound: Bound::Upper,
        age: 0,
    };
}

/// A fixed-size table of buckets, replaced by age and then by depth.
#[derive(Debug)]
pub struct Table {
    buckets: Vec<[Slot; BUCKET]>,
    age: u8,
}

impl Table {
    /// A table of about `megabytes` megabytes.
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes * 1024 * 1024 / size_of::<[Slot; BUCKET]>()).max(256);
        Table {
            buckets: vec![[Slot::UNUSED; BUCKET]; count],
            age: 0,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // The high half of a 64x64 product spreads the key over the buckets without a division.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// A new search starts: entries stored before it are replaced before this search's.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.bucket(key)]
            .iter()
            .find(|slot| slot.key == key && slot.depth != EMPTY)
            .map(|slot| Entry {
                key,
                best: (slot.best != 0).then_some(MoveKey(slot.best)),
                score: i32::from(slot.score),
                depth: i32::from(slot.depth),
                bound: slot.bound,
            })
    }

    pub fn store(&mut self, entry: Entry) {
        let age = self.age;
        let index = self.bucket(entry.key);
        let bucket = &mut self.buckets[index];
        let depth = entry.depth.clamp(i32::from(EMPTY) + 1, i32::from(i8::MAX)) as i8;
        let mut slot = Slot {
            key: entry.key,
            best: entry.best.map_or(0, |m| m.0),
            score: entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            bound: entry.bound,
            age,
        };
        if let Some(old) = bucket
            .iter_mut()
            .find(|s| s.key == entry.key && s.depth != EMPTY)
        {
            // The same position: a deeper result of this search is kept over a shallower one
            // (unless the new one is exact), and a known best move is not forgotten.
            if old.age == age && old.depth > depth && entry.bound != Bound::Exact {
                return;
            }
            if slot.best == 0 {
                slot.best = old.best;
            }
            *old = slot;
            return;
        }
        // Otherwise an unused entry, or the one worth least: from an older search first, then
        // the shallowest.
        let victim = bucket
            .iter_mut()
            .min_by_key(|s| {
                if s.depth == EMPTY {
                    i32::MIN
                } else {
                    i32::from(s.depth) + if s.age == age { 1024 } else { 0 }
                }
            })
            .expect("a bucket has entries");
        *victim = slot;
    }

    pub fn clear(&mut self) {
        self.buckets.fill([Slot::UNUSED; BUCKET]);
        self.age = 0;
    }
}
