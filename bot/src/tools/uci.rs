//! `voidmate uci`: the engine over the Universal Chess Interface, the
//! protocol chess programs and match managers speak, so that it can play
//! other engines (Fairy-Stockfish in `scripts/fsf-match.py`) as one long
//! process that keeps its transposition table from move to move, as they
//! do, instead of a fresh `voidmate analyse` per move.
//!
//! A search runs to its limit before the next command is read: `stop` and
//! `ponderhit` have nothing to interrupt, and `go infinite` searches
//! `INFINITE` long. Unknown commands are ignored, as the protocol asks; a
//! position that cannot be read is reported with `info string` and the last
//! good one kept.

use anyhow::Result;
use std::io::{BufRead, Write};
use std::time::Duration;
use voidmate_engine::{search, Clock, Features, Limits, Table};
use voidmate_rules::{variant, variants, Color, Position};

/// The table's size when the GUI does not set `Hash`, in megabytes.
const DEFAULT_HASH_MB: usize = 64;
const MAX_HASH_MB: usize = 4096;
const DEFAULT_OVERHEAD_MS: u64 = 30;
const MAX_OVERHEAD_MS: u64 = 5_000;

/// How long `go infinite` (or a `go` with no limit) searches.
const INFINITE: Duration = Duration::from_secs(60);

/// The engine's state between commands.
struct Session {
    position: Position,
    table: Table,
    hash_mb: usize,
    /// `Move Overhead`: what the clock loses between our answer and the
    /// GUI's reading it, kept in reserve on every move.
    overhead_ms: u64,
}

impl Session {
    fn new() -> Session {
        Session {
            position: Position::new(variants::standard()),
            table: Table::with_megabytes(DEFAULT_HASH_MB),
            hash_mb: DEFAULT_HASH_MB,
            overhead_ms: DEFAULT_OVERHEAD_MS,
        }
    }
}

/// Reads commands from `input` and answers on `output` until `quit` or
/// the end of the input.
pub fn run(input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut session = Session::new();
    // Bytes, not text: a line that is not UTF-8 is read as far as it is,
    // like any other line the engine does not understand.
    for line in input.split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        match command {
            "uci" => {
                writeln!(output, "id name Voidmate {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(output, "id author the Voidmate team")?;
                writeln!(
                    output,
                    "option name UCI_Variant type combo default standard var {}",
                    game_names().join(" var ")
                )?;
                writeln!(
                    output,
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                )?;
                writeln!(
                    output,
                    "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
                )?;
                writeln!(output, "uciok")?;
            }
            "isready" => writeln!(output, "readyok")?,
            "setoption" => {
                if let Err(e) = set_option(&mut session, args) {
                    writeln!(output, "info string {e}")?;
                }
            }
            "ucinewgame" => session.table = Table::with_megabytes(session.hash_mb),
            "position" => match read_position(&session.position, args) {
                Ok(p) => session.position = p,
                Err(e) => writeln!(output, "info string {e}")?,
            },
            "go" => go(&mut session, args, &mut output)?,
            "quit" => break,
            _ => {}
        }
        output.flush()?;
    }
    Ok(())
}

/// The games, by the names `UCI_Variant` takes.
fn game_names() -> Vec<&'static str> {
    variants::all().map(|r| r.name()).collect()
}

