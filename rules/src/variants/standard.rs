//! Orthodox chess: our yardstick, checked against published perft numbers.

use crate::movement::{bishop, king, knight, pawn, queen, rook};
use crate::variant::{CastlingDef, Definition, RoleDef, Variant};
use crate::{Board, BoardSize, Color, Role, Rules, Square};

pub struct Standard;

/// The orthodox roster, shared by variants built on it.
pub(crate) fn orthodox_roster() -> Vec<RoleDef> {
    vec![
        RoleDef {
            role: Role::Pawn,
            letter: 'P',
            movement: pawn(),
        },
        RoleDef {
            role: Role::Knight,
            letter: 'N',
            movement: knight(),
        },
        RoleDef {
            role: Role::Bishop,
            letter: 'B',
            movement: bishop(),
        },
        RoleDef {
            role: Role::Rook,
            letter: 'R',
            movement: rook(),
        },
        RoleDef {
            role: Role::Queen,
            letter: 'Q',
            movement: queen(),
        },
        RoleDef {
            role: Role::King,
            letter: 'K',
            movement: king(),
        },
    ]
}

impl Variant for Standard {
    fn definition(&self) -> Definition {
        Definition {
            name: crate::GameKind::Standard.name(),
            title: crate::GameKind::Standard.title(),
            size: BoardSize::new(8, 8).expect("8x8"),
            roster: orthodox_roster(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            promotion: vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
            castling: Some(CastlingDef {
                rank: 0,
                king_file: 4,
                rook_from: [7, 0],
                king_to: [6, 2],
                rook_to: [5, 3],
            }),
            royal: Some(Role::King),
        }
    }

    /// No tiles, nothing beyond the moved piece's squares.
    fn plain_quiet_moves(&self) -> bool {
        true
    }

    /// Nothing happens after a move but the move: the bitboard route's
    /// pins and checks are the whole of king safety.
    fn bitboard_legality(&self) -> bool {
        true
    }

    /// No mate is possible by any series of legal moves: kings with at most
    /// one minor piece, or with bishops that all stand on one colour.
    fn insufficient_material(&self, _rules: &Rules, board: &Board) -> bool {
        let heavy = [Role::Pawn, Role::Rook, Role::Queen];
        if heavy.iter().any(|&r| board.count_both(r) > 0) {
            return false;
        }
        let knights = board.count_both(Role::Knight);
        let bishops = board.count_both(Role::Bishop);
        if knights + bishops <= 1 {
            return true;
        }
        knights == 0 && bishops_on_one_colour(board)
    }
}

/// Every bishop on the board stands on squares of one colour: they can
/// never cover the squares of the other colour beside a cornered king.
pub(crate) fn bishops_on_one_colour(board: &Board) -> bool {
    let mut colours = Color::ALL.iter().flat_map(|&c| {
        board
            .occupied(c)
            .iter()
            .filter(move |&sq| board.piece_at(sq).map(|p| p.role) == Some(Role::Bishop))
            .map(Square::is_light)
    });
    let first = colours.next();
    colours.all(|c| Some(c) == first)
}
