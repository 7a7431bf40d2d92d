//! Iterative deepening alpha-beta with a transposition table and a
//! quiescence search.

use crate::eval::{evaluate, value};
use crate::tt::{Bound, Entry, Table};
use std::time::{Duration, Instant};
use voidmate_rules::{Move, MoveKind, Position};

/// A won game, in centipawns; mates closer to the root score higher.
pub const MATE: i32 = 1_000_000;
const INF: i32 = 2 * MATE;
/// How many plies of captures the quiescence search follows.
const MAX_QUIESCENCE: u32 = 8;

/// What bounds a search.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Deepest full-width iteration (`None`: until time runs out).
    pub depth: Option<u32>,
    /// Time budget for the whole search.
    pub time: Option<Duration>,
    /// Random centipawns (up to this many) added to each root move's score.
    pub noise: i32,
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            time: Some(Duration::from_secs(2)),
            noise: 0,
            seed: 0,
        }
    }
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            time: None,
            ..Limits::default()
        }
    }

    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }
}

/// The outcome of a search.
#[derive(Debug, Clone)]
pub struct SearchResult {
    pub best: Move,
    /// For the side to move, in centipawns; beyond ±(MATE - 1000) a mate.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl SearchResult {
    /// Moves to mate (positive: the side to move mates), if the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        let plies = MATE - self.score.abs();
        (plies < 1000).then(|| {
            let moves = (plies + 1) / 2;
            if self.score > 0 {
                moves
            } else {
                -moves
            }
        })
    }
}

struct Ctx<'a> {
    table: &'a mut Table,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Ctx<'_> {
    /// Counts a node; `true` when time is up.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }
}

/// Searches `pos` within `limits`; `None` when the game is over.
pub fn search(pos: &Position, limits: &Limits, table: &mut Table) -> Option<SearchResult> {
    let start = Instant::now();
    if pos.outcome().is_some() {
        return None;
    }
    let mut root = pos.legal_moves();
    if root.is_empty() {
        return None;
    }
    let mut ctx = Ctx {
        table,
        nodes: 0,
        deadline: limits.time.map(|t| start + t),
        stopped: false,
    };
    let max_depth = limits.depth.unwrap_or(64).max(1);
    let mut best: Option<(Move, i32, u32)> = None;
    for depth in 1..=max_depth {
        let mut alpha = -INF;
        let mut this: Option<(Move, i32)> = None;
        for (i, m) in root.clone().iter().enumerate() {
            let child = pos.after(m);
            let Some(score) = negamax(&child, depth - 1, -INF, -alpha, 1, &mut ctx) else {
                break;
            };
            let score = -score + noise(limits, m, i);
            if this.is_none_or(|(_, s)| score > s) {
                this = Some((*m, score));
                alpha = alpha.max(score);
            }
        }
        if ctx.stopped {
            // An unfinished iteration still tells us something if its
            // first (previously best) move was searched.
            if best.is_none() {
                if let Some((m, s)) = this {
                    best = Some((m, s, depth));
                }
            }
            break;
        }
        let (m, s) = this.expect("at least one move");
        best = Some((m, s, depth));
        // Search the best move first next time.
        if let Some(i) = root.iter().position(|x| *x == m) {
            root[..=i].rotate_right(1);
        }
        if s.abs() >= MATE - 1000 || root.len() == 1 && limits.time.is_some() {
            break;
        }
    }
    let (best, score, depth) = best.or_else(|| root.first().map(|m| (*m, 0, 0)))?;
    Some(SearchResult {
        best,
        score,
        depth,
        nodes: ctx.nodes,
        elapsed: start.elapsed(),
    })
}

/// Deterministic noise per move for the weaker levels.
fn noise(limits: &Limits, m: &Move, i: usize) -> i32 {
    if limits.noise == 0 {
        return 0;
    }
    let square = |s: voidmate_rules::Square| (s.file() as u64) << 4 | s.rank() as u64;
    let mut x = limits.seed ^ square(m.from) << 24 ^ square(m.to) << 12 ^ i as u64;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    (x % (2 * limits.noise as u64 + 1)) as i32 - limits.noise
}

