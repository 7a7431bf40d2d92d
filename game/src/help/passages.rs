//! Rules questions answered from our own text: every help topic and every
//! passage of `docs/rules/*.md`, indexed once and searched with BM25 over
//! stemmed words (Snowball's English stemmer, `rust-stemmers`), with the
//! synonyms players use (take/capture, hole/void, castle/castling,
//! queen/promote), misspelt words read as the word of our text they are a
//! slip of, and the words of questions players asked before added to the
//! passages that answered them (`asked/`). A question is answered by the
//! passage that scores best in its game, quoted as we wrote it; a passage
//! about a piece the question names counts a little more.
//!
//! Why BM25 by hand and not a search engine crate: the corpus is a few
//! hundred passages known at build time, so an index is a few maps built
//! on first use (well under a millisecond to search); `tantivy` would add
//! a large dependency tree and an on-disk index for the same ranking.

use super::spelling::Vocabulary;
use super::topics::{self, Topic};
use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashMap;
use std::sync::OnceLock;
use voidmate_rules::GameKind;

/// One passage of our rules text.
#[derive(Debug)]
pub struct Passage {
    /// The game it belongs to (its base game: Suicide Void Chess's
    /// promotion-wins form shares its text).
    pub game: GameKind,
    /// Where it comes from, for players: a help topic's title, or the
    /// game's rules page and the heading it stands under.
    pub title: String,
    /// The words, as we wrote them (Markdown emphasis removed).
    pub text: String,
    /// The help topic it is, if it is one.
    pub topic: Option<&'static Topic>,
    /// The rules page's heading, as a slug (`decisions-where-the-page-is-silent`),
    /// or the topic's key.
    pub section: String,
    /// A topic whose diagram illustrates it: its own, or the topic of its
    /// game whose key is its section.
    pub diagram: Option<&'static Topic>,
    pub(super) terms: HashMap<String, f32>,
    pub(super) length: f32,
    /// The stems of its title (the game's name left out): what it is about.
    about: Vec<String>,
}

/// What a search found: the best passage, and the next one when it scores
/// nearly as well.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub best: &'static Passage,
    pub also: Option<&'static Passage>,
}

/// The rules page of a game (one arm per game: a new game needs one).
fn rules_page(kind: GameKind) -> &'static str {
    match kind.base() {
        GameKind::Standard => include_str!("../../../docs/rules/standard.md"),
        GameKind::Void => include_str!("../../../docs/rules/void.md"),
        GameKind::Antichess => include_str!("../../../docs/rules/antichess.md"),
        GameKind::SuicideVoid | GameKind::SuicideVoidPromotionWins => {
            include_str!("../../../docs/rules/suicide-void.md")
        }
        GameKind::Chess99 => include_str!("../../../docs/rules/chess99.md"),
        GameKind::BlackHoles => include_str!("../../../docs/rules/black-holes.md"),
        GameKind::Super16 => include_str!("../../../docs/rules/super16.md"),
        // A game read from a file is described by its file (`defined`).
        GameKind::Defined(_) => "",
    }
}

/// Words that carry nothing about a rule.
const STOPWORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "any", "are", "as", "at", "be", "bot", "but", "by", "can",
    "chess", "could", "did", "do", "does", "doing", "explain", "for", "from", "game", "get",
    "gets", "happen", "happens", "hey", "how", "i", "if", "in", "is", "it", "its", "just", "know",
    "let", "me", "mean", "means", "my", "of", "ok", "on", "or", "please", "rule", "rules", "s",
    "should", "so", "someone", "tell", "than", "that", "the", "then", "there", "this", "to", "u",
    "what", "whats", "when", "where", "which", "who", "why", "will", "with", "would", "you",
    "your", "still", "now", "here", "really", "actually", "even", "also", "they", "them", "their",
    "we", "our", "got", "anyway",
];

