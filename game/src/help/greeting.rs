//! What a newcomer says first: a greeting, a thank-you, "what can you do?"
//! get a short, friendly answer that names where to start; a misspelt
//! command word gets the word it most likely meant.

use crate::command::words::WORDS;

/// The answer to a greeting or a first question.
pub const INTRO: &str = "Hello! I run chess-variant games here. `challenge @someone` starts a game (Void Chess unless you name another: `variants` lists them; `challenge @voidmate` plays me), `rules` answers questions about a game (or just ask: `how does the minister move?`), `puzzle` gives you a puzzle from this server's games, and `help` lists everything.";

/// Words of greeting and thanks, alone or with the bot's name.
const GREETINGS: &[&str] = &[
    "hi",
    "hii",
    "hello",
    "helo",
    "hallo",
    "hey",
    "heya",
    "hiya",
    "yo",
    "howdy",
    "greetings",
    "thanks",
    "thank",
    "thx",
    "ty",
    "cheers",
    "gm",
    "morning",
    "evening",
    "good",
    "you",
    "voidmate",
    "bot",
    "there",
    "all",
    "everyone",
    "so",
    "much",
    "again",
];

/// Questions that ask what the bot is for.
const FIRST_QUESTIONS: &[&str] = &[
    "what can you do",
    "what do you do",
    "what are you",
    "who are you",
    "how do i start a game",
    "how do i start",
    "how do i play",
    "how do i use you",
    "how does this work",
    "how do you work",
    "how to play",
    "how to start",
    "what are your commands",
];

/// Whether `text` is a greeting, a thank-you, or a question about what the
/// bot does (not about a game's rules).
pub fn first_contact(text: &str) -> bool {
    let plain: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c.is_whitespace() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = plain.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return false;
    }
    let joined = words.join(" ");
    if FIRST_QUESTIONS
        .iter()
        .any(|q| joined == *q || joined.strip_prefix("voidmate ") == Some(q))
    {
        return true;
    }
    let greets = |w: &&str| {
        matches!(
            *w,
            "hi" | "hii"
                | "hello"
                | "helo"
                | "hallo"
                | "hey"
                | "heya"
                | "hiya"
                | "yo"
                | "howdy"
                | "greetings"
                | "thanks"
                | "thank"
                | "thx"
                | "ty"
                | "cheers"
                | "gm"
        )
    };
    words.iter().any(greets) && words.iter().all(|w| GREETINGS.contains(w))
}

/// The command word `word` most likely meant (one letter off or two letters
/// swapped; two such edits in a word of seven letters or more), if any is
/// that close.
pub fn did_you_mean(word: &str) -> Option<&'static str> {
    let word = word.to_lowercase();
    if word.chars().count() < 3 || word.chars().count() > 20 {
        return None;
    }
    let most = if word.chars().count() <= 6 { 1 } else { 2 };
    WORDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .map(|w| (strsim::damerau_levenshtein(&word, w), w))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greetings_and_first_questions_are_first_contact() {
        for yes in [
            "hi",
            "Hello voidmate!",
            "thanks!",
            "thank you so much",
            "hey bot 👋",
            "what can you do?",
            "How do I start a game?",
            "who are you",
        ] {
            assert!(first_contact(yes), "{yes}");
        }
        for no in [
            "e4",
            "how does the minister move?",
            "thanks for the game, good luck in the tournament",
            "hi can the minister cross a void",
            "challenge @bob",
            "",
        ] {
            assert!(!first_contact(no), "{no}");
        }
    }

    #[test]
    fn a_misspelt_command_finds_the_word_meant() {
        assert_eq!(did_you_mean("acept"), Some("accept"));
        assert_eq!(did_you_mean("resing"), Some("resign"));
        assert_eq!(did_you_mean("borad"), Some("board"));
        assert_eq!(did_you_mean("RESIGN"), Some("resign"));
        assert_eq!(did_you_mean("puzle"), Some("puzzle"));
        assert_eq!(did_you_mean("dance"), None);
        assert_eq!(did_you_mean("xy"), None);
        assert_eq!(did_you_mean(&"ж".repeat(500)), None);
    }
}
