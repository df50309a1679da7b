//! Transposition table: positions already searched, with their bound and best move.
//!
//! Lazy SMP's threads share one table without locks: each entry is three `AtomicU64` words
//! written and read with `Relaxed` ordering, and the key word is stored xor-ed with the two
//! data words (Hyatt and Mann's scheme), so an entry torn by two threads writing it at once
//! reads back under a key that matches no position and is a miss, not a wrong answer. On
//! `x86_64` a relaxed load or store is a plain one: a lone searcher pays only for the xors
//! (about 2% more instructions in `benches/nps.rs` under callgrind).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

/// An entry as read: a move key of 0 for none (a move's from and to differ, so no move's key
/// is 0) and a depth of `EMPTY` for an unused entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// The data word: score, depth, bound and age. The depth is stored xor-ed with `EMPTY`'s
    /// bits, so that an all-zero entry (a new or cleared table) reads as unused.
    fn data(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u16)
            | u64::from((self.depth ^ EMPTY) as u8) << 16
            | bound << 24
            | u64::from(self.age) << 32
    }

    /// The depth a data word holds (`EMPTY` for an unused entry).
    fn depth_of(data: u64) -> i8 {
        (data >> 16) as u8 as i8 ^ EMPTY
    }

    /// The search a data word was stored by.
    fn age_of(data: u64) -> u8 {
        (data >> 32) as u8
    }

    fn from_words(key: u64, best: u64, data: u64) -> Slot {
        Slot {
            key,
            best,
            score: data as u16 as i16,
            depth: Slot::depth_of(data),
            bound: match (data >> 24) & 0xff {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            age: Slot::age_of(data),
        }
    }
}

/// One entry's words: `check` is the key xor-ed with `best` and `data`.
#[derive(Debug, Default)]
struct AtomicSlot {
    check: AtomicU64,
    best: AtomicU64,
    data: AtomicU64,
}

impl AtomicSlot {
    /// The entry's key, best move and data words, the key recovered from the check word: a
    /// torn entry (words from two writes) recovers a key that is no position's, so a probe
    /// for it misses.
    fn words(&self) -> (u64, u64, u64) {
        let check = self.check.load(Ordering::Relaxed);
        let best = self.best.load(Ordering::Relaxed);
        let data = self.data.load(Ordering::Relaxed);
        (check ^ best ^ data, best, data)
    }

    #[cfg(test)]
    fn load(&self) -> Slot {
        let (key, best, data) = self.words();
        Slot::from_words(key, best, data)
    }

    fn store(&self, key: u64, best: u64, data: u64) {
        self.check.store(key ^ best ^ data, Ordering::Relaxed);
        self.best.store(best, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.best.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// A fixed-size table of buckets, replaced by age and then by depth, shared by the threads
/// of one search through `&self`.
#[derive(Debug)]
pub struct Table {
    buckets: Vec<[AtomicSlot; BUCKET]>,
    age: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` megabytes.
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes * 1024 * 1024 / size_of::<[AtomicSlot; BUCKET]>()).max(256);
        Table {
            buckets: (0..count).map(|_| Default::default()).collect(),
            age: AtomicU8::new(0),
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // The high half of a 64x64 product spreads the key over the buckets without a division.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// A new search starts: entries stored before it are replaced before this search's.
    /// Called by the search's main thread before its helpers start.
    pub fn new_search(&self) {
        self.age.store(
            self.age.load(Ordering::Relaxed).wrapping_add(1),
            Ordering::Relaxed,
        );
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.bucket(key)]
            .iter()
            .map(AtomicSlot::words)
            .find(|&(stored, _, data)| stored == key && Slot::depth_of(data) != EMPTY)
            .map(|(key, best, data)| Slot::from_words(key, best, data))
            .map(|slot| Entry {
                key,
                best: (slot.best != 0).then_some(MoveKey(slot.best)),
                score: i32::from(slot.score),
                depth: i32::from(slot.depth),
                bound: slot.bound,
            })
    }

    pub fn store(&self, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = &self.buckets[self.bucket(entry.key)];
        let depth = entry.depth.clamp(i32::from(EMPTY) + 1, i32::from(i8::MAX)) as i8;
        let slot = Slot {
            key: entry.key,
            best: entry.best.map_or(0, |m| m.0),
            score: entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth,
            bound: entry.bound,
            age,
        };
        let data = slot.data();
        // Another thread may write the bucket between these reads and the write below: the
        // worst that does is a lost entry.
        if let Some((index, (_, old_best, old))) = bucket
            .iter()
            .map(AtomicSlot::words)
            .enumerate()
            .find(|&(_, (key, _, old))| key == entry.key && Slot::depth_of(old) != EMPTY)
        {
            // The same position: a deeper result of this search is kept over a shallower one
            // (unless the new one is exact), and a known best move is not forgotten.
            if Slot::age_of(old) == age
                && Slot::depth_of(old) > depth
                && entry.bound != Bound::Exact
            {
                return;
            }
            let best = if slot.best == 0 { old_best } else { slot.best };
            bucket[index].store(entry.key, best, data);
            return;
        }
        // Otherwise an unused entry, or the one worth least: from an older search first, then
        // the shallowest.
        let victim = (0..BUCKET)
            .min_by_key(|&i| {
                let old = bucket[i].data.load(Ordering::Relaxed);
                let old_depth = Slot::depth_of(old);
                if old_depth == EMPTY {
                    i32::MIN
                } else {
                    i32::from(old_depth) + if Slot::age_of(old) == age { 1024 } else { 0 }
                }
            })
            .expect("a bucket has entries");
        bucket[victim].store(entry.key, slot.best, data);
    }

    pub fn clear(&self) {
        for bucket in &self.buckets {
            bucket.iter().for_each(AtomicSlot::clear);
        }
        self.age.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64) -> Entry {
        Entry {
            key,
            best: Some(MoveKey(0x1234)),
            score: -517,
            depth: 9,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn an_entry_reads_back_as_stored() {
        let table = Table::new(1);
        table.new_search();
        table.store(entry(0xdead_beef_0042));
        let found = table.probe(0xdead_beef_0042).expect("stored");
        assert_eq!(found.best, Some(MoveKey(0x1234)));
        assert_eq!(
            (found.score, found.depth, found.bound),
            (-517, 9, Bound::Lower)
        );
        assert!(table.probe(0xdead_beef_0043).is_none());
    }

    #[test]
    fn a_new_or_cleared_table_is_empty_even_for_key_zero() {
        let table = Table::new(1);
        assert!(table.probe(0).is_none());
        table.store(entry(0));
        assert!(table.probe(0).is_some());
        table.clear();
        assert!(table.probe(0).is_none());
    }

    #[test]
    fn a_torn_entry_whose_words_disagree_is_a_miss() {
        let table = Table::new(1);
        let key = 0x0123_4567_89ab_cdef;
        table.store(entry(key));
        let index = table.bucket(key);
        let slot = table.buckets[index]
            .iter()
            .find(|s| s.load().key == key)
            .expect("stored");
        // Another thread's write got as far as the data word: the check word is this
        // entry's, the data another's, so the recovered key is no longer the position's.
        let other = Slot {
            score: 300,
            depth: 3,
            ..slot.load()
        };
        slot.data.store(other.data(), Ordering::Relaxed);
        assert!(table.probe(key).is_none());
        // Likewise a best move from another write.
        table.store(entry(key));
        let slot = table.buckets[index]
            .iter()
            .find(|s| s.load().key == key)
            .expect("stored again");
        slot.best.store(0x9999, Ordering::Relaxed);
        assert!(table.probe(key).is_none());
    }
}
