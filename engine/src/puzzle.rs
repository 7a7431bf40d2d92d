//! Puzzles found in a game: the positions just after a mistake where the
//! other side now wins, and the line that wins, each of its moves the only
//! good one.
//!
//! The method is lichess's puzzle generator's, in our own code and with our
//! games' curves:
//!
//! - A **candidate** is a position after a move whose player to move now
//!   has a forced mate, or whose winning chances rose by more than 0.6 with
//!   the move (winning chances `2/(1+exp(-c·cp)) - 1`, `c` the game's own
//!   curve, a mate ±1), and who stands at least [`Thresholds::winning`]
//!   (the game's equivalent of +200 in standard chess). Skipped: positions
//!   with fewer than 2 legal moves, repeated positions, a side already
//!   winning before the mistake (above the equivalent of +300, unless it
//!   now mates), and, where material counts (not in a giveaway game), a
//!   side already up in material, or barely winning (below the equivalent of
//!   +400) without being down in material.
//! - The **solution**: at each of the solver's turns the best move must be
//!   the only good one: the best beats the second best by more than 0.7 in
//!   winning chances, or it is the only legal move, or it mates at once and
//!   no other move keeps a winning position (any mating move is then
//!   accepted, as lichess does). The opponent's replies are the engine's
//!   best. The line stops at the first solver's move that is not unique; a
//!   node below the winning threshold or a repeated position throws the
//!   puzzle away. The line is trimmed to end on a solver's move that was not
//!   forced; a one-move puzzle is kept only when it mates.
//! - **Confirmed deeper.** A solver's move that passes is searched again at
//!   [`CONFIRM`] times the effort, best and second best, and must pass
//!   again there as the same move (or another mate at once where it mates
//!   at once); otherwise the line stops before it. A move that is the only
//!   good one at one effort but not at the next is where a player finds a
//!   second answer the generator missed; the engine's tuning shifts such
//!   borderline judgements, and the confirmation keeps them out.
//!
//! Searches are the engine's own ([`search`], [`search_without`] for the
//! second best), at the effort the caller gives.

use std::fmt;

use voidmate_rules::{Color, Move, Position, Role};

use crate::eval::value;
use crate::search::{search, search_without, Limits, MATE};
use crate::tt::Table;

/// lichess's curve for standard chess (per centipawn).
pub const LICHESS_CURVE: f64 = 0.003_682_08;

/// The longest line searched, in plies (a mate in 8, or so many moves of an
/// advantage): longer lines are not puzzles anyone solves in chat.
pub const MAX_PLIES: usize = 15;

/// The most moves to a mate a candidate may need to count as "mates": a
/// mate further away is judged as an advantage.
const MATE_SOON_MOVES: i32 = 15;

/// Winning chances for the side a score belongs to, from -1 to 1: a mate
/// is ±1, a score in centipawns follows the game's curve `c`.
#[must_use]
pub fn winning_chances(score: i32, c: f64) -> f64 {
    if score >= MATE - 1000 {
        return 1.0;
    }
    if score <= -(MATE - 1000) {
        return -1.0;
    }
    2.0 / (1.0 + (-c * f64::from(score)).exp()) - 1.0
}

/// Whether a score is a mate for its side within `moves` moves.
fn mates_within(score: i32, moves: i32) -> bool {
    score >= MATE - 1000 && MATE - score < 2 * moves
}

/// A game's thresholds in its own centipawns: lichess's standard-chess
/// figures carried over at equal winning chances, so a game whose scores
/// run larger (a flatter curve) needs a larger score for the same chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// The game's curve.
    pub curve: f64,
    /// A winning position: +200 in standard chess.
    pub winning: i32,
    /// Already winning before the mistake: +300.
    pub won_before: i32,
    /// Clearly winning without a material deficit: +400.
    pub clear: i32,
    /// A crushing final position (the theme): +600.
    pub crushing: i32,
}