/// `text` as an answer quotes it: at most 40 characters.
fn short(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// `setoption name NAME value VALUE`.
fn set_option(session: &mut Session, args: &[&str]) -> std::result::Result<(), String> {
    let text = args.join(" ");
    let rest = text.strip_prefix("name ").unwrap_or(&text);
    let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
    match name.trim().to_ascii_lowercase().as_str() {
        "uci_variant" => {
            // Fairy-Stockfish calls standard chess "chess".
            let wanted = match value.trim() {
                "chess" => "standard",
                other => other,
            };
            let rules = variant(wanted).map_err(|_| {
                format!(
                    "'{}' is not a game; the games: {}",
                    short(wanted),
                    game_names().join(", ")
                )
            })?;
            session.position = Position::new(rules);
            Ok(())
        }
        "hash" => {
            let mb: usize = value
                .trim()
                .parse()
                .ok()
                .filter(|mb| (1..=MAX_HASH_MB).contains(mb))
                .ok_or_else(|| {
                    format!(
                        "Hash must be 1 to {MAX_HASH_MB} megabytes, not '{}'",
                        short(value)
                    )
                })?;
            session.hash_mb = mb;
            session.table = Table::with_megabytes(mb);
            Ok(())
        }
        "move overhead" => {
            session.overhead_ms = value
                .trim()
                .parse()
                .ok()
                .filter(|ms| *ms <= MAX_OVERHEAD_MS)
                .ok_or_else(|| {
                    format!(
                        "Move Overhead must be 0 to {MAX_OVERHEAD_MS} milliseconds, not '{}'",
                        short(value)
                    )
                })?;
            Ok(())
        }
        // Other engines' options (UCI_LimitStrength, Threads...) mean
        // nothing here.
        _ => Ok(()),
    }
}

/// `position startpos|fen FEN [moves M...]`, in the game of `current`.
fn read_position(current: &Position, args: &[&str]) -> std::result::Result<Position, String> {
    let rules = current.shared_rules().clone();
    let moves_at = args.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match setup.split_first() {
        Some((&"startpos", _)) => Position::new(rules),
        Some((&"fen", fen)) => {
            let fen = fen.join(" ");
            Position::from_fen(rules, &fen).map_err(|e| format!("FEN '{}': {e}", short(&fen)))?
        }
        _ => return Err("position needs startpos or fen".into()),
    };
    for (i, text) in moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, short(text)))?;
        pos.play_unchecked(&mv);
    }
    Ok(pos)
}

