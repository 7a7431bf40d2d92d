//! A puzzle as it is solved: its line replayed from the stored position
//! (the opponent's mistake, then the solution), a solver's move judged
//! against it, and the board the solver sees. Shared by a player's own
//! puzzles and a channel's daily puzzle.

use crate::picture::Picture;
use crate::store::PuzzleRecord;
use voidmate_render::{Caption, RenderOptions, Theme};
use voidmate_rules::{Color, Move, MoveError, Position};

/// A puzzle's line: `positions[i]` stands after `i` of its moves.
pub(crate) struct Line {
    pub moves: Vec<Move>,
    pub sans: Vec<String>,
    pub positions: Vec<Position>,
}

/// What a solver's move was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// The solution's move, or another that mates at once. `solved`: the
    /// line is over.
    Right { san: String, solved: bool },
    /// A legal move that is not the solution.
    Wrong { san: String },
}

impl Line {
    /// The line of `p`, or why its stored moves do not replay (`check-db`
    /// names such a puzzle too).
    pub fn of(p: &PuzzleRecord) -> Result<Line, String> {
        let start = Position::from_fen(p.kind.rules(), &p.fen)
            .map_err(|e| format!("its position does not read: {e}"))?;
        if p.moves.len() < 2 {
            return Err("it has no solution".to_string());
        }
        let mut positions = vec![start];
        let mut moves = Vec::with_capacity(p.moves.len());
        for (i, san) in p.moves.iter().enumerate() {
            let pos = positions.last().expect("the start");
            let mv = pos
                .parse_move(san)
                .map_err(|e| format!("move {} `{san}` is not legal: {e}", i + 1))?;
            positions.push(pos.after(&mv));
            moves.push(mv);
        }
        Ok(Line {
            moves,
            sans: p.moves.clone(),
            positions,
        })
    }

    /// The side that solves: the one to move after the mistake.
    pub fn solver(&self) -> Color {
        self.positions[1].turn()
    }

    /// The solver's move `text` with `progress` moves on the board.
    pub fn judge(&self, progress: usize, text: &str) -> Result<Judgement, MoveError> {
        let pos = &self.positions[progress];
        let mv = pos.parse_move(text)?;
        let san = pos.san(&mv);
        if mv == self.moves[progress] {
            return Ok(Judgement::Right {
                san,
                solved: progress + 1 >= self.moves.len(),
            });
        }
        // Any mate is as good as the solution's (as lichess accepts).
        let mates = pos
            .after(&mv)
            .outcome()
            .is_some_and(|o| o.winner() == Some(pos.turn()));
        Ok(if mates {
            Judgement::Right { san, solved: true }
        } else {
            Judgement::Wrong { san }
        })
    }

    /// The board with `progress` moves played, from the solver's side, the
    /// last of them marked; `arrow` draws a move of the solution (shown
    /// when the puzzle ends without it).
    pub fn picture(
        &self,
        p: &PuzzleRecord,
        progress: usize,
        theme: Theme,
        status: String,
        arrow: Option<usize>,
    ) -> Picture {
        let progress = progress.min(self.moves.len());
        let pos = self.positions[progress].clone();
        let last = progress.checked_sub(1).map(|i| &self.moves[i]);
        let through = last.and_then(|mv| self.positions[progress - 1].holes_passed(mv));
        let alt = format!(
            "Puzzle {} ({}): {status}{}",
            p.label(),
            p.kind.title(),
            last.map_or(String::new(), |_| format!(
                ", after {}",
                self.sans[progress - 1]
            ))
        );
        Picture {
            pos,
            opts: RenderOptions {
                orientation: self.solver(),
                theme,
                last_move: last.map(|mv| (mv.from, mv.to)),
                select: None,
                arrows: arrow
                    .and_then(|i| self.moves.get(i))
                    .map(|mv| vec![(mv.from, mv.to)])
                    .unwrap_or_default(),
                caption: Some(Caption {
                    white: format!("Puzzle {}", p.label()),
                    black: p.kind.title().to_string(),
                    status,
                    sides: Some([String::new(), String::new()]),
                }),
                colours: None,
                through,
                zoom: None,
            },
            alt,
            board: None,
            at: None,
            replay: None,
            graph: None,
            crosstable: None,
        }
    }
}

/// "White to move" or "Black to move", for a caption.
pub(crate) fn to_move(c: Color) -> String {
    match c {
        Color::White => "White to move".to_string(),
        Color::Black => "Black to move".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::Rating;
    use voidmate_rules::GameKind;

    fn fools_mate_puzzle() -> PuzzleRecord {
        PuzzleRecord {
            id: 1,
            game_id: 1,
            ply: 3,
            community: Some("room".into()),
            kind: GameKind::Standard,
            fen: "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2".into(),
            moves: vec!["g4".into(), "Qh4#".into()],
            score: 0,
            themes: vec!["mateIn1".into()],
            rating: Rating::START,
            plays: 0,
        }
    }

    /// The solution's move is right and ends a one-move line; another legal
    /// move is wrong; text that is no legal move is an error, not a wrong
    /// answer (nothing changes).
    #[test]
    fn a_move_is_judged_against_the_line() {
        let line = Line::of(&fools_mate_puzzle()).unwrap();
        assert_eq!(line.solver(), Color::Black);
        assert_eq!(
            line.judge(1, "Qh4").unwrap(),
            Judgement::Right {
                san: "Qh4#".into(),
                solved: true
            }
        );
        assert_eq!(
            line.judge(1, "d8h4").unwrap(),
            Judgement::Right {
                san: "Qh4#".into(),
                solved: true
            },
            "coordinates read as in a game"
        );
        assert_eq!(
            line.judge(1, "Nc6").unwrap(),
            Judgement::Wrong { san: "Nc6".into() }
        );
        assert!(line.judge(1, "Qh5").is_err(), "the queen cannot go there");
        assert!(line.judge(1, "hello").is_err());
    }

    /// A line that does not replay is named, not panicked over.
    #[test]
    fn a_damaged_line_is_an_error() {
        let mut p = fools_mate_puzzle();
        p.moves = vec!["g4".into(), "Qh5".into()];
        assert!(Line::of(&p)
            .err()
            .expect("damaged")
            .contains("move 2 `Qh5`"));
        p.fen = "not a fen".into();
        assert!(Line::of(&p).is_err());
    }

    /// The board is drawn from the solver's side with the mistake marked,
    /// and the solution's arrow only when asked.
    #[test]
    fn the_board_is_the_solvers() {
        let p = fools_mate_puzzle();
        let line = Line::of(&p).unwrap();
        let pic = line.picture(&p, 1, Theme::Classic, to_move(Color::Black), None);
        assert_eq!(pic.opts.orientation, Color::Black);
        let g4 = &line.moves[0];
        assert_eq!(pic.opts.last_move, Some((g4.from, g4.to)));
        assert!(pic.opts.arrows.is_empty());
        let shown = line.picture(&p, 1, Theme::Classic, "solution".into(), Some(1));
        let qh4 = &line.moves[1];
        assert_eq!(shown.opts.arrows, vec![(qh4.from, qh4.to)]);
    }
}