impl Thresholds {
    /// The thresholds for a game whose curve is `curve`.
    #[must_use]
    pub fn for_curve(curve: f64) -> Thresholds {
        let scale = |cp: f64| (cp * LICHESS_CURVE / curve).round() as i32;
        Thresholds {
            curve,
            winning: scale(200.0),
            won_before: scale(300.0),
            clear: scale(400.0),
            crushing: scale(600.0),
        }
    }

    /// A score's winning chances on this curve.
    #[must_use]
    pub fn chances(&self, score: i32) -> f64 {
        winning_chances(score, self.curve)
    }
}

/// What a puzzle is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// A mate in this many of the solver's moves (5 for five or more).
    MateIn(u8),
    /// The final position is won by a wide margin.
    Crushing,
    /// The final position is clearly better.
    Advantage,
    /// One of the solver's moves.
    OneMove,
    /// Two.
    Short,
    /// Three.
    Long,
    /// Four or more.
    VeryLong,
    /// Our games': a solver's move leaves a new void in the board (Void
    /// Chess's unstable tile collapsing, its own or one it stands a king
    /// on).
    VoidCollapse,
    /// Black Holes: a solver's move goes through a black hole and out of a
    /// white one.
    HoleTransport,
    /// Suicide Void Chess: a solver's capture moves the void.
    VoidShift,
}

impl Theme {
    /// The name as lichess writes it (`mateIn2`, `veryLong`).
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Theme::MateIn(n) => format!("mateIn{n}"),
            Theme::Crushing => "crushing".into(),
            Theme::Advantage => "advantage".into(),
            Theme::OneMove => "oneMove".into(),
            Theme::Short => "short".into(),
            Theme::Long => "long".into(),
            Theme::VeryLong => "veryLong".into(),
            Theme::VoidCollapse => "voidCollapse".into(),
            Theme::HoleTransport => "holeTransport".into(),
            Theme::VoidShift => "voidShift".into(),
        }
    }

    /// A theme by its name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Theme> {
        Some(match name {
            "crushing" => Theme::Crushing,
            "advantage" => Theme::Advantage,
            "oneMove" => Theme::OneMove,
            "short" => Theme::Short,
            "long" => Theme::Long,
            "veryLong" => Theme::VeryLong,
            "voidCollapse" => Theme::VoidCollapse,
            "holeTransport" => Theme::HoleTransport,
            "voidShift" => Theme::VoidShift,
            _ => {
                let n: u8 = name.strip_prefix("mateIn")?.parse().ok()?;
                if !(1..=5).contains(&n) {
                    return None;
                }
                Theme::MateIn(n)
            }
        })
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A puzzle: the position it starts from (the solver to move) and the
/// line, the solver's moves at even indices, the opponent's replies at odd
/// ones; it ends on a solver's move.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Which position of the game it starts from (0 is the start).
    pub ply: usize,
    pub line: Vec<Move>,
    /// The solver's score after the line, as the last search gave it.
    pub score: i32,
    pub themes: Vec<Theme>,
}

impl Puzzle {
    /// The solver's colour.
    #[must_use]
    pub fn solver(&self, start: &Position) -> Color {
        start.turn()
    }

    /// How many moves the solver makes.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }
}

/// Material in centipawns, `color`'s less the other side's.
fn material(pos: &Position, color: Color) -> i32 {
    let side = |c: Color| -> i32 {
        pos.board()
            .occupied(c)
            .iter()
            .filter_map(|sq| pos.piece_at(sq))
            .filter(|p| p.role != Role::King)
            .map(|p| value(p.role))
            .sum()
    };
    side(color) - side(!color)
}