/// The score of a finished game for the side to move, `ply` plies from the root.
fn terminal(pos: &Position, ply: u32) -> i32 {
    match pos.outcome().and_then(|o| o.winner()) {
        Some(w) if w == pos.turn() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

fn is_capture(pos: &Position, m: &Move) -> bool {
    m.kind == MoveKind::EnPassant || pos.piece_at(m.to).is_some_and(|p| p.color != pos.turn())
}

/// Orders moves: the table's move, then captures by most valuable victim
/// and least valuable attacker, then promotions.
fn order(pos: &Position, moves: &mut [Move], first: Option<Move>) {
    moves.sort_by_cached_key(|m| {
        if Some(*m) == first {
            return i32::MIN;
        }
        let mut key = 0;
        if let Some(victim) = pos.piece_at(m.to).filter(|p| p.color != pos.turn()) {
            let attacker = pos.piece_at(m.from).map(|p| value(p.role)).unwrap_or(0);
            key -= value(victim.role) * 16 - attacker / 8 + 10_000;
        }
        if let Some(p) = m.promotion {
            key -= value(p);
        }
        key
    });
}

fn negamax(
    pos: &Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    ctx: &mut Ctx,
) -> Option<i32> {
    if ctx.tick() {
        return None;
    }
    let mut moves = pos.legal_moves();
    if moves.is_empty() || pos.outcome().is_some() {
        return Some(terminal(pos, ply));
    }
    if pos.repetitions() >= 2 {
        return Some(0);
    }
    if depth == 0 {
        return quiescence(pos, alpha, beta, ply, 0, ctx);
    }
    let key = pos.board().key();
    let entry = ctx.table.get(key);
    if let Some(e) = entry.filter(|e| e.depth >= depth) {
        match e.bound {
            Bound::Exact => return Some(e.score),
            Bound::Lower if e.score >= beta => return Some(e.score),
            Bound::Upper if e.score <= alpha => return Some(e.score),
            _ => {}
        }
    }
    order(pos, &mut moves, entry.and_then(|e| e.best));
    let original_alpha = alpha;
    let mut best = -INF;
    let mut best_move = None;
    for m in &moves {
        let child = pos.after(m);
        let score = -negamax(&child, depth - 1, -beta, -alpha, ply + 1, ctx)?;
        if score > best {
            best = score;
            best_move = Some(*m);
        }
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    let bound = if best <= original_alpha {
        Bound::Upper
    } else if best >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    };
    ctx.table.put(Entry {
        key,
        depth,
        score: best,
        bound,
        best: best_move,
    });
    Some(best)
}

/// Captures (and, in Void Chess, escapes from a cracking tile) until the
/// position is quiet; the side to move may
/// "stand pat" on the static score unless its captures are forced
/// (giveaway games).
fn quiescence(
    pos: &Position,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    qdepth: u32,
    ctx: &mut Ctx,
) -> Option<i32> {
    if ctx.tick() {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(terminal(pos, ply));
    }
    let stand = evaluate(pos);
    // In Void Chess a piece left on its owner's unstable tile falls into the
    // void after the owner's next move: its escapes decide material too.
    let shaky = pos.board().unstable(pos.turn()).map(|u| u.square);
    let mut captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| is_capture(pos, m) || Some(m.from) == shaky)
        .collect();
    let forced = captures.len() == moves.len();
    if !forced {
        if stand >= beta {
            return Some(stand);
        }
        alpha = alpha.max(stand);
    }
    if captures.is_empty() || qdepth >= MAX_QUIESCENCE {
        return Some(stand);
    }
    // A capture that also moves a void comes once per square: look at one.
    captures.dedup_by_key(|m| (m.from, m.to, m.promotion));
    order(pos, &mut captures, None);
    let mut best = if forced { -INF } else { stand };
    for m in &captures {
        let child = pos.after(m);
        let score = -quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1, ctx)?;
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}
