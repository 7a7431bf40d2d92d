//! Players' misspellings read as the words of our text they are slips of:
//! `minster`, `sqaure`, `casteling` (an edit or two away), `promoshun` (by
//! sound), `enpassant` (two words run together).

use rust_stemmers::{Algorithm, Stemmer};
use std::collections::{HashMap, HashSet};

/// Words longer than this are no slip of a word of ours (the longest is
/// far shorter): they are left as they are, unread, so that a question of
/// one huge word costs nothing to compare.
const MAX_WORD: usize = 24;

/// Misspellings by sound that an edit or two do not reach.
const SOUNDS: &[(&str, &str)] = &[("shun", "tion"), ("shon", "tion"), ("ph", "f")];

/// Every word of our text (lower case), with its stem and how often it is
/// used, and every stem our text has.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    words: HashMap<String, (String, f32)>,
    stems: HashSet<String>,
}

fn stem(word: &str) -> String {
    Stemmer::create(Algorithm::English).stem(word).into_owned()
}

impl Vocabulary {
    /// Adds the words of `text` (not those `skip` says carry nothing).
    pub(super) fn add(&mut self, text: &str, skip: impl Fn(&str) -> bool) {
        for w in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 2)
        {
            let w = w.to_lowercase();
            if skip(&w) {
                continue;
            }
            let stem = stem(&w);
            self.stems.insert(stem.clone());
            self.words.entry(w).or_insert((stem, 0.0)).1 += 1.0;
        }
    }

    /// The stem of the word of our text nearest to `word`, within one edit
    /// (two for words of eight letters or more; a swap of two letters is
    /// one), the most used on a tie; words of fewer than four letters are
    /// never the answer.
    fn nearest(&self, word: &str) -> Option<String> {
        let length = word.chars().count();
        let limit = if length >= 8 { 2 } else { 1 };
        self.words
            .iter()
            .filter(|(v, _)| v.chars().count() >= 4)
            .map(|(v, (stem, n))| (strsim::osa_distance(word, v), -n, stem))
            .filter(|(d, _, _)| *d <= limit)
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(b.2)))
            .map(|(_, _, stem)| stem.clone())
    }

    /// The stems `word` (lower case) stands for: its own where our text
    /// knows it (or `known` does: the synonyms); else the word of our text
    /// it is a slip of, or the two words it runs together. Short words and
    /// numbers are left as they are.
    pub(super) fn read(&self, word: &str, known: impl Fn(&str) -> bool) -> Vec<String> {
        let own = stem(word);
        let length = word.chars().count();
        if self.stems.contains(&own)
            || self.words.contains_key(word)
            || known(&own)
            || !(5..=MAX_WORD).contains(&length)
            || word.chars().any(|c| c.is_ascii_digit())
        {
            return vec![own];
        }
        if let Some(v) = self.nearest(word) {
            return vec![v];
        }
        for (from, to) in SOUNDS {
            if word.contains(from) {
                if let Some(v) = self.nearest(&word.replace(from, to)) {
                    return vec![v];
                }
            }
        }
        // Two words run together: both known, the second perhaps misspelt.
        for (i, _) in word.char_indices().skip(2) {
            let (a, b) = word.split_at(i);
            if b.chars().count() < 3 {
                break;
            }
            if let Some((first, _)) = self.words.get(a) {
                let second = self
                    .words
                    .get(b)
                    .map(|(s, _)| s.clone())
                    .or_else(|| self.nearest(b));
                if let Some(second) = second {
                    return vec![first.clone(), second];
                }
            }
        }
        vec![own]
    }
}