/// Whether position `i` of a game (after its move `i`) is a candidate,
/// given each position's score for its side to move (`None`: unknown).
/// `positions[i]` must carry the game's history (for repetitions).
#[must_use]
pub fn is_candidate(
    positions: &[Position],
    scores: &[Option<i32>],
    i: usize,
    t: &Thresholds,
) -> bool {
    if i == 0 || i >= positions.len() {
        return false;
    }
    let (Some(Some(now)), Some(Some(before))) = (scores.get(i), scores.get(i - 1)) else {
        return false;
    };
    let pos = &positions[i];
    // The winner's view: now, and before the opponent's move.
    let (now, before) = (*now, -*before);
    if pos.outcome().is_some() || pos.legal_moves().len() < 2 || pos.repetitions() > 1 {
        return false;
    }
    let mates = mates_within(now, MATE_SOON_MOVES);
    if before > t.won_before && !mates {
        return false;
    }
    if mates {
        return true;
    }
    if now < t.winning || t.chances(now) <= t.chances(before) + 0.6 {
        return false;
    }
    if pos.rules().is_giveaway() {
        return true;
    }
    let diff = material(pos, pos.turn());
    // Up in material already: the advantage was there to see.
    if diff > 0 {
        return false;
    }
    // Barely winning, and not from a deficit: not clear enough.
    !(now < t.clear && diff >= 0)
}

/// The best move and score, and the second best's score (`None`: the only
/// legal move).
fn pair(pos: &Position, limits: &Limits, table: &mut Table) -> Option<(Move, i32, Option<i32>)> {
    let best = search(pos, limits, table)?;
    let second = search_without(pos, limits, table, &[best.best]).map(|s| s.score);
    Some((best.best, best.score, second))
}

/// How many times the effort a solver's move is confirmed at.
pub const CONFIRM: u32 = 2;

/// `limits` with [`CONFIRM`] times the effort: nodes and time scaled, or
/// one more iteration where only the depth bounds the search.
fn deeper(limits: &Limits) -> Limits {
    let only_depth = limits.nodes.is_none() && limits.time.is_none();
    Limits {
        nodes: limits.nodes.map(|n| n.saturating_mul(u64::from(CONFIRM))),
        time: limits.time.map(|d| d.saturating_mul(CONFIRM)),
        depth: limits.depth.map(|d| if only_depth { d + 1 } else { d }),
        ..*limits
    }
}

/// Whether `m`, the solver's only good move at `limits`, is still that at
/// [`CONFIRM`] times the effort.
fn confirmed(pos: &Position, m: &Move, limits: &Limits, table: &mut Table, t: &Thresholds) -> bool {
    let Some((again, best, second)) = pair(pos, &deeper(limits), table) else {
        return false;
    };
    let mates = |mv: &Move| {
        pos.after(mv)
            .outcome()
            .is_some_and(|o| o.winner() == Some(pos.turn()))
    };
    let same = again == *m || mates(m) && mates(&again);
    same && best >= t.winning && only_move(best, second, t)
}

/// Whether the solver's best move is the only good one.
fn only_move(best: i32, second: Option<i32>, t: &Thresholds) -> bool {
    let Some(second) = second else {
        return true;
    };
    if mates_within(best, 1) {
        // Any mating move is a solution; the others must not also win.
        return mates_within(second, 1) || t.chances(second) <= 0.6;
    }
    t.chances(best) > t.chances(second) + 0.7
}

