//! The one place that picks the route to the legal moves: the bitboard
//! route ([`crate::bitboard`]) where the rules have one and the position
//! allows it, else the mailbox ([`crate::movegen`]); then the variant's own
//! filter. The bitboard route hands the moves it cannot prove legal to the
//! mailbox through [`Mailbox`], so neither module calls the other.

use crate::bitboard::{self, List};
use crate::board::Board;
use crate::movegen;
use crate::rules::Rules;
use crate::variant::CastlingDef;
use crate::{CastlingSide, Move, MoveList, Square};

/// The mailbox's answers for the moves the bitboard route tests one by one.
struct Mailbox;

impl bitboard::Mailbox for Mailbox {
    fn leaves_king_safe(&self, rules: &Rules, b: &Board, mv: &Move) -> bool {
        movegen::leaves_king_safe(rules, b, mv)
    }

    fn piece_moves(&self, rules: &Rules, b: &Board, from: Square, out: &mut MoveList) {
        movegen::piece_moves(rules, b, from, out)
    }

    fn castling_move(
        &self,
        rules: &Rules,
        b: &Board,
        castling: &CastlingDef,
        side: CastlingSide,
    ) -> Option<Move> {
        movegen::castling_move(rules, b, castling, side).ok()
    }
}

/// Fills `out` with the legal moves of the side to move. A full list may
/// have left some out (Black Holes with many holes): [`all_legal_moves`]
/// lists them all.
pub(crate) fn legal_moves(rules: &Rules, b: &Board, out: &mut MoveList) {
    out.clear();
    if let Some(t) = &rules.bitboards {
        if t.legal(rules, b, &mut List { rules, out }, &Mailbox) {
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

/// Counts the legal moves without keeping them (perft's last ply).
fn count_legal(rules: &Rules, b: &Board) -> u64 {
    if rules.variant.filters_moves() {
        let mut moves = MoveList::new();
        legal_moves(rules, b, &mut moves);
        if moves.is_full() {
            return all_legal_moves(rules, b).len() as u64;
        }
        return moves.len() as u64;
    }
    if let Some(count) = rules
        .bitboards
        .as_ref()
        .and_then(|t| t.count(rules, b, &Mailbox))
    {
        return count;
    }
    movegen::plain_count(rules, b)
}

/// Counts leaf nodes of the legal move tree to `depth`.
pub(crate) fn perft(rules: &Rules, b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_legal(rules, b);
    }
    let mut moves = MoveList::new();
    legal_moves(rules, b, &mut moves);
    if moves.is_full() {
        return all_legal_moves(rules, b)
            .iter()
            .map(|m| perft(rules, &movegen::make(rules, b, m), depth - 1))
            .sum();
    }
    moves
        .iter()
        .map(|m| perft(rules, &movegen::make(rules, b, m), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Count;
    use crate::bits::Sets;
    use crate::{fen, variants, Color};

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
            rules,
            b,
            &mut List {
                rules,
                out: &mut fast,
            },
            &Mailbox,
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
            assert!(t.legal(rules, b, &mut count, &Mailbox));
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
                        movegen::attacked(rules, b, sq, by),
                        movegen::attacked(mailbox, b, sq, by),
                        "{sq:?} attacked by {by:?} in {}",
                        fen::format(rules, b)
                    );
                }
                assert_eq!(
                    movegen::reach(rules, b, sq),
                    movegen::reach(mailbox, b, sq),
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
}
