//! A game as loaded: its typed record, the position replayed from its
//! moves, and what replies say about it (names, sides, colours, clocks,
//! status).

use crate::command::{OfferKind, ProgramMode, TimeControl};
use crate::contract::{Player, PlayerId};
use crate::error::Failure;
use crate::record::{GameRecord, Offer, Status};
use crate::store::MoveRow;
use crate::words::{clock_face, human_duration};
use voidmate_render::PieceColour;
use voidmate_rules::{Color, GameKind, Move, Position, Square};

/// A stored game, replayed.
pub(crate) struct Game {
    pub rec: GameRecord,
    pub pos: Position,
    pub moves: Vec<MoveRow>,
    pub last: Option<(Square, Square)>,
    /// The holes the last move went through, when it was relativistic
    /// (Black Holes): its picture draws the path.
    pub through: Option<(Square, Square)>,
    /// When the game was read (for clocks).
    pub now_ms: i64,
    /// Seconds in a "day" of a days-per-move time control.
    pub day_seconds: i64,
    /// How White's and Black's players want boards turned, where they were
    /// read with the game (a write on PostgreSQL, [`crate::store::lock_game_with_moves`]).
    pub flips: Option<[crate::command::Flip; 2]>,
}

/// A game's moves replayed from its start ([`replay`]): where they lead.
pub(crate) struct Replayed {
    pub pos: Position,
    /// The last move's squares, and the holes it went through if it was
    /// relativistic.
    pub last: Option<(Square, Square)>,
    pub through: Option<(Square, Square)>,
}

/// Why stored moves do not replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReplayError {
    /// Move `n` is not stored (the plies are not 1, 2, 3...).
    Missing(i64),
    /// Move `n` is not a legal move where it stands.
    Illegal(i64, String),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Missing(n) => write!(f, "move {n} is missing"),
            ReplayError::Illegal(n, why) => write!(f, "move {n} does not replay: {why}"),
        }
    }
}

/// One move of a replay, as [`replay`] shows it before playing it.
pub(crate) struct Seen<'a> {
    pub before: &'a Position,
    pub mv: &'a Move,
    pub through: Option<(Square, Square)>,
}