/// The line from `start` (the solver to move; searched from the position
/// alone, without the game's history), or `None` when there is no puzzle
/// in it. `limits` bounds each search (two at each solver's turn,
/// one at each reply).
#[must_use]
pub fn solve(
    start: &Position,
    limits: &Limits,
    table: &mut Table,
    t: &Thresholds,
) -> Option<(Vec<Move>, i32, bool)> {
    let solver = start.turn();
    // From the position alone, as the solver will see it (a FEN, no game
    // behind it): a line the game's history would have made a repetition
    // is a solution there too, and must count against uniqueness.
    let mut pos = Position::from_fen(start.shared_rules().clone(), &start.fen())
        .unwrap_or_else(|_| start.clone());
    // Each solver's move, with whether it was forced (the only legal one).
    let mut line: Vec<(Move, bool)> = Vec::new();
    let mut last_score = 0;
    let mut mated = false;
    while line.len() < MAX_PLIES {
        if let Some(outcome) = pos.outcome() {
            mated = outcome.winner() == Some(solver);
            break;
        }
        if pos.turn() == solver {
            let (m, best, second) = pair(&pos, limits, table)?;
            if best < t.winning {
                return None;
            }
            // A forced move needs no confirming.
            if !only_move(best, second, t)
                || second.is_some() && !confirmed(&pos, &m, limits, table, t)
            {
                break;
            }
            last_score = best;
            line.push((m, second.is_none()));
            pos = pos.after(&m);
        } else {
            let reply = search(&pos, limits, table)?;
            // The solver's view after the reply.
            if -reply.score < t.winning {
                return None;
            }
            line.push((reply.best, false));
            pos = pos.after(&reply.best);
        }
        if pos.repetitions() > 1 {
            return None;
        }
    }
    // End on a solver's move, and not on a forced one (unless it mates).
    while let Some(&(_, forced)) = line.last() {
        let on_solver = line.len() % 2 == 1;
        if on_solver && (!forced || mated) {
            break;
        }
        line.pop();
        mated = false;
    }
    if line.is_empty() || line.len() == 1 && !mated {
        return None;
    }
    Some((
        line.into_iter().map(|(m, _)| m).collect(),
        last_score,
        mated,
    ))
}

/// The themes of a line: mate in N, or crushing / advantage by the final
/// score; its length.
#[must_use]
pub fn themes(line_len: usize, score: i32, mated: bool, t: &Thresholds) -> Vec<Theme> {
    let moves = line_len.div_ceil(2);
    let mut out = Vec::new();
    if mated {
        out.push(Theme::MateIn(moves.min(5) as u8));
    } else if score > t.crushing {
        out.push(Theme::Crushing);
    } else {
        out.push(Theme::Advantage);
    }
    out.push(match moves {
        0 | 1 => Theme::OneMove,
        2 => Theme::Short,
        3 => Theme::Long,
        _ => Theme::VeryLong,
    });
    out
}

/// The themes of our own games in a line from `start` (the solver's moves
/// at even indices): a void made by a solver's move, a journey through
/// the holes, the void moved by a capture.
#[must_use]
pub fn game_themes(start: &Position, line: &[Move]) -> Vec<Theme> {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for (i, m) in line.iter().enumerate() {
        let after = pos.after(m);
        if i % 2 == 0 {
            let found = [
                (
                    after.board().voids().len() > pos.board().voids().len(),
                    Theme::VoidCollapse,
                ),
                (pos.holes_passed(m).is_some(), Theme::HoleTransport),
                (
                    m.via.is_some()
                        && pos.rules().variant().voids() == voidmate_rules::variant::Voids::Placed,
                    Theme::VoidShift,
                ),
            ];
            for (yes, theme) in found {
                if yes && !out.contains(&theme) {
                    out.push(theme);
                }
            }
        }
        pos = after;
    }
    out
}

/// Every puzzle in a game: `positions` from the start (each carrying its
/// history), `scores` each position's score for its side to move (from a
/// review, or a quick scan); each candidate solved within `limits`.
#[must_use]
pub fn find(
    positions: &[Position],
    scores: &[Option<i32>],
    limits: &Limits,
    table: &mut Table,
    t: &Thresholds,
) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < positions.len() {
        if is_candidate(positions, scores, i, t) {
            if let Some((line, score, mated)) = solve(&positions[i], limits, table, t) {
                let mut themes = themes(line.len(), score, mated, t);
                themes.extend(game_themes(&positions[i], &line));
                let len = line.len();
                out.push(Puzzle {
                    ply: i,
                    line,
                    score,
                    themes,
                });
                // The next mistake comes after this puzzle's line.
                i += len;
            }
        }
        i += 1;
    }
    out
}

