//! The static exchange on the mailbox, for the games the bitboard tables do
//! not cover (Chess 99, Super Chess, antichess, Suicide Void Chess, games
//! from files): the same swap list as the bitboard route's, each side taking
//! on the square with its least valuable attacker and free to stop, found
//! from the movement tables that answer "is this square attacked?".
//!
//! A capture is played on a scratch copy of the board's cells, so a piece
//! behind a capturer joins in as its line opens (x-rays), and a walker's
//! path clears as the pieces on it go.

use crate::board::{code, is_piece, role_of, Board, EMPTY};
use crate::movegen::each_attacker;
use crate::{Role, Rules, Square};

/// What a move from `from` to `to` wins when both sides then capture on
/// `to`, `victim` being the worth of what it takes (0 for none), pieces
/// worth `value`: see [`crate::Position::exchange`]. A capturer the game
/// removes with its victim (Super Chess's Fortress guard) ends the exchange
/// there. `None` where pieces attack in ways the tables do not list:
/// reprogrammed pieces, and a variant's own attacks (Black Holes).
pub(crate) fn exchange_by_cells(
    rules: &Rules,
    b: &Board,
    from: Square,
    to: Square,
    victim: i32,
    value: &dyn Fn(Role) -> i32,
) -> Option<i32> {
    if rules.programs.is_some() || rules.extra_attacks {
        return None;
    }
    let cell = b.cells[from.index()];
    if !is_piece(cell) {
        return Some(victim);
    }
    let first = role_of(cell);
    let us = b.turn;
    let captures = b.piece_at(to).is_some_and(|p| p.color != us);
    if captures && rules.variant.capturer_removed(b, to, first, !us) {
        return Some(victim - value(first));
    }
    // Only the cells change below: `each_attacker` reads nothing else.
    let mut scratch = *b;
    scratch.cells[from.index()] = EMPTY;
    scratch.cells[to.index()] = code(us, first);
    // gain[d]: what the side making the d-th capture has won if the
    // exchange stops after it.
    let mut gain = [0i32; 32];
    gain[0] = victim;
    let mut on_target = value(first);
    let mut side = !us;
    let mut d = 0;
    while d + 1 < gain.len() {
        let mut least: Option<(Square, Role, i32)> = None;
        each_attacker(rules, &scratch, to, side, |sq, role| {
            let v = value(role);
            if least.is_none_or(|(_, _, w)| v < w) {
                least = Some((sq, role, v));
            }
            false
        });
        let Some((next, role, v)) = least else {
            break;
        };
        d += 1;
        gain[d] = on_target - gain[d - 1];
        if rules.variant.capturer_removed(&scratch, to, role, !side) {
            // The capturer goes with its victim: the square is empty and
            // nothing is left to take.
            gain[d] -= v;
            break;
        }
        on_target = v;
        scratch.cells[next.index()] = EMPTY;
        scratch.cells[to.index()] = code(side, role);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    Some(gain[0])
}

#[cfg(test)]
mod tests {
    use crate::{variants, Move, MoveKind, Position, Role, Square};

    fn value(role: Role) -> i32 {
        match role {
            Role::Pawn => 100,
            Role::Knight | Role::Bishop => 300,
            Role::Rook => 500,
            Role::Queen => 900,
            Role::King => 100_000,
            _ => 400,
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn exchange(pos: &Position, from: &str, to: &str) -> Option<i32> {
        pos.exchange(&Move::new(sq(from), sq(to), MoveKind::Normal), value)
    }

    /// Chess 99 has no bitboard route: the exchange is the mailbox's, and
    /// answers with the whole swap list, a rook behind a rook included.
    #[test]
    fn chess99_counts_every_capture_on_the_square() {
        let rules = variants::chess99();
        assert!(rules.bitboards.is_none(), "Chess 99 is a mailbox game");
        // A pawn on d5 defended by the pawn on e6; White attacks it with a
        // pawn, a knight and two rooks.
        let pos = Position::from_fen(rules, "4k4/9/9/4p4/3p5/2P6/2N6/3R5/3RK4 w - - 0 1").unwrap();
        // cxd5 exd5 Nxd5: White wins a pawn.
        assert_eq!(exchange(&pos, "c4", "d5"), Some(100));
        // Nxd5 exd5 cxd5: a knight for two pawns.
        assert_eq!(exchange(&pos, "c3", "d5"), Some(100 - 300 + 100));
        let lone = Position::from_fen(rules, "4k4/9/9/4p4/3p5/9/9/3R5/4K4 w - - 0 1").unwrap();
        // Rxd5 exd5: a rook for a pawn.
        assert_eq!(exchange(&lone, "d2", "d5"), Some(100 - 500));
        // The rook behind the first joins in once the first has taken:
        // Rxd5 Rxd5 Rxd5, White a pawn up.
        let battery = Position::from_fen(rules, "3rk4/9/9/9/3p5/9/9/3R5/3RK4 w - - 0 1").unwrap();
        assert_eq!(exchange(&battery, "d2", "d5"), Some(100));
        // Without it, Rxd5 Rxd5 loses the exchange.
        let single = Position::from_fen(rules, "3rk4/9/9/9/3p5/9/9/3R5/4K4 w - - 0 1").unwrap();
        assert_eq!(exchange(&single, "d2", "d5"), Some(100 - 500));
    }

    /// A pawn waiting on Chess 99's last rank attacks as the piece it may
    /// become: it defends what a knight or bishop there would.
    #[test]
    fn chess99_waiting_pawn_defends_as_its_promotion() {
        let rules = variants::chess99();
        // White's pawn waits on e9: as a knight it would reach d7, where
        // Black's knight stands, guarded by its king on e6 alone.
        let pos = Position::from_fen(rules, "4P4/9/3n5/4k4/9/9/9/9/3RK4 w - - 0 1").unwrap();
        // Rxd7, and Kxd7 would put the king where the pawn takes it: the
        // rook wins the knight.
        assert_eq!(exchange(&pos, "d1", "d7"), Some(300));
        // Without the waiting pawn, Rxd7 Kxd7 gives the rook for the knight.
        let bare = Position::from_fen(rules, "9/9/3n5/4k4/9/9/9/9/3RK4 w - - 0 1").unwrap();
        assert_eq!(exchange(&bare, "d1", "d7"), Some(300 - 500));
    }

    /// Super Chess's Fortress guard: a knight that takes a piece next to
    /// the enemy Fortress goes with it, a queen does not.
    #[test]
    fn super16_capturer_next_to_a_fortress_goes_with_its_victim() {
        let rules = variants::super16();
        assert!(rules.bitboards.is_none(), "Super Chess is a mailbox game");
        // A black pawn on h10 beside a black Fortress on i11; a white
        // knight on g8 and a white queen on h4 both attack it.
        let fen = "7k8/16/16/16/16/8f7/7p8/16/6N9/16/16/16/7Q8/16/16/7K8 w - - 0 1";
        let pos = Position::from_fen(rules, fen).unwrap();
        assert_eq!(
            pos.piece_at(sq("i11")).map(|p| p.role),
            Some(Role::Fortress)
        );
        // The knight takes the pawn and is removed: 100 - 300.
        assert_eq!(exchange(&pos, "g8", "h10"), Some(100 - 300));
        // The queen takes it and stays; the Fortress steps one square and
        // takes her, and the knight takes the Fortress (no longer guarded
        // by itself): Qxh10 Fxh10 Nxh10.
        assert_eq!(exchange(&pos, "h4", "h10"), Some(100 - 900 + 400));
        // With the Fortress gone the queen wins the pawn clean.
        let bare = "7k8/16/16/16/16/16/7p8/16/6N9/16/16/16/7Q8/16/16/7K8 w - - 0 1";
        let pos = Position::from_fen(rules, bare).unwrap();
        assert_eq!(exchange(&pos, "h4", "h10"), Some(100));
        assert_eq!(exchange(&pos, "g8", "h10"), Some(100));
    }

    /// Black Holes' pieces also attack in ways of the variant's own: no
    /// answer there, rather than a wrong one.
    #[test]
    fn black_holes_has_no_exchange() {
        let rules = variants::black_holes();
        let pos = Position::from_fen(rules, rules.def.start_fen).unwrap();
        let mv = pos.legal_moves()[0];
        assert_eq!(pos.exchange(&mv, value), None);
    }

    #[test]
    fn a_quiet_move_to_a_defended_square_loses_the_piece() {
        let rules = variants::chess99();
        let pos = Position::from_fen(rules, "4k4/9/9/4p4/9/9/2N6/9/4K4 w - - 0 1").unwrap();
        // Nd5?? exd5.
        assert_eq!(exchange(&pos, "c3", "d5"), Some(-300));
        // Nb5 is safe.
        assert_eq!(exchange(&pos, "c3", "b5"), Some(0));
    }
}
