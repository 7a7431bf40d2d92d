//! A game as loaded from its row: the position replayed, its moves, and
//! what replies say about it (names, sides, colours, clocks, status).

use super::*;

/// A stored game, replayed.
pub(super) struct Game {
    pub(super) row: GameRow,
    pub(super) pos: Position,
    pub(super) moves: Vec<MoveRow>,
    pub(super) last: Option<(Square, Square)>,
    /// When the game was read (for clocks).
    pub(super) now_ms: i64,
    /// Seconds in a "day" of a days-per-move time control.
    pub(super) day_seconds: i64,
}

impl Game {
    /// The side `user` plays, if they play in this game.
    pub(super) fn player_color(&self, user: &PlayerId) -> Option<Color> {
        if self.row.white == user.as_str() {
            Some(Color::White)
        } else if self.row.black == user.as_str() {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Who plays `color`: their id, and the name they were last seen with.
    pub(super) fn player(&self, color: Color) -> Player {
        match color {
            Color::White => Player::stored(&self.row.white, self.row.white_name.clone()),
            Color::Black => Player::stored(&self.row.black, self.row.black_name.clone()),
        }
    }

    /// The name `color`'s player goes by, for replies.
    pub(super) fn name(&self, color: Color) -> String {
        self.player(color).name
    }

    pub(super) fn ply(&self) -> i64 {
        self.moves.len() as i64
    }

    /// Which game this is (every stored game is one of ours: `load` found
    /// its rules in the registry).
    pub(super) fn kind(&self) -> GameKind {
        self.pos.rules().kind().expect("a game of the registry")
    }

    /// "White"/"Black", or Super Chess's "Player 1"/"Player 2".
    pub(super) fn side(&self, color: Color) -> &'static str {
        self.kind().side_name(color)
    }

    /// A private-programs game whose programs are not all in yet: no move
    /// may be played.
    pub(super) fn awaiting_programs(&self) -> Vec<Player> {
        if self.row.mode != "private" {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.row.program_white.is_none() {
            out.push(self.player(Color::White));
        }
        if self.row.program_black.is_none() {
            out.push(self.player(Color::Black));
        }
        out
    }

    /// The players' piece colours, when either chose one or the variant
    /// has its own (Super Chess: red and blue).
    pub(super) fn colours(&self) -> Option<[PieceColour; 2]> {
        let both = [self.colour_of(Color::White), self.colour_of(Color::Black)];
        (both != [PieceColour::White, PieceColour::Black]).then_some(both)
    }

    /// The colour `color`'s pieces are drawn in: chosen, or the variant's.
    pub(super) fn colour_of(&self, color: Color) -> PieceColour {
        let chosen = match color {
            Color::White => &self.row.colour_white,
            Color::Black => &self.row.colour_black,
        };
        chosen
            .as_deref()
            .and_then(PieceColour::from_name)
            .unwrap_or_else(|| default_colour(self.kind(), color))
    }

    pub(super) fn title(&self) -> String {
        let variant = variants::by_name(&self.row.variant)
            .map(|r| r.title())
            .unwrap_or("?");
        format!(
            "#{} {} vs {} ({variant})",
            self.row.id,
            self.name(Color::White),
            self.name(Color::Black)
        )
    }

    pub(super) fn status(&self) -> String {
        if self.row.status == "finished" {
            format!(
                "{} {}",
                self.row.result.as_deref().unwrap_or("*"),
                self.row.termination.as_deref().unwrap_or("")
            )
        } else if !self.awaiting_programs().is_empty() {
            match self.awaiting_programs().as_slice() {
                [one] => format!("waiting for {one}'s program"),
                [a, b] => format!("waiting for the programs of {a} and {b}"),
                _ => "waiting for the programs".to_string(),
            }
        } else {
            let mover = self.name(self.pos.turn());
            match (self.clocks_text(), self.row.deadline_at) {
                (Some(c), _) => format!("{mover} to move; {c}"),
                // Correspondence: the time left for this move.
                (None, Some(deadline)) => format!(
                    "{mover} to move; {} left",
                    human_duration(
                        (deadline - self.now_ms.div_euclid(1000)).max(0),
                        self.day_seconds
                    )
                ),
                (None, None) => format!("{mover} to move"),
            }
        }
    }

    /// Time left per side as of now, the running clock counted down.
    pub(super) fn clock_left(&self, color: Color) -> Option<i64> {
        let stored = match color {
            Color::White => self.row.white_ms?,
            Color::Black => self.row.black_ms?,
        };
        let running = match self.row.turn_started_ms {
            Some(t) if color == self.pos.turn() && self.row.status == "active" => {
                (self.now_ms - t).max(0)
            }
            _ => 0,
        };
        Some(stored - running)
    }

    /// "clocks alice 4:52, bob 5:00"
    pub(super) fn clocks_text(&self) -> Option<String> {
        let w = self.clock_left(Color::White)?;
        let b = self.clock_left(Color::Black)?;
        Some(format!(
            "clocks {} {}, {} {}",
            self.name(Color::White),
            clock_face(w),
            self.name(Color::Black),
            clock_face(b)
        ))
    }
}

/// The colour `color`'s pieces start in (Super Chess ships red and blue).
pub(super) fn default_colour(kind: GameKind, color: Color) -> PieceColour {
    let name = kind.default_colours()[color.index()];
    PieceColour::from_name(name).expect("the renderer knows every default colour")
}

/// A stored program text, read again for `rules`.
pub(super) fn stored_program(
    rules: &voidmate_rules::Rules,
    text: &Option<String>,
) -> Result<Program, voidmate_rules::ProgramError> {
    match text {
        None => Ok(Program::none()),
        Some(t) => Program::parse(rules, t),
    }
}

/// `4:05`, `0:09`, `1:02:03` (never negative).
pub(super) fn clock_face(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// When a clock counts as low: a tenth of the base time, between 10 s and 60 s.
pub(super) fn low_time_ms(minutes: u32) -> i64 {
    (minutes as i64 * 6_000).clamp(10_000, 60_000)
}
