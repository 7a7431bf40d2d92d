//! Questions players asked, each with the passage of ours that answers it
//! (`asked/*.txt`): read into the index, so that the words players use for
//! a rule reach its passage next time.

use super::passages::{stems, Passage};
use voidmate_rules::GameKind;

/// Questions players asked, each with the passage that answers it: the
/// issue 43 set and two sets written from the games' own pages alone, in
/// players' voices (`asked/*.txt`, format in their headers).
pub(crate) const ASKED: [&str; 3] = [
    include_str!("asked/issue43.txt"),
    include_str!("asked/fresh_a.txt"),
    include_str!("asked/fresh_b.txt"),
];

/// How much an asked question's words count in its passage, against 1 for
/// the passage's own words: players' words for a rule reach it, without
/// outweighing what the passage says.
const ASKED_WEIGHT: f32 = 0.5;

/// One asked question: the channel's game, the question, and what answers
/// it (`topic GAME KEY` or `doc GAME SECTION PHRASE`, alternatives split by
/// ` || `; `missing`).
pub(crate) fn asked_lines(set: &str) -> impl Iterator<Item = (&str, &str, &str)> {
    set.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut fields = l.split(" | ").map(str::trim);
            Some((fields.next()?, fields.next()?, fields.next()?))
        })
}

/// The passage an expectation names, if it names one.
fn named_passage(passages: &[Passage], want: &str) -> Option<usize> {
    let words: Vec<&str> = want.split_whitespace().collect();
    match words.as_slice() {
        ["topic", game, key] => {
            let game = GameKind::from_name(game)?.base();
            passages
                .iter()
                .position(|p| p.game == game && p.topic.is_some_and(|t| t.key == *key))
        }
        ["doc", game, section, phrase @ ..] if !phrase.is_empty() => {
            let game = GameKind::from_name(game)?.base();
            let phrase = phrase.join(" ").to_lowercase();
            passages.iter().position(|p| {
                p.topic.is_none()
                    && p.game == game
                    && p.section == *section
                    && p.text.to_lowercase().contains(&phrase)
            })
        }
        _ => None,
    }
}

/// Adds each asked question's words to every passage that answers it.
pub(super) fn learn(passages: &mut [Passage]) {
    for set in ASKED {
        for (_, question, expected) in asked_lines(set) {
            let targets: Vec<usize> = expected
                .split(" || ")
                .filter_map(|want| named_passage(passages, want.trim()))
                .collect();
            for i in targets {
                for s in stems(question) {
                    *passages[i].terms.entry(s).or_insert(0.0) += ASKED_WEIGHT;
                }
            }
        }
    }
    for p in passages.iter_mut() {
        p.length = p.terms.values().sum();
    }
}
