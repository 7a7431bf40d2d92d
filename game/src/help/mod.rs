//! Help: the command list, and the rules explained per variant and topic, in
//! our own words, with a diagram where a picture says it better. The
//! topics are in `topics`, the index of every passage that answers a
//! question in a player's words in `passages`; this module decides which
//! one a question comes to.

mod asked;
pub mod defined;
mod greeting;
pub mod passages;
mod spelling;
mod topics;

pub use greeting::{did_you_mean, first_contact, INTRO};
pub use topics::{all_topics, topics_of, Diagram, Topic};
use voidmate_rules::GameKind;

/// What a `rules` question comes to.
#[derive(Debug, Clone, Copy)]
pub enum Found {
    /// The topic named by its key (`rules void castling`).
    Topic(&'static Topic),
    /// A game named and nothing more: its overview and topics.
    Game(GameKind),
    /// A question in the player's words: the passage of our text that
    /// answers it best (and a second one that scores nearly as well).
    Passage(passages::Hit),
    /// Nothing about it; `game` is the game it was asked about.
    Nothing(GameKind),
}

/// Words that name a game anywhere in a question, beside the games' names
/// (`GameKind::from_name`): a one-word alias that is also an everyday word
/// ("holes", "chess", "losing") names its game only at the start.
const GAME_WORDS: &[(&str, GameKind)] = &[
    ("suicide", GameKind::SuicideVoid),
    ("super", GameKind::Super16),
    ("relativistic", GameKind::BlackHoles),
    ("orthodox", GameKind::Standard),
    ("giveaway", GameKind::Antichess),
];

/// Answers a `rules` question: the game named in it (at the start, or by
/// an unmistakable name anywhere), else `context` (the game being played
/// where it was asked), else Void Chess; then that game's topic named by
/// its key, or else the passage of its rules text that answers the
/// question best (`passages`). A question about nothing in that
/// game (`rules paladin` in a Void Chess channel) looks through every game
/// unless a game was named.
pub fn answer(query: &str, context: Option<GameKind>) -> Found {
    let mut words: Vec<String> = query
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect();
    // Inside a game, a word that is one of its topics is that topic, even
    // when it also names a game (`rules void` in Suicide Void Chess).
    if let Some(kind) = context {
        let joined = words.join("-");
        if let Some(t) = topics_of(kind).into_iter().find(|t| t.key == joined) {
            return Found::Topic(t);
        }
    }
    let named = take_game(&mut words);
    let game = named.or(context).unwrap_or(GameKind::DEFAULT).base();
    // A topic named by its key: `rules void castling`, `rules minister-blocked`;
    // a key of two words or more anywhere in a question names it too
    // (`what does promotion wins mean?`).
    let joined = words.join("-");
    let stemmed = |text: &str| {
        let stems: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(passages::stem)
            .collect();
        format!("-{}-", stems.join("-"))
    };
    let said = stemmed(&joined);
    if let Some(t) = topics_of(game)
        .into_iter()
        .find(|t| t.key == joined || (t.key.contains('-') && said.contains(&stemmed(t.key))))
    {
        return Found::Topic(t);
    }
    // Only words that say nothing left (`rules standard chess`): the game.
    if words.iter().all(|w| passages::says_nothing(w)) {
        return match named {
            Some(kind) => Found::Game(kind),
            None => Found::Game(game),
        };
    }
    let question = words.join(" ");
    if let Some(hit) = passages::search(&question, Some(game)) {
        return Found::Passage(hit);
    }
    // A piece of this game that its text does not name: the overview.
    let piece_here = words.iter().any(|w| {
        voidmate_rules::Role::ALL
            .iter()
            .any(|r| r.name() == w && game.rules().letter(*r).is_some())
    });
    if piece_here {
        return topics_of(game)
            .first()
            .map_or(Found::Nothing(game), |t| Found::Topic(t));
    }
    if named.is_none() {
        if let Some(hit) = passages::search(&question, None) {
            return Found::Passage(hit);
        }
    }
    Found::Nothing(game)
}

/// Whether a line that is no command is a question to answer from the
/// rules: it starts with a question word (`how does the minister move`),
/// or it has three words or more and ends with `?`.
pub fn is_question(text: &str) -> bool {
    const ASKING: &[&str] = &[
        "how", "what", "whats", "what's", "why", "when", "where", "which", "who", "can", "could",
        "may", "does", "do", "is", "are", "should", "must", "if",
    ];
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    let first = first.to_lowercase();
    let first = first.trim_end_matches([',', '?']);
    (words.len() >= 2 && ASKING.contains(&first))
        || (words.len() >= 3 && text.trim_end().ends_with('?'))
}

/// Takes the game named in `words` out of them: a name or alias at the
/// start, or a game's own name (one word or two) or a [`GAME_WORDS`] word
/// anywhere.
fn take_game(words: &mut Vec<String>) -> Option<GameKind> {
    let own_name = |text: &str| {
        GameKind::from_name(text).filter(|k| {
            let fold = |s: &str| s.replace(['-', ' ', '_'], "").to_lowercase();
            fold(k.name()) == fold(text) || fold(k.title()) == fold(text)
        })
    };
    // `a black hole` (one of Black Holes' pieces) names that game; the
    // hole stays in the question.
    if let Some(i) = words
        .windows(2)
        .position(|w| w[0] == "black" && w[1] == "hole")
    {
        words.remove(i);
        return Some(GameKind::BlackHoles);
    }
    // Chess as everyone knows it, named as players name it.
    const PLAIN_CHESS: &[&str] = &[
        "normal", "regular", "classic", "ordinary", "standard", "usual",
    ];
    let first_game = words
        .windows(2)
        .position(|w| PLAIN_CHESS.contains(&w[0].as_str()) && w[1] == "chess");
    let other_game = (0..words.len()).find(|&i| {
        GAME_WORDS.iter().any(|(w, _)| *w == words[i])
            || (i + 1 < words.len()
                && GameKind::from_name(&format!("{} {}", words[i], words[i + 1])).is_some())
    });
    if let Some(i) = first_game.filter(|i| other_game.is_none_or(|o| o > *i)) {
        words.drain(i..i + 2);
        return Some(GameKind::Standard);
    }
    for i in 0..words.len() {
        if i + 1 < words.len() {
            let two = format!("{} {}", words[i], words[i + 1]);
            let kind =
                own_name(&two).or_else(|| (i == 0).then(|| GameKind::from_name(&two)).flatten());
            // `suicide-void promotion-wins`: a game and one of its topics,
            // though the two words also name the promotion-wins game.
            let first = GameKind::from_name(&words[i]);
            let topic_of_first =
                first.is_some_and(|k| topics_of(k).iter().any(|t| t.key == words[i + 1]));
            if let (Some(kind), false) = (kind, topic_of_first) {
                words.drain(i..i + 2);
                return Some(kind);
            }
        }
        let one = words[i].as_str();
        let kind = GAME_WORDS
            .iter()
            .find(|(w, _)| *w == one)
            .map(|(_, k)| *k)
            .or_else(|| own_name(one).filter(|k| i == 0 || *k != GameKind::Void))
            .or_else(|| (i == 0).then(|| GameKind::from_name(one)).flatten());
        if let Some(kind) = kind {
            words.remove(i);
            return Some(kind);
        }
    }
    None
}

/// Every command, one a line, written from the table of command words.
pub fn commands() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let mut text = String::from(
            "Commands (the same everywhere; name a game with #N when you play several here):",
        );
        for c in crate::command::words::WORDS {
            text.push_str("\n  ");
            text.push_str(&c.help_line());
        }
        text
    })
}