/// Words players use for ours: each word's stem is read as these stems,
/// each with a weight (1 for the same thing, less for a near one).
const SYNONYMS: &[(&str, &[(&str, f32)])] = &[
    ("take", &[("captur", 1.0)]),
    ("taken", &[("captur", 1.0)]),
    ("took", &[("captur", 1.0)]),
    ("eat", &[("captur", 1.0)]),
    ("kill", &[("captur", 1.0)]),
    ("hole", &[("hole", 1.0), ("void", 0.6)]),
    ("void", &[("void", 1.0), ("hole", 0.6)]),
    ("gap", &[("void", 0.8), ("hole", 0.8)]),
    ("pit", &[("void", 0.8), ("hole", 0.8)]),
    ("queen", &[("queen", 1.0), ("promot", 0.8)]),
    ("ep", &[("passant", 1.0)]),
    ("mate", &[("checkmat", 1.0)]),
    ("tie", &[("draw", 1.0)]),
    ("fell", &[("fall", 1.0)]),
    ("fallen", &[("fall", 1.0)]),
    // Dropping into the void (Void Chess) or dropping a hole (Black Holes).
    ("drop", &[("drop", 1.0), ("fall", 0.5)]),
    ("sit", &[("stand", 0.8), ("stay", 0.6)]),
    ("stay", &[("stay", 1.0), ("stand", 0.6)]),
    ("lost", &[("lost", 1.0), ("lose", 1.0)]),
    ("lose", &[("lose", 1.0), ("lost", 1.0)]),
    ("leap", &[("jump", 1.0)]),
    ("hop", &[("jump", 1.0)]),
    ("go", &[("move", 0.7)]),
    ("goe", &[("move", 0.7)]),
    ("went", &[("move", 0.7)]),
    ("floor", &[("tile", 0.8)]),
    ("cell", &[("squar", 0.8)]),
    ("squar", &[("squar", 1.0), ("tile", 0.5)]),
    ("tile", &[("tile", 1.0), ("squar", 0.5)]),
    // "How long" asks for time, not for long castling.
    ("long", &[("long", 0.3)]),
    ("must", &[("must", 1.0), ("compulsori", 0.8)]),
    ("dead", &[("insuffici", 0.6), ("draw", 0.6)]),
    ("crack", &[("crack", 1.0), ("unstabl", 0.8)]),
    (
        "crumbl",
        &[("crumbl", 1.0), ("unstabl", 0.8), ("collaps", 0.8)],
    ),
    ("red", &[("unstabl", 0.6)]),
    ("weak", &[("unstabl", 0.6)]),
    ("weaken", &[("unstabl", 0.8)]),
    ("die", &[("lost", 0.7), ("fall", 0.7), ("destroy", 0.7)]),
    ("vanish", &[("lost", 0.7), ("destroy", 0.7), ("remov", 0.7)]),
    ("enough", &[("insuffici", 0.8)]),
    ("forc", &[("forc", 1.0), ("compulsori", 0.8), ("must", 0.6)]),
    ("oblig", &[("compulsori", 0.8), ("must", 0.6)]),
    ("push", &[("advanc", 0.8)]),
    ("through", &[("through", 1.0), ("relativist", 0.6)]),
    ("type", &[("notat", 0.6), ("written", 0.6), ("write", 0.6)]),
    ("cap", &[("limit", 0.8)]),
    ("start", &[("start", 1.0), ("set", 0.5)]),
    ("setup", &[("set", 1.0), ("start", 0.5)]),
    ("begin", &[("start", 1.0)]),
    // Players' words for what our text says otherwise (issue 53).
    ("win", &[("win", 1.0), ("goal", 0.7), ("end", 0.7)]),
    ("won", &[("win", 1.0), ("goal", 0.7), ("end", 0.7)]),
    ("lose", &[("lose", 1.0), ("lost", 1.0), ("end", 0.5)]),
    ("reprogram", &[("program", 1.0), ("reprogram", 1.0)]),
    ("jump", &[("jump", 1.0), ("pass", 0.6)]),
    ("skip", &[("jump", 0.8), ("pass", 0.6)]),
    ("destroy", &[("destroy", 1.0), ("fall", 0.6), ("lost", 0.6)]),
    (
        "disappear",
        &[
            ("lost", 0.7),
            ("destroy", 0.7),
            ("gone", 0.7),
            ("close", 0.5),
        ],
    ),
    ("gone", &[("gone", 1.0), ("lost", 0.7)]),
    ("broken", &[("unstabl", 0.7), ("void", 0.6)]),
    (
        "break",
        &[("unstabl", 0.6), ("collaps", 0.6), ("break", 1.0)],
    ),
    ("fix", &[("heal", 0.8), ("normal", 0.6)]),
    ("repair", &[("heal", 0.8), ("normal", 0.6)]),
    ("restor", &[("heal", 0.8), ("normal", 0.6)]),
    ("worth", &[("valu", 1.0)]),
    ("turn", &[("turn", 1.0), ("becom", 0.6)]),
    ("becom", &[("becom", 1.0), ("promot", 0.5)]),
    ("option", &[("option", 1.0), ("choic", 0.8)]),
    ("choic", &[("choic", 1.0), ("option", 0.6)]),
    ("put", &[("place", 0.8), ("drop", 0.6)]),
    ("allow", &[("may", 0.6), ("legal", 0.6)]),
];

