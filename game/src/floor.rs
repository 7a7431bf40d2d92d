//! What the floor did in Void Chess, in words: pieces that fell into the
//! void, tiles a Minister healed, and pieces standing on their own side's
//! unstable tile, which falls after that side's next move.

use crate::game::Game;
use std::fmt::Write as _;
use voidmate_rules::{Color, Move, Position, Role, Tile};

impl Game {
    /// What `mv` (just played, turning `before` into the game's position)
    /// did to the floor, as sentences; empty in games whose floor holds.
    pub(crate) fn floor_news(&self, before: &Position, mv: &Move) -> String {
        if !self.kind().has_unstable_tiles() {
            return String::new();
        }
        floor_news(before, mv, &self.pos, |c| self.name(c))
    }

    /// A warning when `side`'s piece stands on `side`'s own unstable tile.
    pub(crate) fn standing_on_own_tile(&self, side: Color) -> String {
        if !self.kind().has_unstable_tiles() {
            return String::new();
        }
        standing_on_own_tile(&self.pos, side, |c| self.name(c))
    }
}

/// What `mv` did to the floor between `before` and `after`: pieces fallen
/// into the void, voids and unstable tiles a Minister healed, and a warning
/// for the mover's piece left on its own unstable tile.
fn floor_news(
    before: &Position,
    mv: &Move,
    after: &Position,
    name: impl Fn(Color) -> String,
) -> String {
    let (was, now) = (before.board(), after.board());
    let mut out = String::new();
    for sq in now.voids().iter().filter(|sq| !was.voids().contains(*sq)) {
        // The piece that stood there when the tile gave way: the one that
        // just moved in, or one that stayed.
        let fallen = if sq == mv.to {
            was.piece_at(mv.from)
        } else if sq == mv.from {
            None
        } else {
            was.piece_at(sq)
        };
        if let Some(p) = fallen {
            let _ = write!(
                out,
                " {}'s {} on {sq} fell into the void.",
                name(p.color),
                p.role.name()
            );
        }
    }
    for sq in was.voids().iter().filter(|sq| !now.voids().contains(*sq)) {
        let _ = write!(out, " The Minister heals the void on {sq}.");
    }
    let cleared = matches!(was.tile(mv.to), Tile::Unstable { .. })
        && now.tile(mv.to) == Tile::Normal
        && now
            .piece_at(mv.to)
            .is_some_and(|p| p.role == Role::Minister);
    if cleared {
        let _ = write!(
            out,
            " The Minister makes the unstable tile on {} whole again.",
            mv.to
        );
    }
    out.push_str(&standing_on_own_tile(after, !after.turn(), name));
    out
}

/// A warning when `side`'s piece stands on `side`'s own unstable tile: it
/// falls at the end of that side's next move unless it moves off (a king
/// there must move).
fn standing_on_own_tile(pos: &Position, side: Color, name: impl Fn(Color) -> String) -> String {
    let board = pos.board();
    let Some(tile) = board.unstable(side) else {
        return String::new();
    };
    let sq = tile.square;
    match board.piece_at(sq) {
        Some(p) if p.color == side && p.role == Role::King => format!(
            " {}, your king stands on your unstable tile on {sq}: it must leave it on your next move, or fall.",
            name(side)
        ),
        Some(p) if p.color == side => format!(
            " {}, your {} on {sq} falls after your next move unless it moves.",
            name(side),
            p.role.name()
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    fn played(fen: &str, mv: &str) -> String {
        let before = Position::from_fen(variants::void(), fen).unwrap();
        let m = before.parse_move(mv).unwrap();
        let after = before.after(&m);
        floor_news(&before, &m, &after, |c| {
            if c == Color::White { "alice" } else { "bob" }.to_string()
        })
    }

    #[test]
    fn a_minister_healing_is_told() {
        let void = "4k4/9/9/9/9/4M4/9/9/4K4 w - - 0 1 void:e5";
        assert_eq!(played(void, "Me5"), " The Minister heals the void on e5.");
        let unstable = "4k4/9/9/9/4p4/4M4/9/9/4K4 w - - 0 5 unstable:e5b4";
        assert_eq!(
            played(unstable, "Mxe5"),
            " The Minister makes the unstable tile on e5 whole again."
        );
    }

    #[test]
    fn a_piece_left_on_its_tile_falls_and_is_told() {
        // White's tile on e5 (its capture in move 4) collapses at the end of
        // White's move 5, with the rook still on it.
        let fen = "k8/9/9/9/4R4/9/9/9/4K4 w - - 0 5 unstable:e5w4";
        assert_eq!(
            played(fen, "Kd1"),
            " alice's rook on e5 fell into the void."
        );
        // Moving off in time saves it.
        assert_eq!(played(fen, "Rb5"), "");
    }

    #[test]
    fn a_capture_warns_of_the_tile_it_makes() {
        let fen = "k8/9/9/9/4p4/9/9/4R4/4K4 w - - 0 5";
        assert_eq!(
            played(fen, "Rxe5"),
            " alice, your rook on e5 falls after your next move unless it moves."
        );
    }

    #[test]
    fn a_quiet_move_says_nothing() {
        assert_eq!(played("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1", "Kd1"), "");
    }
}
