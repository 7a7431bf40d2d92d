//! Helpers shared by the variant test files (each `tests/*.rs` is its own
//! crate and uses only some of them).
#![allow(dead_code)]

use voidmate_rules::{Position, Square};

/// The square named `s` (`"e4"`); panics on a bad name.
pub fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The destinations of the piece on `from`, sorted.
pub fn targets(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}