/// Whether a word carries nothing about a rule (`the`, `how`, `chess`).
pub fn says_nothing(word: &str) -> bool {
    STOPWORDS.contains(&word.to_lowercase().as_str())
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// One word's stem, as the index keeps it.
pub fn stem(word: &str) -> String {
    stemmer().stem(&word.to_lowercase()).into_owned()
}

/// The stems of `text`'s words, without the words that say nothing.
pub(super) fn stems(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| stemmer().stem(&w).into_owned())
}

/// Phrases players use for one of our words.
const PHRASES: &[(&str, &str)] = &[
    ("have to", "must"),
    ("has to", "must"),
    ("need to", "must"),
    ("not enough", "insufficient"),
    ("turn into", "become"),
    ("turns into", "becomes"),
    ("turned into", "became"),
];

/// The stems a question's word stands for (see [`Vocabulary::read`]).
fn read_word(idx: &Index, word: &str) -> Vec<String> {
    idx.vocabulary
        .read(word, |stem| SYNONYMS.iter().any(|(w, _)| *w == stem))
}

/// A question's terms with their weights, synonyms read.
fn query_terms(question: &str) -> HashMap<String, f32> {
    let idx = index();
    let mut question = question.to_lowercase();
    for (phrase, word) in PHRASES {
        question = question.replace(phrase, word);
    }
    let words: Vec<&str> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !STOPWORDS.contains(w))
        .collect();
    let mut terms: HashMap<String, f32> = HashMap::new();
    for stem in words.iter().flat_map(|w| read_word(idx, w)) {
        let read: Vec<(String, f32)> = match SYNONYMS.iter().find(|(w, _)| *w == stem) {
            Some((_, means)) => means.iter().map(|(s, w)| (s.to_string(), *w)).collect(),
            None => vec![(stem, 1.0)],
        };
        for (term, weight) in read {
            let t = terms.entry(term).or_insert(0.0);
            *t = t.max(weight);
        }
    }
    terms
}

/// Markdown to plain words: emphasis marks gone, lines joined.
fn plain(block: &str) -> String {
    block
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
        .replace("**", "")
}

