//! Static evaluation, per game, in centipawns for the side to move.
//!
//! The score is a weighted sum of terms counted on the board ([`terms`]):
//! material, mobility and centrality per role, pawn structure, king safety,
//! and each game's own terms (Void Chess's unstable tiles and voids, Chess
//! 99's king in reach, Super Chess's Fortress). Each term has two weights,
//! one for the opening and middlegame and one for the endgame, blended by
//! how much material is left. The weights are tuned per game on positions
//! from self-play ([`weights`], written by `voidmate tune`); a term the tuner
//! has not seen keeps its starting weight ([`Weights::start`]).
//!
//! The hand-set evaluation played before tuning is kept as [`classic`]:
//! matches measure the terms against it. Every game plays the terms now;
//! Void Chess and Black Holes were the last to leave the hand-set
//! evaluation, once their tuned weights beat it (`docs/performance.md`).

pub mod classic;
pub mod mobility;
pub mod terms;
mod weights;

pub use terms::{features, Sink, Term, COUNT};

use std::sync::OnceLock;
use voidmate_rules::{ByKind, Color, GameKind, Position, Role, Square};

/// Material values in centipawns, as the search orders captures and judges
/// exchanges (the evaluation's own values are tuned: [`Weights`]).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 300,
        Role::Bishop => 320,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
        // Ranked just below the king: stronger than a queen in play, and it
        // heals the board.
        Role::Minister => 1000,
        Role::Paladin => 750,
        Role::Hole => 250,
        Role::Prince | Role::Princess => 700,
        Role::Archbishop | Role::SuperKnight => 450,
        Role::Fortress => 200,
        Role::Programmable => 400,
    }
}

/// Which evaluation the search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// The terms with each game's tuned weights: the engine as it plays.
    Tuned,
    /// The same terms with their starting weights, before tuning.
    Untuned,
    /// The hand-set evaluation from before the terms existed.
    Classic,
}

impl Eval {
    pub const NAMES: [&'static str; 3] = ["tuned", "untuned", "classic"];

    pub fn parse(name: &str) -> Result<Eval, String> {
        match name {
            "tuned" => Ok(Eval::Tuned),
            "untuned" => Ok(Eval::Untuned),
            "classic" => Ok(Eval::Classic),
            _ => Err(format!(
                "'{name}' is not an evaluation; the evaluations: {}",
                Eval::NAMES.join(", ")
            )),
        }
    }
}

/// A game's weights: centipawns per unit of each term, in the middlegame
/// (`mg`) and the endgame (`eg`).
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    pub mg: [i32; COUNT],
    pub eg: [i32; COUNT],
}

/// A value kept once per game (a [`ByKind`], so a new game gets its slot),
/// and once more for a variant defined elsewhere, judged like standard
/// chess.
struct PerGame<T> {
    games: ByKind<OnceLock<T>>,
    other: OnceLock<T>,
}

impl<T> PerGame<T> {
    const fn new() -> PerGame<T> {
        PerGame {
            games: ByKind([const { OnceLock::new() }; GameKind::COUNT]),
            other: OnceLock::new(),
        }
    }

    fn get_or_init(&self, kind: Option<GameKind>, f: impl FnOnce() -> T) -> &T {
        match kind {
            Some(k) => match self.games.get(k) {
                Some(slot) => slot.get_or_init(f),
                None => self.other.get_or_init(f),
            },
            None => self.other.get_or_init(f),
        }
    }
}

impl Weights {
    fn zero() -> Weights {
        Weights {
            mg: [0; COUNT],
            eg: [0; COUNT],
        }
    }

    fn set(&mut self, term: Term, mg: i32, eg: i32) {
        self.mg[term.index()] = mg;
        self.eg[term.index()] = eg;
    }