/// Each position's score for its side to move, by a search within
/// `limits` (the scan that finds candidates when no review is stored).
#[must_use]
pub fn scan(positions: &[Position], limits: &Limits, table: &mut Table) -> Vec<Option<i32>> {
    positions
        .iter()
        .map(|p| match p.outcome() {
            Some(o) => Some(match o.winner() {
                Some(w) if w == p.turn() => MATE,
                Some(_) => -MATE,
                None => 0,
            }),
            None => search(p, limits, table).map(|r| r.score),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    fn game(fen: Option<&str>, moves: &[&str]) -> Vec<Position> {
        let mut pos = match fen {
            Some(f) => Position::from_fen(variants::standard(), f).unwrap(),
            None => Position::new(variants::standard()),
        };
        let mut out = vec![pos.clone()];
        for m in moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
            pos = pos.after(&mv);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn winning_chances_follow_the_curve_and_mates_are_certain() {
        assert!((winning_chances(0, LICHESS_CURVE)).abs() < 1e-9);
        let w = winning_chances(200, LICHESS_CURVE);
        assert!((w - 0.35).abs() < 0.01, "{w}");
        assert_eq!(winning_chances(MATE - 3, LICHESS_CURVE), 1.0);
        assert_eq!(winning_chances(-(MATE - 3), LICHESS_CURVE), -1.0);
        // A flatter curve (Void Chess's) needs a larger score for the same.
        let t = Thresholds::for_curve(0.002_726);
        assert!(t.winning > 200 && t.winning < 300, "{}", t.winning);
        let same = winning_chances(t.winning, t.curve);
        assert!((same - w).abs() < 0.01);
    }

    #[test]
    fn theme_names_round_trip() {
        for t in [
            Theme::MateIn(1),
            Theme::MateIn(5),
            Theme::Crushing,
            Theme::Advantage,
            Theme::OneMove,
            Theme::Short,
            Theme::Long,
            Theme::VeryLong,
        ] {
            assert_eq!(Theme::from_name(&t.name()), Some(t));
        }
        assert_eq!(Theme::from_name("mateIn6"), None);
        assert_eq!(Theme::from_name("fork"), None);
    }

    /// The scholar's mate missed: after 3...Nf6?? White mates at once with
    /// one move only: a one-move puzzle, kept because it mates.
    #[test]
    fn a_blunder_into_mate_is_a_mate_in_one() {
        let positions = game(None, &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
        let t = Thresholds::for_curve(LICHESS_CURVE);
        let limits = Limits::depth(4);
        let mut table = Table::new(1 << 16);
        let scores = scan(&positions, &limits, &mut table);
        assert!(is_candidate(&positions, &scores, 6, &t));
        let found = find(&positions, &scores, &limits, &mut table, &t);
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!(p.ply, 6);
        assert_eq!(p.line, vec![positions[6].parse_move("Qxf7#").unwrap()]);
        assert_eq!(p.themes, vec![Theme::MateIn(1), Theme::OneMove]);
    }

    /// A quiet game with no mistake has no puzzle; nor does a position the
    /// winner stood well in already.
    #[test]
    fn no_mistake_no_puzzle() {
        let positions = game(None, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        let t = Thresholds::for_curve(LICHESS_CURVE);
        let limits = Limits::depth(4);
        let mut table = Table::new(1 << 16);
        let scores = scan(&positions, &limits, &mut table);
        assert!(find(&positions, &scores, &limits, &mut table, &t).is_empty());
        // Winning chances that did not jump: the score before was as good.
        let flat = vec![Some(0), Some(-500), Some(500)];
        let three = game(None, &["e4", "e5"]);
        assert!(!is_candidate(&three, &flat, 2, &t));
    }

    /// Doubled rooks against a back rank: 1.Rd8+ Rxd8 2.Rxd8#, the only win
    /// (Black's queen and knights make every other move a worse game).
    fn mate_in_two() -> Position {
        Position::from_fen(
            variants::standard(),
            "r5k1/q4ppp/8/nn6/8/8/3R1PPP/3R2K1 w - - 0 1",
        )
        .unwrap()
    }

    /// The confirmation's effort: twice the nodes or the time, or one more
    /// iteration where only the depth bounds the search.
    #[test]
    fn confirming_doubles_the_effort() {
        assert_eq!(deeper(&Limits::depth(5)).depth, Some(6));
        let by_nodes = Limits {
            nodes: Some(1_000),
            time: None,
            depth: Some(9),
            ..Limits::default()
        };
        let d = deeper(&by_nodes);
        assert_eq!((d.nodes, d.depth, d.time), (Some(2_000), Some(9), None));
        let timed = Limits::default();
        assert_eq!(deeper(&timed).time, timed.time.map(|t| t * 2));
    }

    /// A solver's move is confirmed only when the deeper search finds it
    /// again and still alone: in the mate in two below, `Rd8+` is; a move
    /// that gives the mate away is not, nor is the best move of a level game.
    #[test]
    fn only_the_deeper_searchs_only_move_is_confirmed() {
        let start = mate_in_two();
        let t = Thresholds::for_curve(LICHESS_CURVE);
        let mut table = Table::new(1 << 16);
        let limits = Limits::depth(4);
        let rd8 = start.parse_move("Rd8+").unwrap();
        assert!(confirmed(&start, &rd8, &limits, &mut table, &t));
        let h3 = start.parse_move("h3").unwrap();
        assert!(!confirmed(&start, &h3, &limits, &mut table, &t));
        let level = Position::new(variants::standard());
        let e4 = level.parse_move("e4").unwrap();
        assert!(!confirmed(&level, &e4, &limits, &mut table, &t));
    }

    /// A mate in two with a unique first move: two solver moves, the reply
    /// the engine's best, the line ending on the mate.
    #[test]
    fn a_mate_in_two_is_solved_to_the_mate() {
        let start = mate_in_two();
        let t = Thresholds::for_curve(LICHESS_CURVE);
        let mut table = Table::new(1 << 16);
        let (line, _, mated) = solve(&start, &Limits::depth(5), &mut table, &t).expect("a puzzle");
        assert!(mated);
        assert_eq!(line.len(), 3, "{line:?}");
        assert_eq!(themes(line.len(), 0, mated, &t)[0], Theme::MateIn(2));
        let mut pos = start.clone();
        for m in &line {
            assert!(pos.is_legal(m));
            pos = pos.after(m);
        }
        assert_eq!(pos.outcome().and_then(|o| o.winner()), Some(Color::White));
    }

    /// A Void Chess line in which the solver's capture leaves an unstable
    /// tile that collapses at the end of the solver's next move: the
    /// `voidCollapse` theme; a line of standard chess has none of ours.
    #[test]
    fn our_games_themes_are_read_from_the_line() {
        let play = |pos: &Position, sans: &[&str]| -> (Position, Vec<Move>) {
            let mut p = pos.clone();
            let mut moves = Vec::new();
            for san in sans {
                let m = p.parse_move(san).unwrap();
                p = p.after(&m);
                moves.push(m);
            }
            (p, moves)
        };
        let void = Position::new(variants::by_name("void").unwrap());
        let (start, _) = play(&void, &["e4", "d6", "d4", "e6", "e5"]);
        let (end, line) = play(&start, &["dxe5", "a3", "a6"]);
        assert!(end.board().voids().len() > start.board().voids().len());
        assert_eq!(game_themes(&start, &line), vec![Theme::VoidCollapse]);
        assert_eq!(Theme::from_name("voidCollapse"), Some(Theme::VoidCollapse));
        assert_eq!(
            Theme::from_name("holeTransport"),
            Some(Theme::HoleTransport)
        );
        assert_eq!(Theme::VoidShift.name(), "voidShift");
        let standard = Position::new(variants::standard());
        let (_, line) = play(&standard, &["e4", "d5", "exd5"]);
        assert!(game_themes(&standard, &line).is_empty());
    }
}