/// The one replay of a game's moves: from `pos` (its start), each of
/// `moves` in order, shown to `seen` before it is played (loading needs
/// nothing of them, a replay or review keeps each). Loading a game,
/// taking moves back and drawing its history all replay through here.
pub(crate) fn replay(
    mut pos: Position,
    moves: &[MoveRow],
    mut seen: impl FnMut(Seen<'_>),
) -> Result<Replayed, ReplayError> {
    let (mut last, mut through) = (None, None);
    for (i, m) in moves.iter().enumerate() {
        if m.ply != i as i64 + 1 {
            return Err(ReplayError::Missing(i as i64 + 1));
        }
        let mv = pos
            .parse_move(&m.coordinate)
            .map_err(|e| ReplayError::Illegal(m.ply, e.to_string()))?;
        through = pos.holes_passed(&mv);
        seen(Seen {
            before: &pos,
            mv: &mv,
            through,
        });
        pos.play_unchecked(&mv);
        last = Some((mv.from, mv.to));
    }
    Ok(Replayed { pos, last, through })
}

/// One position of a game's history, and the move that led to it (`None`
/// at the start).
pub(crate) struct Step {
    pub pos: Position,
    pub by: Option<Played>,
}

/// A move as played: itself, its SAN, and the holes it went through if it
/// was relativistic.
pub(crate) struct Played {
    pub mv: Move,
    pub san: String,
    pub through: Option<(Square, Square)>,
}

impl Game {
    /// Every position of the game from its start, replayed from its stored
    /// moves (`None` if they do not replay): what replays and reviews show.
    pub(crate) fn steps(&self) -> Option<Vec<Step>> {
        let start =
            Position::from_fen(self.pos.shared_rules().clone(), &self.rec.start_fen).ok()?;
        let (mut positions, mut played) = (Vec::new(), Vec::new());
        let end = replay(start, &self.moves, |s| {
            positions.push(s.before.clone());
            played.push(Played {
                mv: *s.mv,
                san: s.before.san(s.mv),
                through: s.through,
            });
        })
        .ok()?;
        positions.push(end.pos);
        let by = std::iter::once(None).chain(played.into_iter().map(Some));
        Some(
            positions
                .into_iter()
                .zip(by)
                .map(|(pos, by)| Step { pos, by })
                .collect(),
        )
    }

    pub fn id(&self) -> i64 {
        self.rec.id
    }

    pub fn kind(&self) -> GameKind {
        self.rec.kind
    }

    /// The side `user` plays, if they play in this game.
    pub fn player_color(&self, user: &PlayerId) -> Option<Color> {
        self.rec.color_of(user)
    }

    /// The side `user` plays, or the refusal for someone who does not.
    /// How `viewer` wants boards turned, if read with the game and
    /// `viewer` plays in it.
    pub fn flip_of(&self, viewer: &PlayerId) -> Option<crate::command::Flip> {
        let flips = self.flips?;
        self.player_color(viewer).map(|c| match c {
            Color::White => flips[0],
            Color::Black => flips[1],
        })
    }

    pub fn side_of(&self, user: &PlayerId) -> Result<Color, Failure> {
        self.player_color(user)
            .ok_or_else(|| Failure::Refused(format!("You are not playing in game #{}.", self.id())))
    }

    /// Who plays `color`: their id, and the name they were last seen with.
    pub fn player(&self, color: Color) -> Player {
        self.rec.player(color).clone()
    }

    /// The name `color`'s player goes by, for replies.
    pub fn name(&self, color: Color) -> String {
        self.rec.player(color).name.clone()
    }

    pub fn ply(&self) -> i64 {
        self.moves.len() as i64
    }

    /// "White"/"Black", or Super Chess's "Player 1"/"Player 2".
    pub fn side(&self, color: Color) -> &'static str {
        self.kind().side_name(color)
    }

    /// The proposal of `kind` standing now (made since the last move).
    pub fn standing(&self, kind: OfferKind) -> Option<Offer> {
        self.rec.standing(kind, self.ply())
    }

    /// A private-programs game whose programs are not all in yet: no move
    /// may be played.
    pub fn awaiting_programs(&self) -> Vec<Player> {
        if self.rec.mode != ProgramMode::Private {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .filter(|&c| self.rec.seats[c].program.is_none())
            .map(|c| self.player(c))
            .collect()
    }

    /// The players' piece colours, when either chose one or the variant
    /// has its own (Super Chess: red and blue).
    pub fn colours(&self) -> Option<[PieceColour; 2]> {
        let both = [self.colour_of(Color::White), self.colour_of(Color::Black)];
        (both != [PieceColour::White, PieceColour::Black]).then_some(both)
    }

    /// The colour `color`'s pieces are drawn in: chosen, or the variant's.
    pub fn colour_of(&self, color: Color) -> PieceColour {
        self.rec.seats[color]
            .colour
            .unwrap_or_else(|| default_colour(self.kind(), color))
    }

    pub fn title(&self) -> String {
        format!(
            "#{} {} vs {} ({})",
            self.id(),
            self.name(Color::White),
            self.name(Color::Black),
            self.kind().title()
        )
    }

    pub fn status(&self) -> String {
        if let Status::Finished(ending) = self.rec.status {
            return ending.to_string();
        }
        match self.awaiting_programs().as_slice() {
            [] => {}
            [one] => return format!("waiting for {one}'s program"),
            [a, b] => return format!("waiting for the programs of {a} and {b}"),
            _ => return "waiting for the programs".to_string(),
        }
        let mover = self.name(self.pos.turn());
        match (self.clocks_text(), self.rec.deadline_at) {
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

    /// A clock game's increment (ms); `None` without a clock.
    pub fn increment_ms(&self) -> Option<i64> {
        match self.rec.clock {
            TimeControl::Clock { increment, .. } => Some(increment as i64 * 1000),
            TimeControl::None | TimeControl::Days(_) => None,
        }
    }

    /// Time left per side as of now, the running clock counted down.
    pub fn clock_left(&self, color: Color) -> Option<i64> {
        let stored = self.rec.seats[color].clock_ms?;
        let running = match self.rec.turn_started_ms {
            Some(t) if color == self.pos.turn() && self.rec.is_active() => (self.now_ms - t).max(0),
            _ => 0,
        };
        Some(stored - running)
    }

    /// "clocks alice 4:52, bob 5:00"
    pub fn clocks_text(&self) -> Option<String> {
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
pub(crate) fn default_colour(kind: GameKind, color: Color) -> PieceColour {
    let name = kind.default_colours()[color.index()];
    PieceColour::from_name(name).expect("the renderer knows every default colour")
}

/// When a clock counts as low: a tenth of the base time, between 10 s and 60 s.
pub(crate) fn low_time_ms(minutes: u32) -> i64 {
    (minutes as i64 * 6_000).clamp(10_000, 60_000)
}
