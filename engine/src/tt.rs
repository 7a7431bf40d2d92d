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

/// A fixed-size, always-replace table.
pub struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    /// A table of `size` entries (rounded up to a power of two).
    pub fn new(size: usize) -> Table {
        Table {
            entries: vec![None; size.next_power_of_two()],
        }
    }

    /// A table of about `megabytes` of memory.
    pub fn with_megabytes(megabytes: usize) -> Table {
        let entry = std::mem::size_of::<Option<Entry>>();
        let wanted = (megabytes.max(1) << 20) / entry;
        // Rounded down to a power of two: never more than asked for.
        Table::new(1 << (usize::BITS - 1 - wanted.leading_zeros()))
    }

    /// Entries it holds at most.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    pub(crate) fn get(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub(crate) fn put(&mut self, e: Entry) {
        let slot = self.slot(e.key);
        self.entries[slot] = Some(e);
    }
}
