//! The one place that picks the route for every question about a
//! position: the bitboard route ([`crate::bitboard`]) where the rules built
//! one (`Rules::build` decides, once) and the position allows it, else the
//! mailbox ([`crate::movegen`]). The legal moves (then the variant's own
//! filter), their count, whether a square is attacked, a piece's reach and
//! an exchange's outcome are all asked here. The bitboard route asks the
//! game's rules and the mailbox what it cannot answer through [`Mailbox`],
//! so neither it nor the mailbox reads the other.

use crate::bitboard::{self, List};
use crate::board::Board;
use crate::exchange::exchange_by_cells;
use crate::movegen;
use crate::rules::Rules;
use crate::{CastlingSide, Color, Move, MoveList, Role, Square};

/// The game's rules and the mailbox, for what the bitboard route leaves to
/// them.
struct Mailbox<'a>(&'a Rules);

impl bitboard::Mailbox for Mailbox<'_> {
    fn restricted(&self, b: &Board) -> bool {
        self.0.limits_or_blocks && self.0.variant.restriction(self.0, b).is_some()
    }

    fn blocker_after_move(&self, b: &Board) -> Option<Square> {
        if !self.0.limits_or_blocks {
            return None;
        }
        self.0.variant.blocker_after_move(b)
    }

    fn leaves_king_safe(&self, b: &Board, mv: &Move) -> bool {
        movegen::leaves_king_safe(self.0, b, mv)
    }

    fn piece_moves(&self, b: &Board, from: Square, out: &mut MoveList) {
        movegen::piece_moves(self.0, b, from, out)
    }

    fn castling_move(&self, b: &Board, side: CastlingSide) -> Option<Move> {
        let castling = self.0.def.castling.as_ref()?;
        movegen::castling_move(self.0, b, castling, side).ok()
    }
}

/// `true` if a piece of `by` attacks `target`: could capture there if an
/// enemy piece stood on it.
#[inline]
pub(crate) fn attacked(rules: &Rules, b: &Board, target: Square, by: Color) -> bool {
    match &rules.bitboards {
        Some(route) => route.attacked(b, target, by),
        None => movegen::attacked_by_cells(rules, b, target, by),
    }
}

/// How many squares the piece on `from` reaches (see [`movegen::reach`]).
#[inline]
pub(crate) fn reach(rules: &Rules, b: &Board, from: Square) -> u32 {
    if let (Some(route), Some(piece)) = (&rules.bitboards, b.piece_at(from)) {
        if movegen::counts_reach(rules, piece) {
            if let Some(n) = route.reach(b, from, piece.color, piece.role) {
                return n;
            }
        }
    }
    movegen::reach(rules, b, from)
}

/// What a capture or quiet move on `from`-`to` wins in a static exchange
/// (see [`crate::Position::exchange`]): on the bitboard route where the game
/// has one, else on the mailbox ([`exchange_by_cells`], `None` where pieces
/// attack in ways the tables do not list).
pub(crate) fn exchange(
    rules: &Rules,
    b: &Board,
    from: Square,
    to: Square,
    victim: i32,
    value: &dyn Fn(Role) -> i32,
) -> Option<i32> {
    match &rules.bitboards {
        Some(route) => Some(route.exchange(b, from, to, victim, value)),
        None => exchange_by_cells(rules, b, from, to, victim, value),
    }
}

/// Fills `out` with the legal moves of the side to move. A full list may
/// have left some out (Black Holes with many holes): [`all_legal_moves`]
/// lists them all.
pub(crate) fn legal_moves(rules: &Rules, b: &Board, out: &mut MoveList) {
    out.clear();
    if let Some(t) = &rules.bitboards {
        let mut list = List {
            promotions: t.promotions(),
            out,
        };
        if t.legal(b, &mut list, &Mailbox(rules)) {
            return;
        }
        out.clear();
    }
    movegen::plain_legal_moves(rules, b, out);
    rules.variant.filter_moves(rules, b, out);
}

/// Every legal move, however many: on the heap, and asked of the variant
/// when a [`MoveList`] cannot hold them.
pub(crate) fn all_legal_moves(rules: &Rules, b: &Board) -> Vec<Move> {
    let mut moves = MoveList::new();
    legal_moves(rules, b, &mut moves);
    if moves.is_full() {
        if let Some(all) = rules.variant.all_legal_moves(rules, b) {
            return all;
        }
    }
    moves.to_vec()
}

/// The side to move's moves for a search that tests each one's legality
/// only when it comes to it ([`crate::UncheckedMoves`]): on the mailbox,
/// where the game filters none of its own, the moves before the legality
/// filter and the filter's test; else the legal moves and no test.
pub(crate) fn unchecked_moves(rules: &Rules, b: &Board) -> (Vec<Move>, Option<movegen::Legality>) {
    if rules.bitboards.is_some() || rules.variant.filters_moves() {
        return (all_legal_moves(rules, b), None);
    }
    let mut out = MoveList::new();
    movegen::pseudo_moves(rules, b, &mut out);
    movegen::castling_moves(rules, b, &mut out);
    (out.to_vec(), Some(movegen::legality(rules, b)))
}