    /// Where tuning starts: the classic evaluation's values and guesses for
    /// the terms it did not have.
    pub fn start(kind: Option<GameKind>) -> Weights {
        let mut w = Weights::zero();
        let giveaway = kind.is_some_and(GameKind::is_giveaway);
        for role in Role::ALL {
            if giveaway {
                // Every piece is one more to lose.
                w.set(Term::material(role), -100, -100);
                continue;
            }
            let v = value(role);
            w.set(Term::material(role), v, v);
            if role != Role::King && role != Role::Pawn {
                w.set(Term::centre(role), 3, 2);
                w.set(Term::mobility(role), 2, 2);
            }
        }
        if giveaway {
            if kind.is_some_and(GameKind::promotion_wins) {
                w.set(Term::PAWN_ADVANCE2, 12, 12);
            }
            return w;
        }
        w.set(Term::centre(Role::King), -4, 6);
        w.set(Term::PASSED_ADVANCE2, 1, 3);
        w.set(Term::DOUBLED, -10, -15);
        w.set(Term::ISOLATED, -10, -10);
        w.set(Term::BISHOP_PAIR, 30, 40);
        w.set(Term::ROOK_OPEN, 20, 10);
        w.set(Term::ROOK_HALF_OPEN, 10, 5);
        w.set(Term::KING_SHELTER, 8, 0);
        w.set(Term::KING_OPEN_FILES, -10, 0);
        w.set(Term::KING_NEAR_ENEMIES, -10, -3);
        w.set(Term::TEMPO, 10, 5);
        match kind {
            Some(GameKind::Void) => {
                w.set(Term::UNSTABLE_VALUE, -33, -33);
                w.set(Term::KING_EXITS, 4, 4);
                w.set(Term::KING_VOIDS, -12, -12);
                w.set(Term::KING_VOID_WALL, -5, -5);
                w.set(Term::MINISTER_HEALS, 8, 8);
            }
            Some(GameKind::Chess99) => w.set(Term::KING_ATTACKED, -400, -400),
            Some(GameKind::BlackHoles) => w.set(Term::KING_ATTACKED, -150, -150),
            Some(GameKind::Super16) => {
                w.set(Term::PAWN_ADVANCE2, 1, 1);
                w.set(Term::FORTRESS_KING, 40, 40);
                w.set(Term::FORTRESS_PIECE, 8, 8);
                w.set(Term::HUNT_EDGE, 12, 12);
                w.set(Term::HUNT_CLOSE, 6, 6);
            }
            // The giveaway games returned above.
            Some(
                GameKind::Standard
                | GameKind::Antichess
                | GameKind::SuicideVoid
                | GameKind::SuicideVoidPromotionWins
                | GameKind::Defined(_),
            )
            | None => {}
        }
        w
    }

    /// The starting weights with each named weight of `table` put over
    /// them (names no longer known are passed over).
    pub fn with_table(kind: Option<GameKind>, table: &[(&str, i32, i32)]) -> Weights {
        let mut w = Weights::start(kind);
        for (name, mg, eg) in table {
            if let Some(t) = Term::named(name) {
                w.set(t, *mg, *eg);
            }
        }
        w
    }

    /// The engine's weights for `kind`.
    pub fn tuned(kind: Option<GameKind>) -> &'static Weights {
        static TUNED: PerGame<Weights> = PerGame::new();
        TUNED.get_or_init(kind, || Weights::with_table(kind, weights::table(kind)))
    }

    /// The starting weights for `kind`, kept.
    pub fn untuned(kind: Option<GameKind>) -> &'static Weights {
        static START: PerGame<Weights> = PerGame::new();
        START.get_or_init(kind, || Weights::start(kind))
    }
}

/// The tuned weights of `kind` as written in `eval/weights.rs`: the terms
/// the tuner moved from their starting weights.
pub fn tuned_table(kind: GameKind) -> &'static [(&'static str, i32, i32)] {
    weights::table(Some(kind))
}

/// How far from the endgame `pos` is: 256 with the pieces (pawns and kings
/// aside) of the game's starting position, 0 with none left.
pub fn phase(pos: &Position) -> i32 {
    // From the board's piece counts: the phase is asked at every node.
    let pieces = |pos: &Position| -> i32 {
        Role::ALL
            .into_iter()
            .filter(|r| !matches!(r, Role::Pawn | Role::King))
            .map(|r| pos.board().count_both(r) as i32 * value(r))
            .sum()
    };
    static START: PerGame<i32> = PerGame::new();
    let kind = pos.rules().kind();
    let full = match kind {
        Some(_) => *START.get_or_init(kind, || {
            pieces(&Position::new(pos.shared_rules().clone())).max(1)
        }),
        None => 6280,
    };
    (pieces(pos) * 256 / full).min(256)
}

