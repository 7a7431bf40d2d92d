//! The one table of command words: the parser reads commands by it, `help`
//! is written from it, and the Discord adapter's slash commands are checked
//! against it, so a command cannot be added to one and forgotten in another.

/// What a command word asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    Challenge,
    Accept,
    Decline,
    Move,
    Board,
    Moves,
    Resign,
    Draw,
    Claim,
    Undo,
    Games,
    History,
    Pgn,
    Replay,
    Analysis,
    Variants,
    Rules,
    Program,
    Colour,
    Settings,
    Direct,
    Help,
    Rating,
    Leaderboard,
    Profile,
    Rematch,
    Abort,
    Tournament,
    Standings,
    Puzzle,
}

/// One command: its word, the other words that mean it, how to write it,
/// and the slash commands that run it on Discord.
#[derive(Debug)]
pub struct CommandWord {
    pub word: Word,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// Its arguments, as `help` shows them.
    pub usage: &'static str,
    pub summary: &'static str,
    /// Discord slash commands that run it (none: chat only).
    pub slash: &'static [&'static str],
}

pub static WORDS: &[CommandWord] = &[
    CommandWord {
        word: Word::Challenge,
        name: "challenge",
        aliases: &["play"],
        usage: "@user [variant] [time] [white|black|first|second] [rated|casual] [level] [promotion-wins] [symmetric|private] [thread|no-thread]",
        summary: "invite someone (`challenge @bob void 3+2`; time: 1+0, 3+2, 5+0, 10+5, 15+10, 30+30 or 3d; rated unless `casual`, see `help rating`), or me (`challenge @voidmate void 3`, level 1-5); Super Chess may reprogram its pieces (`help program`); on Discord, `thread` plays the game in a thread of its own",
        slash: &["challenge"],
    },
    CommandWord {
        word: Word::Accept,
        name: "accept",
        aliases: &[],
        usage: "[@user]",
        summary: "accept a challenge waiting for you here",
        slash: &["accept"],
    },
    CommandWord {
        word: Word::Decline,
        name: "decline",
        aliases: &["cancel", "withdraw"],
        usage: "[@user]",
        summary: "decline a challenge, or withdraw your own",
        slash: &["decline"],
    },
    CommandWord {
        word: Word::Move,
        name: "move",
        aliases: &["m"],
        usage: "<move>",
        summary: "play a move: `move e4`, `move Nf3`, `move e8=M` (or just `e4`)",
        slash: &["move"],
    },
    CommandWord {
        word: Word::Board,
        name: "board",
        aliases: &["show"],
        usage: "[zoom square]",
        summary: "show the position; `board zoom h9` looks closer, at an 8x8 window around h9",
        slash: &["board"],
    },
    CommandWord {
        word: Word::Moves,
        name: "moves",
        aliases: &[],
        usage: "[square]",
        summary: "show legal moves, all or of one piece: `moves g1`",
        slash: &["moves"],
    },
    CommandWord {
        word: Word::Resign,
        name: "resign",
        aliases: &[],
        usage: "",
        summary: "give up the game",
        slash: &["resign"],
    },
    CommandWord {
        word: Word::Draw,
        name: "draw",
        aliases: &[],
        usage: "[accept|decline]",
        summary: "offer a draw, or answer one (an offer lapses after the next move)",
        slash: &["draw"],
    },
    CommandWord {
        word: Word::Claim,
        name: "claim",
        aliases: &[],
        usage: "[move]",
        summary: "Chess 99: claim a draw (both kings attacked; or after 99 moves, with your move)",
        slash: &["claim"],
    },
    CommandWord {
        word: Word::Undo,
        name: "undo",
        aliases: &["takeback"],
        usage: "[accept|decline]",
        summary: "ask to take back your last move (on your turn, with the reply to it), or answer such a request",
        slash: &["undo"],
    },
    CommandWord {
        word: Word::Games,
        name: "games",
        aliases: &[],
        usage: "[finished]",
        summary: "games and challenges in this channel; `games finished` (or `games all`): the last 10 games to end here",
        slash: &["games"],
    },
    CommandWord {
        word: Word::History,
        name: "history",
        aliases: &[],
        usage: "",
        summary: "the moves so far",
        slash: &["history"],
    },
    CommandWord {
        word: Word::Replay,
        name: "replay",
        aliases: &["gif"],
        usage: "",
        summary: "an animated replay of the game, finished or not (a GIF)",
        slash: &["replay"],
    },
    CommandWord {
        word: Word::Analysis,
        name: "analysis",
        aliases: &["review", "analyse", "analyze"],
        usage: "",
        summary: "the engine's review of a finished game: each side's accuracy, the mistakes and better moves, an evaluation graph (posted when done)",
        slash: &["analysis"],
    },
    CommandWord {
        word: Word::Pgn,
        name: "pgn",
        aliases: &[],
        usage: "",
        summary: "the game as PGN (on Discord: `/history pgn:True`)",
        slash: &[],
    },
    CommandWord {
        word: Word::Rating,
        name: "rating",
        aliases: &["ratings", "elo"],
        usage: "[@user] [game]",
        summary: "ratings in this server or room: game, pool, rating (`?` while provisional), deviation, rated games",
        slash: &["rating"],
    },
    CommandWord {
        word: Word::Leaderboard,
        name: "leaderboard",
        aliases: &["top", "ladder"],
        usage: "[game] [live|correspondence]",
        summary: "the best players here in a game and pool (at least 2 rated games, deviation at most 75, a rated game in the last 30 days)",
        slash: &["leaderboard"],
    },
    CommandWord {
        word: Word::Profile,
        name: "profile",
        aliases: &["stats"],
        usage: "[@user]",
        summary: "games played, won, drawn and lost per game, the current streak, the best rating, the last 5 games",
        slash: &["profile"],
    },
    CommandWord {
        word: Word::Rematch,
        name: "rematch",
        aliases: &[],
        usage: "[#N]",
        summary: "after a game, challenge the same opponent to the same game, time control and options, sides swapped",
        slash: &["rematch"],
    },
    CommandWord {
        word: Word::Abort,
        name: "abort",
        aliases: &[],
        usage: "[#N]",
        summary: "call off your game before both sides have moved: no result, not rated",
        slash: &["abort"],
    },
    CommandWord {
        word: Word::Variants,
        name: "variants",
        aliases: &[],
        usage: "",
        summary: "the games I play",
        slash: &["variants"],
    },
    CommandWord {
        word: Word::Rules,
        name: "rules",
        aliases: &[],
        usage: "[variant] [topic or question]",
        summary: "how a game works: `rules minister`, `rules can the minister cross a void?`, or just ask me: `how does the minister move?`",
        slash: &["rules"],
    },
    CommandWord {
        word: Word::Program,
        name: "program",
        aliases: &["programme", "reprogram"],
        usage: "[#N] [program]",
        summary: "Super Chess: write your symmetric challenge's roster, or send your private program in a direct message: `program #4 N: jump 2,1 1,2; R: slide 1,0`. Vectors are rank,file from your side (rank towards the opponent, file towards the p-file); `step` goes exactly there along a clear line, `slide` repeats the vector over empty squares, `jump` goes there over anything; `X: default` or `default` keeps pieces as they are",
        slash: &["program", "roster"],
    },
    CommandWord {
        word: Word::Colour,
        name: "colour",
        aliases: &["color"],
        usage: "[name]",
        summary: "your pieces' colour in your game here: white, black, red, blue, green, gold, silver, purple, orange, pink, teal or brown",
        slash: &["colour"],
    },
    CommandWord {
        word: Word::Settings,
        name: "settings",
        aliases: &["set"],
        usage: "[bare-moves on|off] [theme classic|high-contrast] [threads on|off] [replays on|off] [daily-puzzle HH:MM|off] [flip auto|white|black]",
        summary: "this channel's settings (`threads on`: on Discord, a thread for each new game; `replays off`: no animated replay after each game; `daily-puzzle 09:00`: a daily puzzle, UTC), and your boards' side (`flip white`)",
        slash: &["settings"],
    },
    CommandWord {
        word: Word::Direct,
        name: "dm",
        aliases: &["direct"],
        usage: "",
        summary: "open a direct conversation with me, for private programs and the moves of private games",
        slash: &[],
    },
    CommandWord {
        word: Word::Tournament,
        name: "tournament",
        aliases: &["tourney"],
        usage: "[T3] [create|join|leave|withdraw|rejoin|here|info|list|pairings|standings|games|history|start|pause|resume|cancel|kick|forbid|round next]",
        summary: "Swiss and round-robin tournaments over days: `tournament create swiss void 3d`, `tournament join` (`help tournament`)",
        slash: &["tournament"],
    },
    CommandWord {
        word: Word::Standings,
        name: "standings",
        aliases: &[],
        usage: "[T3]",
        summary: "the standings of this channel's tournament",
        slash: &[],
    },
    CommandWord {
        word: Word::Puzzle,
        name: "puzzle",
        aliases: &["puzzles", "tactic"],
        usage: "[game] [easy|hard|RATING] | hint | solution | skip | daily",
        summary: "a puzzle from this server's games, rated (`help puzzle`)",
        slash: &["puzzle"],
    },
    CommandWord {
        word: Word::Help,
        name: "help",
        aliases: &[],
        usage: "[command]",
        summary: "this list, or one command",
        slash: &["help"],
    },
];

/// The command a word names (its name or an alias, any case).
pub fn lookup(word: &str) -> Option<&'static CommandWord> {
    let word = word.to_ascii_lowercase();
    WORDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word.as_str()))
}

impl CommandWord {
    /// Its line in `help`: `name usage  summary`.
    pub fn help_line(&self) -> String {
        let call = if self.usage.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.usage)
        };
        let aliases = if self.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", self.aliases.join(", "))
        };
        // At least two spaces between the columns, which chat adapters
        // read to lay them out as a table.
        format!("{call:<35}  {}{aliases}", self.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_and_alias_names_one_command() {
        let mut seen = Vec::new();
        for c in WORDS {
            for w in std::iter::once(&c.name).chain(c.aliases) {
                assert!(!seen.contains(w), "`{w}` names two commands");
                seen.push(w);
                assert_eq!(lookup(w).map(|f| f.word), Some(c.word));
                assert_eq!(lookup(&w.to_uppercase()).map(|f| f.word), Some(c.word));
            }
        }
        assert!(lookup("dance").is_none());
    }
}