/// `Decisions where the page is silent` -> `decisions-where-the-page-is-silent`.
pub fn slug(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The blocks of a rules page, each with its heading: paragraphs, and each
/// top-level list item on its own. Blocks about our code (source files,
/// perft counts, the seed pages) are left out.
fn blocks(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut block: Vec<&str> = Vec::new();
    let mut flush = |heading: &str, block: &mut Vec<&str>| {
        let text = plain(&block.join("\n"));
        block.clear();
        let about_code = text.contains(".rs")
            || text.contains("shared/seeds")
            || text.to_lowercase().contains("perft");
        if !text.is_empty() && !about_code {
            out.push((heading.to_string(), text));
        }
    };
    for line in page.lines() {
        if let Some(h) = line.strip_prefix('#') {
            flush(&heading, &mut block);
            heading = h.trim_start_matches('#').trim().to_string();
            continue;
        }
        let item = line.starts_with("- ")
            || line
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if line.trim().is_empty() || item {
            flush(&heading, &mut block);
        }
        if !line.trim().is_empty() {
            block.push(line);
        }
    }
    flush(&heading, &mut block);
    out
}

/// At most this many characters of a passage are quoted.
const QUOTED: usize = 1200;

/// `text`, cut after a sentence if it is longer than [`QUOTED`].
fn quoted(text: &str) -> String {
    if text.chars().count() <= QUOTED {
        return text.to_string();
    }
    let head: String = text.chars().take(QUOTED).collect();
    match head.rfind(". ") {
        Some(i) => format!("{} …", &head[..=i]),
        None => format!("{head}…"),
    }
}

struct Index {
    passages: Vec<Passage>,
    /// In how many passages each term appears.
    df: HashMap<String, f32>,
    mean_length: f32,
    /// Every word of our text: what a misspelt word is read as.
    vocabulary: Vocabulary,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(build)
}

fn passage(
    game: GameKind,
    title: String,
    text: String,
    topic: Option<&'static Topic>,
    section: String,
) -> Passage {
    let mut terms: HashMap<String, f32> = HashMap::new();
    // The title's words count twice: they say what the passage is about;
    // the game's own name in it says nothing (every passage of the game
    // has it), and would make `void` find every Void Chess passage.
    let mut about = title.to_lowercase();
    for name in [game.title(), game.name()] {
        about = about.replace(&name.to_lowercase(), " ");
    }
    let about_stems: Vec<String> = stems(&about).collect();
    for (words, weight) in [(about.as_str(), 2.0), (text.as_str(), 1.0)] {
        for s in stems(words) {
            *terms.entry(s).or_insert(0.0) += weight;
        }
    }
    if let Some(t) = topic {
        for k in t.keywords {
            for s in stems(k) {
                *terms.entry(s).or_insert(0.0) += 1.0;
            }
        }
    }
    let length = terms.values().sum();
    let diagram = topic.filter(|t| t.diagram.is_some()).or_else(|| {
        topics::topics_of(game)
            .into_iter()
            .find(|t| t.key == section && t.diagram.is_some())
    });
    Passage {
        game,
        title,
        text,
        topic,
        section,
        diagram,
        terms,
        length,
        about: about_stems,
    }
}

fn build() -> Index {
    let mut passages = Vec::new();
    for t in topics::all_topics() {
        passages.push(passage(
            t.variant,
            t.title.to_string(),
            t.text.to_string(),
            Some(t),
            t.key.to_string(),
        ));
    }
    for kind in GameKind::ALL.into_iter().filter(|k| k.base() == *k) {
        for (heading, text) in blocks(rules_page(kind)) {
            let title = format!("{} rules: {heading}", kind.title());
            passages.push(passage(kind, title, quoted(&text), None, slug(&heading)));
        }
    }
    super::asked::learn(&mut passages);
    let mut df: HashMap<String, f32> = HashMap::new();
    for p in &passages {
        for t in p.terms.keys() {
            *df.entry(t.clone()).or_insert(0.0) += 1.0;
        }
    }
    let mean_length = passages.iter().map(|p| p.length).sum::<f32>() / passages.len().max(1) as f32;
    let mut vocabulary = Vocabulary::default();
    for p in &passages {
        let keywords = p.topic.map(|t| t.keywords.join(" ")).unwrap_or_default();
        for text in [p.title.as_str(), p.text.as_str(), keywords.as_str()] {
            vocabulary.add(text, |w| STOPWORDS.contains(&w));
        }
    }
    Index {
        passages,
        df,
        mean_length,
        vocabulary,
    }
}

/// BM25's constants: the usual k1, and no length normalisation (b = 0).
/// Our passages are paragraphs of a few sentences, and normalising by
/// length only pushed the help topics, which are written as whole answers,
/// below one-line list items that share a word with the question (on the
/// question set, `src/help/asked/issue43.txt`: 76 of 98 right with the
/// usual b = 0.75, 88 with b = 0).
const K1: f32 = 1.2;
const B: f32 = 0.0;
/// The help topics are written as answers to questions: they count a
/// little more than a paragraph of a rules page (89 of 98 against 88).
const TOPIC_PRIOR: f32 = 1.1;

/// A second passage is suggested when it scores at least this share of
/// the best one.
const CLOSE: f32 = 0.85;

/// A question that names a piece is about that piece: a passage whose
/// title names it counts this much more (`my king is on a cracked square,
/// must I move it?` is the king's passage, not the tiles').
const SUBJECT: f32 = 1.3;

/// The stems of the pieces' names, which make a question's subject.
fn piece_stems() -> &'static [String] {
    static PIECES: OnceLock<Vec<String>> = OnceLock::new();
    PIECES.get_or_init(|| {
        voidmate_rules::Role::ALL
            .iter()
            .flat_map(|r| stems(r.name()).collect::<Vec<_>>())
            .collect()
    })
}

/// The pieces a question is about: those it names.
fn subjects(query: &HashMap<String, f32>) -> Vec<&str> {
    query
        .keys()
        .filter(|t| piece_stems().contains(t))
        .map(String::as_str)
        .collect()
}

impl Index {
    fn score(&self, p: &Passage, query: &HashMap<String, f32>, subjects: &[&str]) -> f32 {
        let about = subjects.iter().any(|s| p.about.iter().any(|a| a == s));
        let boost = if about { SUBJECT } else { 1.0 };
        boost * self.bm25(p, query)
    }