/// Adds up the terms with the weights.
struct Score<'a> {
    weights: &'a Weights,
    mg: i32,
    eg: i32,
}

impl Sink for Score<'_> {
    #[inline]
    fn add(&mut self, term: Term, value: i32) {
        self.mg += self.weights.mg[term.index()] * value;
        self.eg += self.weights.eg[term.index()] * value;
    }
}

/// The score of `pos` for White with `weights`.
pub fn white_score(pos: &Position, weights: &Weights) -> i32 {
    let mut s = Score {
        weights,
        mg: 0,
        eg: 0,
    };
    features(pos, &mut s);
    let p = phase(pos);
    (s.mg * p + s.eg * (256 - p)) / 256
}

/// The score of `pos` for the side to move (positive: good for it), as
/// the engine plays.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_as(pos, Eval::Tuned)
}

/// The score of `pos` for the side to move by the evaluation `eval`.
pub fn evaluate_as(pos: &Position, eval: Eval) -> i32 {
    let kind = pos.rules().kind();
    // A game read from a file: its pieces valued by how they move (asked
    // only of a game that is none of ours: this runs at every node).
    let defined = match kind {
        Some(_) => None,
        None => pos
            .rules()
            .variant()
            .defined_spec()
            .and_then(|_| pos.rules().kept(|| mobility::Kept::of(pos.rules()))),
    };
    let white = match (eval, defined) {
        (Eval::Tuned, Some(w)) => white_score(pos, &w.tuned),
        (Eval::Untuned, Some(w)) => white_score(pos, &w.untuned),
        (Eval::Tuned, None) => white_score(pos, Weights::tuned(kind)),
        (Eval::Untuned, None) => white_score(pos, Weights::untuned(kind)),
        (Eval::Classic, _) => return classic::evaluate(pos),
    };
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// What the king hunt on a big board looks at: each king's steps from the
/// centre (`edge[0]` White's, `edge[1]` Black's) and how close the two kings
/// stand (the board's width less their distance). `None` without both kings.
pub(crate) fn hunt(pos: &Position) -> Option<([i32; 2], i32)> {
    let b = pos.board();
    let (wk, bk) = (b.king(Color::White)?, b.king(Color::Black)?);
    let size = pos.rules().size();
    let edge = |k: Square| {
        let f = k.file() as i32 * 2 - (size.files() as i32 - 1);
        let r = k.rank() as i32 * 2 - (size.ranks() as i32 - 1);
        (f.abs() + r.abs()) / 2
    };
    Some((
        [edge(wk), edge(bk)],
        size.files() as i32 - wk.distance(bk) as i32,
    ))
}

/// The squares around `sq` (eight, fewer at an edge).
pub(crate) fn neighbours(pos: &Position, sq: Square) -> impl Iterator<Item = Square> + '_ {
    let size = pos.rules().size();
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    (-1..=1)
        .flat_map(move |df| (-1..=1).map(move |dr| (f + df, r + dr)))
        .filter(move |&(x, y)| {
            (x, y) != (f, r)
                && x >= 0
                && y >= 0
                && x < size.files() as i32
                && y < size.ranks() as i32
        })
        .map(|(x, y)| Square::new(x as u8, y as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    #[test]
    fn the_side_to_move_sees_its_own_advantage() {
        let up =
            Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
        let down =
            Position::from_fen(variants::standard(), "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1").unwrap();
        assert!(evaluate(&up) > 600 && evaluate(&down) < -600);
    }

    #[test]
    fn the_starting_position_is_about_even_in_every_game() {
        for kind in GameKind::ALL {
            let pos = Position::new(kind.rules());
            // In the giveaway games the first move is worth more (antichess
            // is a win for White, and the tuned weights have found a large
            // tempo): a bound that still catches a sign or scale gone wrong.
            let bound = if kind.is_giveaway() { 250 } else { 60 };
            for eval in [Eval::Tuned, Eval::Untuned, Eval::Classic] {
                let score = evaluate_as(&pos, eval);
                assert!(score.abs() <= bound, "{kind:?} {eval:?}: {score}");
            }
        }
    }

    #[test]
    fn the_phase_runs_from_the_opening_to_the_endgame() {
        for kind in GameKind::ALL {
            assert_eq!(phase(&Position::new(kind.rules())), 256, "{kind:?}");
        }
        let bare = Position::from_fen(
            variants::standard(),
            "4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1",
        )
        .unwrap();
        assert_eq!(phase(&bare), 0);
    }

    #[test]
    fn giving_pieces_away_is_good_in_giveaway_games() {
        let fewer = Position::from_fen(variants::antichess(), "rnbqkbnr/8/8/8/8/8/8/4K3 w - - 0 1")
            .unwrap();
        assert!(evaluate(&fewer) > 0);
    }

    #[test]
    fn a_minister_outweighs_a_queen_and_an_unstable_piece_is_a_worry() {
        let m = Position::from_fen(variants::void(), "4k4/9/9/9/9/9/9/9/M3K4 w - - 0 1").unwrap();
        let q = Position::from_fen(variants::void(), "4k4/9/9/9/9/9/9/9/Q3K4 w - - 0 1").unwrap();
        assert!(evaluate(&m) > evaluate(&q));
        let calm =
            Position::from_fen(variants::void(), "4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1").unwrap();
        let shaky = Position::from_fen(
            variants::void(),
            "4k4/9/9/9/4R4/9/9/9/4K4 b - - 0 1 unstable:e5w1",
        )
        .unwrap();
        assert!(
            evaluate(&shaky) > evaluate(&calm),
            "Black likes White's rook on a cracked tile"
        );
    }

    #[test]
    fn on_the_big_board_pawns_push_on_and_a_lead_hunts_the_king() {
        let with = |fen: &str| evaluate(&Position::from_fen(variants::super16(), fen).unwrap());
        let far = with("k15/16/16/16/7P8/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1");
        let near = with("k15/16/16/16/16/16/16/16/16/16/16/7P8/16/16/16/15K w - - 0 1");
        assert!(far > near, "a pawn on h12 is worth more than one on h5");
        let cornered = with("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/2Q13/15K w - - 0 1");
        let centred = with("16/16/16/16/16/16/16/8k7/16/16/16/16/16/16/2Q13/15K w - - 0 1");
        assert!(
            cornered > centred,
            "with a queen up, the enemy king belongs in a corner"
        );
    }

    #[test]
    fn a_king_beside_its_fortress_is_sheltered() {
        let with = |fen: &str| evaluate(&Position::from_fen(variants::super16(), fen).unwrap());
        let sheltered = with("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/8F7/7K8 w - - 0 1");
        let exposed = with("k15/16/16/16/16/16/16/16/16/16/16/16/16/8F7/16/7K8 w - - 0 1");
        assert!(sheltered > exposed);
    }

    /// The hand-set evaluations (the classic one and the terms' starting
    /// weights) count a wall of voids before one's king against it and
    /// voids beside a Minister for it. The tuned weights are the games' say,
    /// not ours: with kings alone they find voids near one's own king a
    /// shelter (`engine/tuning/runs.md`), so the signs are asked of the
    /// hand-set evaluations; that the terms see these things is tested in
    /// `terms`.
    #[test]
    fn void_walls_near_a_king_and_voids_a_minister_can_heal_count() {
        for eval in [Eval::Untuned, Eval::Classic] {
            let with =
                |fen: &str| evaluate_as(&Position::from_fen(variants::void(), fen).unwrap(), eval);
            let open = with("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1");
            let walled = with("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 void:c3,d3,e3,f3,g3");
            assert!(
                walled < open,
                "{eval:?}: a wall of voids in front of White's king"
            );
            let near = with("4k4/9/9/9/9/9/9/9/4K3M w - - 0 1 void:h2,i2");
            let far = with("4k4/9/9/9/9/9/9/9/4K3M w - - 0 1 void:a5,b5");
            assert!(near > far, "{eval:?}: a Minister beside voids it can heal");
        }
    }

    #[test]
    fn tuned_tables_name_only_known_terms() {
        for kind in GameKind::ALL {
            for (name, _, _) in weights::table(Some(kind)) {
                assert!(Term::named(name).is_some(), "{kind:?}: {name}");
            }
        }
    }
}