/// Counts the legal moves without keeping them (perft's last ply).
fn count_legal(rules: &Rules, b: &Board) -> u64 {
    if rules.variant.filters_moves() {
        return count_listed(rules, b);
    }
    if let Some(count) = rules
        .bitboards
        .as_ref()
        .and_then(|t| t.count(b, &Mailbox(rules)))
    {
        return count;
    }
    movegen::plain_count(rules, b)
}

/// Counts the legal moves by listing them, for a game that filters them.
/// Not inlined into [`count_legal`]: the list's tens of kilobytes of stack
/// would be probed on every count, also where the bitboards answer.
#[inline(never)]
fn count_listed(rules: &Rules, b: &Board) -> u64 {
    let mut moves = MoveList::new();
    legal_moves(rules, b, &mut moves);
    if moves.is_full() {
        return all_legal_moves(rules, b).len() as u64;
    }
    moves.len() as u64
}

/// Counts leaf nodes of the legal move tree to `depth`.
pub(crate) fn perft(rules: &Rules, b: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(rules, b),
        _ => perft_node(rules, b, depth),
    }
}

/// [`perft`] below a node of `depth` two or more. Its own frame: the move
/// list's stack is probed on each call, which the last ply, counted without
/// a list, must not pay.
#[inline(never)]
fn perft_node(rules: &Rules, b: &Board, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    legal_moves(rules, b, &mut moves);
    let below = |n: &Board| {
        if depth == 2 {
            count_legal(rules, n)
        } else {
            perft_node(rules, n, depth - 1)
        }
    };
    if moves.is_full() {
        return all_legal_moves(rules, b)
            .iter()
            .map(|m| below(&movegen::make(rules, b, m)))
            .sum();
    }
    // One scratch board for the node's moves, put back after each.
    let mut n = *b;
    let mut total = 0;
    for m in &moves {
        movegen::play(rules, &mut n, m);
        total += below(&n);
        if !n.undo_to(b) {
            n = *b;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Count;
    use crate::bits::Sets;
    use crate::{fen, variants, Color, MoveKind};

    /// The same variant's rules with the bitboard route switched off: the
    /// mailbox route, which the bitboard route must agree with.
    fn mailbox_only(rules: &Rules) -> Rules {
        let mut r = Rules::new(rules.variant);
        r.bitboards = None;
        r
    }

    fn both_routes(rules: &Rules, mailbox: &Rules, b: &Board) -> (Vec<String>, Vec<String>, bool) {
        let t = rules.bitboards.as_ref().expect("tables");
        let mut fast = MoveList::new();
        let used = t.legal(
            b,
            &mut List {
                promotions: t.promotions(),
                out: &mut fast,
            },
            &Mailbox(rules),
        );
        if !used {
            fast.clear();
            legal_moves(mailbox, b, &mut fast);
        }
        let mut slow = MoveList::new();
        legal_moves(mailbox, b, &mut slow);
        let names = |l: &MoveList| {
            let mut v: Vec<String> = l.iter().map(|m| format!("{m:?}")).collect();
            v.sort();
            v
        };
        let mut count = Count(0);
        if used {
            assert!(t.legal(b, &mut count, &Mailbox(rules)));
            assert_eq!(count.0 as usize, fast.len(), "count and list differ");
        }
        (names(&fast), names(&slow), used)
    }

    #[test]
    fn only_the_suitable_variants_get_tables() {
        assert!(variants::standard().bitboards.is_some());
        assert!(variants::void().bitboards.is_some());
        for name in [
            "antichess",
            "suicide-void",
            "chess99",
            "black-holes",
            "super16",
        ] {
            let rules = variants::by_name(name).unwrap();
            assert!(rules.bitboards.is_none(), "{name} should use the mailbox");
            // Its boards keep no bitboards that nothing reads.
            let start = fen::parse(rules, rules.def.start_fen).unwrap();
            assert_eq!(start.width, 0, "{name}");
            assert!(start.bits == Sets::default(), "{name}");
        }
    }

    #[test]
    fn the_start_positions_take_the_bitboard_route() {
        for rules in [variants::standard(), variants::void()] {
            let b = &rules.empty;
            let start = fen::parse(rules, rules.def.start_fen).unwrap();
            assert_eq!(b.width, rules.def.size.files());
            let mailbox = mailbox_only(rules);
            let (fast, slow, used) = both_routes(rules, &mailbox, &start);
            assert!(used, "{} start fell back", rules.name());
            assert_eq!(fast, slow);
        }
    }

    /// The mover's unstable tile blocks lines once the move is over: a piece
    /// behind it is not pinned, and a king may step where the tile will
    /// shield it. The route must agree with playing the moves out.
    #[test]
    fn the_tile_about_to_turn_void_blocks_lines() {
        let rules = variants::void();
        let mailbox = mailbox_only(rules);
        for (fen, by_sets) in [
            // White's unstable tile e2 (under its bishop) shields the file: the
            // knight on e3 may leave it.
            ("k3r4/9/9/9/9/9/4N4/4B4/4K4 w - - 0 10 unstable:e2w9", true),
            // The knight on c2, its own unstable tile, may leave the rook's rank.
            ("4k4/9/9/9/9/9/9/r1N1K4/9 w - - 0 10 unstable:c2w9", true),
            // A rook on its unstable tile between the king and a queen.
            ("4q3k/9/9/9/9/9/9/4R4/4K4 w - - 0 10 unstable:e2w9", true),
            // A black Minister next to the tile about to turn void: played out.
            ("4k4/9/9/9/9/9/3m5/4N4/4K4 w - - 0 10 unstable:e2w9", false),
        ] {
            let b = fen::parse(rules, fen).unwrap();
            let (fast, slow, used) = both_routes(rules, &mailbox, &b);
            assert_eq!(fast, slow, "{fen}");
            assert_eq!(used, by_sets, "{fen}");
        }
    }

    /// An enemy Minister within three steps of the king: the squares it
    /// attacks are worked out once for every king step, and the pieces
    /// between it and the king are tested by playing. Not in check, so the
    /// route takes all of these by sets.
    #[test]
    fn ministers_near_the_king() {
        let rules = variants::void();
        let mailbox = mailbox_only(rules);
        for fen in [
            // Three steps from the king over empty squares: the squares
            // next to the king on its side are covered, the back rank is not.
            "4k4/9/9/9/4m4/9/9/4K4/9 w - - 0 10",
            // The same Minister behind a wall of pawns it cannot pass: a pawn
            // that steps off the wall opens a path to the king.
            "4k4/9/9/9/9/4m4/3PPP3/4K4/9 w - - 0 10",
            // Three steps away, one path across a void (the Minister may
            // cross it), one across a knight (it may not).
            "4k4/9/9/9/4m4/9/9/3NK4/9 w - - 0 10 void:e4",
            // Two Ministers (one from a promotion), one near and one far; a
            // knight keeps the near one from the king, which may not take a
            // pawn the Minister guards.
            "m3k4/9/9/9/9/2m6/3N5/3pK4/9 w - - 0 10",
            // Black to move, the white Minister three steps from the king.
            "9/4k4/9/9/4M4/9/9/9/4K4 b - - 0 10",
        ] {
            let b = fen::parse(rules, fen).unwrap();
            let (fast, slow, used) = both_routes(rules, &mailbox, &b);
            assert_eq!(fast, slow, "{fen}");
            assert!(used, "{fen} fell back");
            assert!(!fast.is_empty(), "{fen}");
        }
    }

    /// Every square's attackers and every piece's mobility, by sets and by
    /// cells: the search asks both at every node.
    fn attacks_and_reach_agree(rules: &Rules, mailbox: &Rules, b: &Board) {
        let (files, ranks) = (rules.def.size.files(), rules.def.size.ranks());
        for f in 0..files {
            for r in 0..ranks {
                let sq = Square::new(f, r);
                for by in [Color::White, Color::Black] {
                    assert_eq!(
                        attacked(rules, b, sq, by),
                        movegen::attacked_by_cells(mailbox, b, sq, by),
                        "{sq:?} attacked by {by:?} in {}",
                        fen::format(rules, b)
                    );
                }
                assert_eq!(
                    reach(rules, b, sq),
                    reach(mailbox, b, sq),
                    "reach of {sq:?} in {}",
                    fen::format(rules, b)
                );
            }
        }
    }

    /// Random games of both variants: at every position the two routes list
    /// the same moves and agree on attacks and mobility, and counting agrees
    /// with listing.
    #[test]
    fn random_games_agree_with_the_mailbox() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut used = 0;
        let mut positions = 0;
        for rules in [variants::standard(), variants::void()] {
            let mailbox = mailbox_only(rules);
            for _ in 0..60 {
                let mut b = fen::parse(rules, rules.def.start_fen).unwrap();
                for _ in 0..150 {
                    let (fast, slow, u) = both_routes(rules, &mailbox, &b);
                    assert_eq!(fast, slow, "{}", fen::format(rules, &b));
                    attacks_and_reach_agree(rules, &mailbox, &b);
                    positions += 1;
                    used += u as usize;
                    let mut moves = MoveList::new();
                    legal_moves(&mailbox, &b, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let mv = moves[(state % moves.len() as u64) as usize];
                    b = movegen::make(rules, &b, &mv);
                }
            }
        }
        // Most positions should not need the fallback.
        assert!(
            used * 2 > positions,
            "bitboard route used in {used} of {positions}"
        );
    }

    /// Plays `moves` random legal moves from the start of `rules`, calling
    /// `visit` on each position reached.
    fn random_game(rules: &Rules, seed: u64, moves: usize, mut visit: impl FnMut(&Board)) {
        let mut state = seed | 1;
        let mut b = fen::parse(rules, rules.def.start_fen).unwrap();
        for _ in 0..moves {
            visit(&b);
            let all = all_legal_moves(rules, &b);
            if all.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            b = movegen::make(rules, &b, &all[(state % all.len() as u64) as usize]);
        }
    }

    /// The mailbox's static exchange, which Chess 99 and Super Chess use,
    /// answers as the bitboard route does in the games that have both:
    /// every legal capture and quiet move of random standard and Void Chess
    /// games, x-rays, voids and pins left to the swap list alike.
    #[test]
    fn mailbox_exchange_agrees_with_the_bitboard_route() {
        let value = |r: Role| match r {
            Role::Pawn => 100,
            Role::Knight => 310,
            Role::Bishop => 330,
            Role::Rook => 500,
            Role::Queen => 950,
            Role::King => 100_000,
            _ => 600,
        };
        let (mut captures, mut losing) = (0, 0);
        for rules in [variants::standard(), variants::void()] {
            let route = rules.bitboards.as_ref().expect("tables");
            let mailbox = mailbox_only(rules);
            for seed in 1..=16u64 {
                random_game(rules, seed * 0x2545_f491, 140, |b| {
                    for mv in all_legal_moves(rules, b) {
                        if mv.promotion.is_some()
                            || !matches!(mv.kind, MoveKind::Normal | MoveKind::DoubleStep)
                        {
                            continue;
                        }
                        let victim = b.piece_at(mv.to).map_or(0, |p| value(p.role));
                        let fast = route.exchange(b, mv.from, mv.to, victim, &value);
                        let slow = exchange_by_cells(&mailbox, b, mv.from, mv.to, victim, &value);
                        assert_eq!(Some(fast), slow, "{mv:?} in {}", fen::format(rules, b));
                        captures += (victim > 0) as usize;
                        losing += (fast < 0) as usize;
                    }
                });
            }
        }
        assert!(
            captures > 1000 && losing > 1000,
            "{captures} captures, {losing} losing"
        );
    }

    /// Perft puts its scratch board back after each move by the cells its
    /// sets say changed: every field must come back, in every small-board
    /// game, whatever the move (captures, castling, promotion, en passant,
    /// tiles turning void).
    #[test]
    fn undoing_a_move_restores_the_whole_board() {
        let mut undone = 0;
        for kind in crate::GameKind::ALL {
            let rules = kind.rules();
            for seed in 1..=12u64 {
                random_game(rules, seed * 0x9e37_79b9, 120, |b| {
                    for mv in all_legal_moves(rules, b) {
                        let mut n = *b;
                        movegen::play(rules, &mut n, &mv);
                        if !n.undo_to(b) {
                            assert_eq!(b.width, 0, "{} {mv:?}", rules.name());
                            continue;
                        }
                        undone += 1;
                        let at = || format!("{} after {mv:?}", fen::format(rules, b));
                        assert!(n.cells == b.cells, "cells: {}", at());
                        assert!(
                            n.bits == b.bits && n.occupied == b.occupied,
                            "sets: {}",
                            at()
                        );
                        assert!(n.voids == b.voids && n.counts == b.counts, "{}", at());
                        assert_eq!(n.kings, b.kings, "{}", at());
                        assert_eq!(n.key(), b.key(), "{}", at());
                        assert_eq!(fen::format(rules, &n), fen::format(rules, b));
                    }
                });
            }
        }
        assert!(undone > 10_000, "only {undone} moves undone");
    }

    /// A game that does not declare [`Variant::limits_or_blocks`] is never
    /// asked for a restriction or a blocker on the fast route: it must have
    /// none to give, in any position.
    #[test]
    fn games_without_tile_limits_have_none() {
        for kind in crate::GameKind::ALL {
            let rules = kind.rules();
            if rules.limits_or_blocks {
                continue;
            }
            for seed in 1..=8u64 {
                random_game(rules, seed * 0x2545_f491, 150, |b| {
                    assert!(
                        rules.variant.restriction(rules, b).is_none()
                            && rules.variant.blocker_after_move(b).is_none(),
                        "{}: {}",
                        rules.name(),
                        fen::format(rules, b)
                    );
                });
            }
        }
        assert!(crate::GameKind::Void.rules().limits_or_blocks);
        assert!(crate::defined::twin("void").unwrap().limits_or_blocks);
    }
}