    fn bm25(&self, p: &Passage, query: &HashMap<String, f32>) -> f32 {
        let n = self.passages.len() as f32;
        query
            .iter()
            .filter_map(|(term, weight)| {
                let tf = *p.terms.get(term)?;
                let df = self.df.get(term).copied().unwrap_or(0.0);
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                let norm =
                    tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * p.length / self.mean_length));
                let prior = if p.topic.is_some() { TOPIC_PRIOR } else { 1.0 };
                Some(weight * idf * norm * prior)
            })
            .sum()
    }
}

/// The passages of `game` (every game's if `None`) that answer `question`
/// best; `None` when no passage shares a word with it.
pub fn search(question: &str, game: Option<GameKind>) -> Option<Hit> {
    let idx = index();
    let query = query_terms(question);
    if query.is_empty() {
        return None;
    }
    let subjects = subjects(&query);
    let mut scored: Vec<(f32, &'static Passage)> = idx
        .passages
        .iter()
        .filter(|p| game.is_none_or(|g| p.game == g.base()))
        .map(|p| (idx.score(p, &query, &subjects), p))
        .filter(|(s, _)| *s > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (best_score, best) = *scored.first()?;
    let also = scored
        .get(1)
        .filter(|(s, _)| *s >= CLOSE * best_score)
        .map(|(_, p)| *p);
    Some(Hit { best, also })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_split_into_paragraphs_and_items_under_their_headings() {
        let page = "# Game (`g`)\n\nIntro line one\nline two.\n\n## Some Rules (ours)\n\n1. **First** rule\n   goes on.\n2. Second rule.\n- A dash item.\n\nCode in `x.rs` is left out.\n";
        let b = blocks(page);
        assert_eq!(
            b,
            [
                (
                    "Game (`g`)".to_string(),
                    "Intro line one line two.".to_string()
                ),
                (
                    "Some Rules (ours)".to_string(),
                    "1. First rule goes on.".to_string()
                ),
                (
                    "Some Rules (ours)".to_string(),
                    "2. Second rule.".to_string()
                ),
                (
                    "Some Rules (ours)".to_string(),
                    "- A dash item.".to_string()
                ),
            ]
        );
        assert_eq!(slug("Some Rules (ours)"), "some-rules-ours");
        assert_eq!(
            slug("9. Void fortress and siege"),
            "9-void-fortress-and-siege"
        );
    }

    #[test]
    fn every_game_has_passages_from_its_page_and_its_help() {
        for kind in GameKind::ALL.into_iter().filter(|k| k.base() == *k) {
            let mine: Vec<_> = index().passages.iter().filter(|p| p.game == kind).collect();
            assert!(mine.iter().any(|p| p.topic.is_some()), "{kind:?}");
            assert!(mine.iter().any(|p| p.topic.is_none()), "{kind:?}");
            assert!(mine.iter().all(|p| p.text.chars().count() <= QUOTED + 2));
        }
    }

    #[test]
    fn misspelt_and_run_together_words_are_read_as_ours() {
        let read = |w: &str| read_word(index(), w);
        assert_eq!(read("minster"), ["minist"]);
        assert_eq!(read("sqaure"), ["squar"]);
        assert_eq!(read("casteling"), read("castling"));
        assert_eq!(read("promtion"), read("promotion"));
        assert_eq!(read("promoshun"), read("promotion"));
        assert_eq!(read("unstabel"), read("unstable"));
        assert!(read("enpassant").contains(&"passant".to_string()));
        assert!(read("enpasant").contains(&"passant".to_string()));
        // Known words, short words and numbers are left alone.
        assert_eq!(read("king"), ["king"]);
        assert_eq!(read("kng"), ["kng"]);
        assert_eq!(read("16x16"), ["16x16"]);
        assert_eq!(read("xyzzyq"), ["xyzzyq"]);
        // Multi-byte, empty and oversized words are read without a panic,
        // a huge one left as it is.
        let huge = "ж".repeat(5000);
        assert_eq!(read(&huge).len(), 1);
        for odd in ["", "ñandú", "日本語の言葉", "🙂🙂🙂🙂🙂🙂"] {
            let _ = read(odd);
        }
    }

    #[test]
    fn synonyms_read_players_words_as_ours() {
        let q = query_terms("Can I take the queen with my pawn?");
        assert_eq!(q.get("captur"), Some(&1.0));
        assert_eq!(q.get("promot"), Some(&0.8));
        assert!(!q.contains_key("can") && !q.contains_key("the"));
        assert!(query_terms("   ").is_empty());
        assert!(search("日本語 ♞", None).is_none());
        assert!(search("xyzzy", Some(GameKind::Void)).is_none());
    }
}