/// How ratings work, for `help rating` (and the other rating commands).
pub const RATINGS: &str = "How ratings work:
  Each Discord server, Matrix room and the console keeps its own ratings. You have one rating per game (Suicide Void Chess with promotion wins is a game of its own) and per pool: live (games on a clock) and correspondence (days per move, or no limit).
  The method is Glicko-2 (Mark Glickman's). Everyone starts at 1500 with a deviation of 350, which says how unsure the rating still is, and a volatility of 0.06 (tau 0.75). Every rated game is a rating period of its own, so your rating moves after each game.
  The longer you stay away from a pool, the less sure your rating is: before your next game there, and whenever it is shown, the deviation grows by 0.21436 days' worth of volatility per day away (as on lichess). The deviation stays between 45 and 350, and a rating never falls below 400.
  A rating is provisional, shown with a `?` (`1662?`), while its deviation is 110 or more.
  Which games count: a challenge between two people is rated unless it says `casual`. Games against me, games in direct conversations, and games that end before both sides have moved (`abort`) are never rated. Two players get at most 3 rated games against each other per pool in 24 hours; after that their challenges say they will be casual.
  The end of a rated game shows both changes (`alice 1500? -> 1662? (+162)`). `leaderboard` lists players with at least 2 rated games, a deviation of at most 75 and a rated game in the last 30 days.";

/// How tournaments work, for `help tournament` and `help standings`.
pub const TOURNAMENTS: &str = "How tournaments work:
  Formats. A Swiss (`tournament create swiss void 3d rounds 7 round-days 4`) has 3 to 30 rounds: each round you meet someone on your score or close to it, never the same player twice, and your colours alternate as far as possible (never the same colour three times in a row, except perhaps for the leaders in the last round). The pairings follow FIDE's Dutch system. A round robin (`tournament create roundrobin standard 10+5`, 3 to 20 players) has everyone meet everyone once; with `double`, twice, once with each colour.
  Games. Any game I play, on a clock (`3+2`) or by correspondence (`3d`: days per move). Tournament games are rated in their pool unless the tournament is `casual`, and they do not count towards the daily limit of rated games between two players.
  Rounds. When a round is paired, everyone playing is pinged with their game's number and colour. On a clock the next round is paired as soon as every game is over. By correspondence a round lasts `round-days` days: play your game any time inside it, each move on its own clock as usual; the next round starts at the deadline (or earlier, once every game is over). A game still going at the deadline goes on and counts when it ends, but its players sit out the next round (no point for it); in a tournament created with `adjudicate`, the engine judges such games at the deadline instead (a side three pawns ahead wins, otherwise a draw).
  Scoring. A win is 1 point, a draw ½, a loss 0. In a Swiss, an odd number of players leaves one without an opponent: one of the lowest-placed players who has not had one yet gets the bye, worth 1 point. In a round robin the bye is just a round off, worth nothing (everyone gets the same number).
  Ties. Swiss: Sonneborn-Berger (the scores of the players you beat, plus half the scores of those you drew), then Buchholz cut 1 (your opponents' scores without the lowest), then performance rating. Round robin: Sonneborn-Berger, then your result against the players tied with you, then the number of wins.
  Absence. If you have not made your first move by the round's deadline (or within the first-move time on a clock), you lose by forfeit, the game is not rated, and you are not paired again until you say `tournament rejoin`. If you are Black and White has not moved, say `tournament here` so that the forfeit is theirs alone; otherwise neither of you gets a point.
  Joining. `tournament join` before the start; in a Swiss also later, until half of the rounds are played, with ½ point for the rounds you missed (once, however many). `leave` before the start; `withdraw` after it (your games in progress go on); `rejoin` to come back.
  Seeing it. `tournament` (the current round, its deadline, the players), `tournament pairings [round]`, `standings`, `tournament games`, `tournament history @player`, `tournament list`. Name a tournament by its number (`T3`) when more than one runs here.
  Organisers (its creator and this server's or room's moderators): `start`, `pause`, `resume`, `cancel`, `kick @player`, `forbid @a @b` (never paired together), `round next` (pair the next round early once every game is over).";

/// How puzzles work, for `help puzzle`.
pub const PUZZLES: &str = "How puzzles work:
  Where they come from. After every finished game here (people or me, rated or casual) the engine looks for the moment one side went wrong and the other got a single winning line: a forced mate, or a position turned from roughly even to clearly won. That position, just after the mistake, is a puzzle. There are none until this server's or room's games have given some.
  Solving. `puzzle` gives you one you have not seen, in the game played most here (`puzzle void`, `puzzle chess99`: a game of your choice). The board is drawn from your side, the mistake marked. Answer with a move as in a game (`Nf3`, `g1f3`). A right move is answered by the other side's reply, until the line is over; one wrong move ends the puzzle and shows the solution as an arrow. Any move that mates at once counts, even if the engine had another. `puzzle hint` names the piece to move, `puzzle solution` shows the answer, `puzzle skip` (or `puzzle next`) moves on.
  Moves and games. One puzzle open at a time in each channel. A plain move is for your game while you have one to move in here; otherwise it is for your puzzle. Say `puzzle Nf3` to answer the puzzle whatever games you have.
  Ratings. Each game has its own puzzle rating (Glicko-2, starting at 1500): solving a puzzle is a win against the puzzle, failing it a loss, and puzzles are rated by how often they are solved. Only your first try at a puzzle counts; asking for a hint, the solution or skipping counts as failed. `puzzle easy` and `puzzle hard` aim 600 below or above your rating, `puzzle 1800` at a rating; when nothing is left within 300 of the aim I say so and give the nearest. `rating puzzles`, `leaderboard puzzles [game]`, and `profile` show them.
  Daily puzzle. Moderators: `settings daily-puzzle 09:00` posts a puzzle here every day at 09:00 UTC (`off` stops it). Anyone may answer; whoever finds a move first is credited, a wrong move is told to its author alone. It is not rated. `puzzle daily` shows it again; `profile` shows your streak of days in a row with a move found.";

/// Help for one command word (or alias); the rating and tournament
/// commands explain how those work as well.
pub fn command_help(word: &str) -> Option<String> {
    use crate::command::words::Word;
    crate::command::words::lookup(word).map(|c| match c.word {
        Word::Rating | Word::Leaderboard => format!("{}\n\n{RATINGS}", c.help_line()),
        Word::Tournament | Word::Standings => format!("{}\n\n{TOURNAMENTS}", c.help_line()),
        Word::Puzzle => format!("{}\n\n{PUZZLES}", c.help_line()),
        _ => c.help_line(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a question lands: the game, and the topic's key or the
    /// rules page's section.
    fn landing(query: &str, ctx: Option<GameKind>) -> Option<(GameKind, String)> {
        match answer(query, ctx) {
            Found::Topic(t) => Some((t.variant, t.key.to_string())),
            Found::Game(kind) => Some((kind.base(), "overview".to_string())),
            Found::Passage(hit) => Some((hit.best.game, hit.best.section.clone())),
            Found::Nothing(_) => None,
        }
    }

    /// `help tournament` (and its alias, and `help standings`) explains the
    /// formats, scoring, tie-breaks, absence and byes.
    #[test]
    fn tournament_help_explains_how_a_tournament_runs() {
        for word in ["tournament", "tourney", "standings"] {
            let text = command_help(word).expect(word);
            for needed in [
                "Swiss",
                "round robin",
                "½",
                "bye",
                "Sonneborn-Berger",
                "Buchholz",
                "forfeit",
                "tournament here",
                "tournament rejoin",
                "late",
            ] {
                assert!(text.contains(needed), "{word}: no {needed}");
            }
        }
    }

    /// `help puzzle` explains solving, the routing of moves, ratings and
    /// the daily puzzle.
    #[test]
    fn puzzle_help_explains_solving_and_the_daily_puzzle() {
        for word in ["puzzle", "puzzles", "tactic"] {
            let text = command_help(word).expect(word);
            for needed in [
                "puzzle hint",
                "puzzle solution",
                "puzzle skip",
                "puzzle Nf3",
                "first try",
                "daily-puzzle 09:00",
                "credited",
                "streak",
            ] {
                assert!(text.contains(needed), "{word}: no {needed}");
            }
        }
    }

    /// Questions in players' words land in the right game and passage
    /// (the full set is `src/help/asked/issue43.txt`).
    #[test]
    fn free_form_questions_find_their_passage() {
        let at = |q: &str| landing(q, None).unwrap_or_else(|| panic!("{q}: nothing"));
        assert_eq!(at("how does the minister move").0, GameKind::Void);
        assert_eq!(at("castling").1, "castling");
        assert_eq!(at("standard chess").0, GameKind::Standard);
        assert!(landing("xyzzy", None).is_none());
        assert_eq!(at("giveaway captures").0, GameKind::Antichess);
        assert_eq!(at("suicide placing the void").0, GameKind::SuicideVoid);
        assert_eq!(
            at("black holes: how do relativistic moves work").0,
            GameKind::BlackHoles
        );
        assert_eq!(at("chess 99 castling").0, GameKind::Chess99);
    }

    /// Every topic of every game is reached both ways players ask: with
    /// the game named (`rules GAME TOPIC`) and by its key inside a game of
    /// that kind (issue 20, point 7).
    #[test]
    fn every_topic_is_reached_by_game_and_key() {
        for kind in GameKind::ALL {
            let topics = topics_of(kind);
            assert!(!topics.is_empty(), "{kind} has no help");
            for t in &topics {
                // A topic is kept under its own game's table.
                assert_eq!(t.variant, kind.base(), "{}", t.key);
                let named = format!("{} {}", kind.name(), t.key);
                match answer(&named, None) {
                    Found::Topic(found) => assert_eq!(found.key, t.key, "{named}"),
                    other => panic!("{named}: {other:?}"),
                }
                match answer(t.key, Some(kind)) {
                    Found::Topic(found) => {
                        assert_eq!(
                            (found.variant, found.key),
                            (t.variant, t.key),
                            "{} in {kind:?}",
                            t.key
                        )
                    }
                    other => panic!("{} in {kind:?}: {other:?}", t.key),
                }
            }
            assert!(matches!(answer(kind.name(), None), Found::Game(k) if k == kind));
        }
    }

    /// Every piece of every game leads to a topic of that game; a piece
    /// that is a game's own is explained in it.
    #[test]
    fn every_piece_of_every_game_is_found_by_its_name() {
        use voidmate_rules::Role;
        for kind in GameKind::ALL {
            for role in Role::ALL
                .into_iter()
                .filter(|r| kind.rules().letter(*r).is_some())
            {
                let (game, text) = match answer(role.name(), Some(kind)) {
                    Found::Topic(t) => (t.variant, t.text.to_string()),
                    Found::Passage(hit) => (hit.best.game, hit.best.text.clone()),
                    other => panic!("{} in {kind:?}: {other:?}", role.name()),
                };
                assert_eq!(game, kind.base(), "{} in {kind:?}", role.name());
                let orthodox = matches!(
                    role,
                    Role::Pawn
                        | Role::Knight
                        | Role::Bishop
                        | Role::Rook
                        | Role::Queen
                        | Role::King
                );
                if !orthodox {
                    assert!(
                        text.to_lowercase().contains(role.name()),
                        "{} in {kind:?}: {text}",
                        role.name(),
                    );
                }
            }
        }
    }

    /// The questions of the report, answered from the right game.
    #[test]
    fn questions_resolve_by_game_then_topic() {
        let key = |q: &str, ctx: Option<GameKind>| {
            landing(q, ctx).unwrap_or_else(|| panic!("{q}: nothing"))
        };
        for (q, want) in [
            ("void minister", "minister"),
            ("void king", "king"),
            ("void castling", "castling"),
            ("void promotion", "promotion"),
            ("void endings", "endings"),
        ] {
            assert_eq!(key(q, None), (GameKind::Void, want.to_string()), "{q}");
        }
        assert_eq!(
            key("super16 pieces", None),
            (GameKind::Super16, "pieces".into())
        );
        assert_eq!(
            key("chess99 castling", None),
            (GameKind::Chess99, "castling".into())
        );
        assert_eq!(
            key("castling", Some(GameKind::Chess99)),
            (GameKind::Chess99, "castling".into())
        );
        assert_eq!(key("void fortress", None).0, GameKind::Void);
        assert_eq!(key("paladin", None), (GameKind::Chess99, "paladin".into()));
        assert_eq!(key("paladin", Some(GameKind::Void)).0, GameKind::Chess99);
        assert!(matches!(
            answer("chess99", None),
            Found::Game(GameKind::Chess99)
        ));
        assert!(matches!(
            answer("void xyzzy", None),
            Found::Nothing(GameKind::Void)
        ));
    }

    /// Issue 43: which lines said to the bot are rules questions; odd
    /// text (empty, multi-byte, oversized) is read without a panic.
    #[test]
    fn questions_are_told_from_moves_and_chatter() {
        assert!(is_question("how does the minister move?"));
        assert!(is_question("Can I castle through an unstable tile"));
        assert!(is_question("the minister crosses voids?"));
        for not in [
            "e4",
            "e4?",
            "Nf3 Nc6",
            "",
            "   ",
            "?",
            "hello there",
            "日本語？",
        ] {
            assert!(!is_question(not), "{not:?}");
        }
        assert!(is_question("почему ферзь так ходит ? ?"));
        let long = format!("how {}", "ж".repeat(100_000));
        assert!(is_question(&long));
        let _ = answer(&long, Some(GameKind::Void));
    }

    /// Any text a player types is a question: none makes it panic.
    #[test]
    fn odd_questions_are_answered_without_panicking() {
        let long = "minister ".repeat(2000);
        for q in [
            "",
            "   ",
            "日本語 ♞ éé",
            "@e5 -- #3",
            "void",
            "void void void",
            long.as_str(),
        ] {
            for ctx in [None, Some(GameKind::Void), Some(GameKind::Super16)] {
                let _ = answer(q, ctx);
            }
        }
        assert!(matches!(
            answer("日本語", Some(GameKind::Void)),
            Found::Nothing(GameKind::Void)
        ));
    }

    #[test]
    fn diagrams_are_valid_void_positions() {
        for t in all_topics() {
            if let Some(d) = &t.diagram {
                let rules = t.variant.rules();
                voidmate_rules::Position::from_fen(rules, d.fen)
                    .unwrap_or_else(|e| panic!("{}: {e}", t.key));
            }
        }
    }

    #[test]
    fn every_command_word_has_help() {
        for c in crate::command::words::WORDS {
            for w in std::iter::once(&c.name).chain(c.aliases) {
                let line = command_help(w).unwrap_or_else(|| panic!("{w}"));
                assert!(line.starts_with(c.name), "{w}: {line}");
                let first = line.lines().next().unwrap();
                assert!(commands().contains(first), "{w} is in the list");
            }
        }
        assert!(command_help("dance").is_none());
    }

    /// `help rating` explains the choices the ratings rest on.
    #[test]
    fn help_rating_explains_how_ratings_work() {
        for word in ["rating", "ratings", "leaderboard", "top"] {
            let text = command_help(word).unwrap();
            for fact in [
                "1500",
                "350",
                "0.06",
                "0.75",
                "0.21436",
                "45",
                "400",
                "110",
                "`?`",
                "3 rated games",
                "casual",
                "abort",
            ] {
                assert!(text.contains(fact), "{word}: {fact} missing");
            }
        }
        assert!(!command_help("resign").unwrap().contains("Glicko"));
    }
}
