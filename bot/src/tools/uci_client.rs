//! The other end of UCI: running an engine program and asking it for
//! moves, for `engine-match` (the engine at an earlier commit, or another
//! program). Its answers are read on a thread of their own, so that an
//! engine that stops answering costs a game, not the match.

use anyhow::{anyhow, bail, Context as _, Result};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use voidmate_engine::MATE;

/// How long an engine may take to start or to say it is ready.
const READY: Duration = Duration::from_secs(30);

/// A running UCI engine, set to one game.
pub struct UciEngine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl UciEngine {
    /// Starts `command` (a program and its arguments, split at spaces) and
    /// sets it to `game` (`UCI_Variant`, Fairy-Stockfish's `chess` for
    /// standard chess).
    pub fn start(command: &str, game: &str) -> Result<UciEngine> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| anyhow!("empty command"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot run '{command}'"))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            child,
            input,
            lines,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", READY)?;
        let name = if game == "standard" { "chess" } else { game };
        engine.send(&format!("setoption name UCI_Variant value {name}"))?;
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        engine.wait_for("readyok", READY)?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let written = writeln!(self.input, "{line}").and_then(|_| self.input.flush());
        let Err(e) = written else { return Ok(()) };
        // A program that has exited closes its input first and is reaped
        // a moment later, so a write can fail before `try_wait` sees the
        // exit: give it that moment, and name the exit when there is one.
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                bail!("the engine has exited ({status})");
            }
            if Instant::now() >= deadline {
                return Err(e).context("the engine has stopped reading");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Reads lines until one that starts with `word`; that line.
    fn wait_for(&mut self, word: &str, within: Duration) -> Result<String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    bail!("no '{word}' within {:.1} s", within.as_secs_f64())
                }
                Err(RecvTimeoutError::Disconnected) => bail!("the engine has exited"),
            }
        }
    }

    /// The engine's move from `fen` after `moves` (coordinates), searched
    /// with `go` (`go movetime 150`), and its last reported score for the
    /// side to move in centipawns (a mate as [`MATE`] less the plies).
    /// Waits at most `within` for it.
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[String],
        go: &str,
        within: Duration,
    ) -> Result<(String, Option<i32>)> {
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.send(go)?;
        let deadline = Instant::now() + within;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    bail!("no move within {:.1} s", within.as_secs_f64())
                }
                Err(RecvTimeoutError::Disconnected) => bail!("the engine has exited"),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => score = read_score(&words).or(score),
                Some(&"bestmove") => {
                    let m = words
                        .get(1)
                        .filter(|m| **m != "(none)")
                        .ok_or_else(|| anyhow!("it found no move"))?;
                    return Ok((m.to_string(), score));
                }
                _ => {}
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // An engine that does not quit when asked is stopped.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The score of an `info` line (`score cp 35`, `score mate -3`), for the
/// side to move.
fn read_score(words: &[&str]) -> Option<i32> {
    let at = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(MATE - (2 * value - 1)),
        "mate" => Some(-(MATE - 2 * -value)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_info_lines() {
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        assert_eq!(
            read_score(&words("info depth 5 score cp -35 nodes 9")),
            Some(-35)
        );
        assert_eq!(read_score(&words("info score mate 1")), Some(MATE - 1));
        assert_eq!(read_score(&words("info score mate -2")), Some(-(MATE - 4)));
        assert_eq!(read_score(&words("info depth 5 nodes 9")), None);
        assert_eq!(read_score(&words("info score cp")), None);
        assert_eq!(read_score(&words("info score wdl 1 2 3")), None);
    }

    #[test]
    fn a_program_that_is_not_there_is_named() {
        let e = UciEngine::start("/nonexistent/engine uci", "standard")
            .err()
            .unwrap();
        assert!(format!("{e:#}").contains("/nonexistent/engine"), "{e:#}");
    }

    #[test]
    fn a_program_that_exits_at_once_is_given_up_on() {
        // `true` may exit before or after the first line is written (CI
        // once saw the write fail first); either way the reply says it
        // exited. Several starts make both orders likely.
        for _ in 0..20 {
            let e = UciEngine::start("true", "standard").err().unwrap();
            assert!(format!("{e:#}").contains("exited"), "{e:#}");
        }
    }
}
