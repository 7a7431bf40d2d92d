//! A position's moves with their legality told one at a time, for a search
//! that tests only the moves it comes to. On a large board a position has a
//! hundred moves or more, and where a cut-off ends the list after the first
//! few, testing all of them for the king's safety was most of the work of
//! listing them.

use crate::legal;
use crate::movegen::Legality;
use crate::{Move, Position};

/// The side to move's moves, some of which may leave its own king attacked,
/// with what tells them apart. Where the bitboard route or the variant's
/// own filter decides (both list legal moves only), every move listed is
/// legal and the check answers `true`.
pub struct UncheckedMoves {
    /// The moves, legal or not. The legal ones are those of
    /// [`Position::legal_moves`], in the same order.
    pub moves: Vec<Move>,
    /// Tells which of `moves` are legal.
    pub check: LegalityCheck,
}

/// What tells the legal moves of one position from the rest (its king, its
/// pinned pieces): computed once for that position, and only meaningful
/// with it.
pub struct LegalityCheck(Option<Legality>);

impl UncheckedMoves {
    /// The moves of `pos`: the mailbox's moves before its legality filter
    /// where the game lists them that way and filters none of its own, else
    /// the legal moves.
    pub fn of(pos: &Position) -> UncheckedMoves {
        let (moves, legality) = legal::unchecked_moves(pos.rules(), pos.board());
        UncheckedMoves {
            moves,
            check: LegalityCheck(legality),
        }
    }
}

impl LegalityCheck {
    /// Whether `mv`, one of the moves listed with this check, is legal in
    /// `pos`, the position they were listed for.
    #[inline]
    pub fn is_legal(&self, pos: &Position, mv: &Move) -> bool {
        self.0
            .as_ref()
            .is_none_or(|l| l.is_legal(pos.rules(), pos.board(), mv))
    }

    /// Whether any of `moves` (listed with this check for `pos`) is legal:
    /// the first usually is, so this seldom tests more than one.
    pub fn any_legal(&self, pos: &Position, moves: &[Move]) -> bool {
        moves.iter().any(|m| self.is_legal(pos, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;

    /// The moves a check passes are the legal moves, in their order, and
    /// `any_legal` agrees with them, in random games of every game; in
    /// Super Chess (listed before its legality filter) the check turns
    /// moves away on the way, so the test could fail.
    #[test]
    fn the_moves_a_check_passes_are_the_legal_moves_in_order() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for kind in GameKind::ALL {
            let mut turned_away = 0;
            for _ in 0..8 {
                let mut pos = Position::new(kind.rules());
                for _ in 0..160 {
                    let legal = pos.legal_moves();
                    let UncheckedMoves { moves, check } = UncheckedMoves::of(&pos);
                    let passed: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| check.is_legal(&pos, m))
                        .collect();
                    assert_eq!(passed, legal, "{}: {}", kind.name(), pos.fen());
                    assert_eq!(check.any_legal(&pos, &moves), !legal.is_empty());
                    turned_away += moves.len() - passed.len();
                    if legal.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos.play_unchecked(&legal[(state % legal.len() as u64) as usize]);
                }
            }
            if kind == GameKind::Super16 {
                assert!(turned_away > 0, "no Super Chess move was ever illegal");
            }
        }
    }
}