/// `go` with `movetime`, `depth`, `nodes`, or the clocks (`wtime`, `btime`,
/// `winc`, `binc`, `movestogo`); answers `info` and `bestmove`.
fn go(session: &mut Session, args: &[&str], output: &mut impl Write) -> Result<()> {
    let number = |name: &str| -> Option<u64> {
        let i = args.iter().position(|&w| w == name)?;
        args.get(i + 1)?.parse().ok()
    };
    let pos = &session.position;
    let (time, inc) = match pos.turn() {
        Color::White => (number("wtime"), number("winc")),
        Color::Black => (number("btime"), number("binc")),
    };
    let budget = if let Some(ms) = number("movetime") {
        Limits::time(Duration::from_millis(ms))
    } else if let Some(d) = number("depth") {
        Limits::depth(d.clamp(1, 64) as u32)
    } else if let Some(n) = number("nodes") {
        Limits::nodes(n)
    } else if let Some(left) = time {
        // The clock is the search's to spend (`voidmate_engine::clock`).
        Limits::clock(Clock {
            left: Duration::from_millis(left),
            increment: Duration::from_millis(inc.unwrap_or(0)),
            moves_to_go: number("movestogo").map(|n| n.clamp(1, 1000) as u32),
            overhead: Duration::from_millis(session.overhead_ms),
        })
    } else {
        Limits::time(INFINITE)
    };
    let limits = Limits {
        features: Features::for_game(pos.rules().kind()),
        ..budget
    };
    match search(pos, &limits, &mut session.table) {
        Some(r) => {
            let score = match r.mate_in() {
                Some(n) => format!("mate {n}"),
                None => format!("cp {}", r.score),
            };
            let ms = r.elapsed.as_millis().max(1);
            writeln!(
                output,
                "info depth {} score {score} nodes {} time {ms} nps {}",
                r.depth,
                r.nodes,
                r.nodes as u128 * 1000 / ms
            )?;
            writeln!(output, "bestmove {}", pos.coordinate(&r.best))?;
        }
        None => writeln!(output, "bestmove (none)")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(script: impl AsRef<[u8]>) -> Vec<String> {
        let mut out = Vec::new();
        run(script.as_ref(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn it_introduces_itself_and_plays_a_legal_move() {
        let lines = talk(
            b"uci\n\xff\xfe nonsense\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\nquit\ngo depth 1\n",
        );
        assert!(lines.iter().any(|l| l.starts_with("id name Voidmate")));
        assert!(lines.iter().any(|l| l.contains("var void")));
        assert!(lines.contains(&"uciok".to_string()));
        assert!(lines.contains(&"readyok".to_string()));
        let best: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect();
        assert_eq!(best.len(), 1, "nothing after quit: {lines:?}");
        let mut pos = Position::new(variants::standard());
        for m in ["e2e4", "e7e5"] {
            let mv = pos.parse_move(m).unwrap();
            pos.play_unchecked(&mv);
        }
        let played = best[0].trim_start_matches("bestmove ");
        assert!(pos.parse_move(played).is_ok(), "{played} is legal");
        assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
    }

    #[test]
    fn a_bad_position_is_reported_and_the_last_good_one_kept() {
        // Mate in one for White (Ra8#) stays the position after two bad ones.
        let lines = talk(
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n\
             position startpos moves e2e5\n\
             position fen not a fen\n\
             go depth 2\n",
        );
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 2, "{lines:?}");
        assert!(errors[0].contains("e2e5"), "{}", errors[0]);
        assert!(lines.contains(&"bestmove a1a8".to_string()), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
    }

    #[test]
    fn options_choose_the_game_and_the_table_and_refuse_nonsense() {
        let lines = talk(
            "setoption name UCI_Variant value antichess\n\
             setoption name Hash value 0\n\
             setoption name Hash value 8\n\
             setoption name UCI_Variant value nosuchgame\n\
             setoption name Move Overhead value 9999\n\
             setoption name Move Overhead value ten\n\
             setoption name Move Overhead value 100\n\
             position fen 8/8/8/p7/8/8/8/R7 w - - 0 1\n\
             go depth 1\n",
        );
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 4, "{lines:?}");
        assert!(errors[0].contains("Hash"), "{}", errors[0]);
        assert!(errors[1].contains("nosuchgame"), "{}", errors[1]);
        assert!(errors[2].contains("Move Overhead") && errors[2].contains("9999"));
        assert!(errors[3].contains("'ten'"), "{}", errors[3]);
        // Antichess (a position without kings), where the capture is
        // compulsory.
        assert!(lines.contains(&"bestmove a1a5".to_string()), "{lines:?}");
    }

    #[test]
    fn long_and_multi_byte_input_is_quoted_short_and_refused() {
        let long = "é".repeat(10_000);
        let lines = talk(format!(
            "position startpos moves e2e4 {long}\nposition fen {long}\nsetoption name UCI_Variant value {long}\n\
             setoption name Hash value ♛\n\ngo depth 1\n"
        ));
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 4, "{lines:?}");
        assert!(errors.iter().all(|e| e.chars().count() < 200), "{errors:?}");
        assert!(errors[0].contains("move 2"), "{}", errors[0]);
        assert!(errors[3].contains('♛'), "{}", errors[3]);
        // The start position stayed: White moves.
        let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let pos = Position::new(variants::standard());
        assert!(
            pos.parse_move(best.trim_start_matches("bestmove ")).is_ok(),
            "{best}"
        );
    }

    #[test]
    fn the_clock_gives_a_share_and_an_over_game_says_none() {
        let lines = talk(
            "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8\n\
             go wtime 1000 btime 1000\n\
             position startpos\n\
             go wtime 3000 btime 3000 winc 100\n",
        );
        let best: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect();
        assert_eq!(best[0], "bestmove (none)", "mated: {lines:?}");
        assert_ne!(best[1], "bestmove (none)");
    }
}
