//! The transposition table: what earlier searches found, by position key.

use voidmate_rules::Move;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The score is at least this (a beta cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub key: u64,
    pub depth: u32,
    pub score: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// A fixed-size table of two-entry buckets: the first keeps the deepest
/// search of this search (a deep result costs many nodes to find again),
/// the second takes whatever comes. A search of an earlier move's gives way
/// to any of the current one.
pub struct Table {
    entries: Vec<Option<(Entry, u8)>>,
    /// Which search the entries being written belong to.
    generation: u8,
    /// What the last search learned of quiet moves, for the next one
    /// (`Features::memory`).
    pub(crate) memory: Memory,
}

/// The quiet moves' histories a search leaves for the next (empty until
/// one does).
#[derive(Default)]
pub(crate) struct Memory {
    pub history: Vec<i32>,
    pub counters: Vec<Option<Move>>,
    pub continuation: Vec<i32>,
    pub captures: Vec<i32>,
}

impl Table {
    /// A table of `size` entries (rounded up to a power of two).
    pub fn new(size: usize) -> Table {
        Table {
            entries: vec![None; size.next_power_of_two().max(2)],
            generation: 0,
            memory: Memory::default(),
        }
    }

    /// A table of about `megabytes` of memory.
    pub fn with_megabytes(megabytes: usize) -> Table {
        let entry = std::mem::size_of::<Option<(Entry, u8)>>();
        let wanted = (megabytes.max(1) << 20) / entry;
        // Rounded down to a power of two: never more than asked for.
        Table::new(1 << (usize::BITS - 1 - wanted.leading_zeros()))
    }

    /// Forgets everything: a search after it finds what a search in a new
    /// table would (reviews are repeatable so).
    pub fn clear(&mut self) {
        self.entries.fill(None);
        self.generation = 0;
        self.memory = Memory::default();
    }

    /// Entries it holds at most.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The first slot of `key`'s bucket.
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 2)
    }

    /// Marks the start of a new search: what earlier ones stored stays
    /// readable but gives way to the new search's results.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub(crate) fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .flatten()
            .map(|(e, _)| *e)
            .find(|e| e.key == key)
    }

    pub(crate) fn put(&mut self, e: Entry) {
        let b = self.bucket(e.key);
        let deep = match self.entries[b] {
            None => true,
            Some((old, generation)) => {
                old.key == e.key || generation != self.generation || e.depth >= old.depth
            }
        };
        self.entries[if deep { b } else { b + 1 }] = Some((e, self.generation));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32) -> Entry {
        Entry {
            key,
            depth,
            score: depth as i32,
            bound: Bound::Exact,
            best: None,
        }
    }

    #[test]
    fn a_deep_result_outlives_shallow_ones_of_the_same_search_but_not_the_next() {
        let mut t = Table::new(16);
        // Keys 3, 19 and 35 share a bucket in a table of 16.
        t.put(entry(3, 9));
        t.put(entry(19, 2));
        t.put(entry(35, 1));
        assert_eq!(t.get(3).map(|e| e.depth), Some(9), "the deep one stays");
        assert_eq!(
            t.get(35).map(|e| e.depth),
            Some(1),
            "the newest shallow one"
        );
        assert!(t.get(19).is_none());
        // The same key is written over, deeper or not.
        t.put(entry(3, 4));
        assert_eq!(t.get(3).map(|e| e.depth), Some(4));
        // In the next search, the last search's deep entry gives way.
        t.put(entry(3, 9));
        t.new_search();
        t.put(entry(19, 1));
        assert_eq!(t.get(19).map(|e| e.depth), Some(1));
        assert!(t.get(3).is_none());
    }
}
