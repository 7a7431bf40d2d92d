//! Boards no game of ours uses yet (a 16x16 board with every piece we draw,
//! and a 5x8 board), so that the gallery, the tests and the benchmark can
//! show and measure every size and piece today.

use std::sync::OnceLock;
use voidmate_rules::movement::{bishop, king, knight, pawn, queen, rook};
use voidmate_rules::variant::{Definition, RoleDef, Variant};
use voidmate_rules::{Board, BoardSize, Role, Rules};

struct Showcase;
struct Narrow;

fn role(role: Role, letter: char) -> RoleDef {
    let movement = match role {
        Role::Pawn => pawn(),
        Role::Knight => knight(),
        Role::Bishop => bishop(),
        Role::Rook => rook(),
        Role::Queen => queen(),
        // Movement is irrelevant to drawing: the rest step like kings here.
        _ => king(),
    };
    RoleDef {
        role,
        letter,
        movement,
    }
}

impl Variant for Showcase {
    fn definition(&self) -> Definition {
        let letters = [
            (Role::Pawn, 'P'),
            (Role::Knight, 'N'),
            (Role::Bishop, 'B'),
            (Role::Rook, 'R'),
            (Role::Queen, 'Q'),
            (Role::King, 'K'),
            (Role::Minister, 'M'),
            (Role::Paladin, 'A'),
            (Role::Prince, 'I'),
            (Role::Princess, 'S'),
            (Role::Archbishop, 'H'),
            (Role::SuperKnight, 'U'),
            (Role::Fortress, 'F'),
            (Role::Programmable, 'G'),
            (Role::Hole, 'O'),
        ];
        Definition {
            name: "showcase-16x16",
            title: "Every piece on 16x16",
            size: BoardSize::new(16, 16).expect("16x16"),
            roster: letters.into_iter().map(|(r, l)| role(r, l)).collect(),
            start_fen: "rnbhuisqkamfgfor/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/RNBHUISQKAMFGFOR w - - 0 1",
            promotion: vec![Role::Queen],
            castling: None,
            royal: Some(Role::King),
        }
    }

    fn insufficient_material(&self, _: &Board) -> bool {
        false
    }
}

impl Variant for Narrow {
    fn definition(&self) -> Definition {
        let roster = [
            (Role::Pawn, 'P'),
            (Role::Knight, 'N'),
            (Role::Bishop, 'B'),
            (Role::Rook, 'R'),
            (Role::Queen, 'Q'),
            (Role::King, 'K'),
            (Role::Hole, 'H'),
        ];
        Definition {
            name: "narrow-5x8",
            title: "A 5x8 board",
            size: BoardSize::new(5, 8).expect("5x8"),
            roster: roster.into_iter().map(|(r, l)| role(r, l)).collect(),
            start_fen: "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w - - 0 1",
            promotion: vec![Role::Queen],
            castling: None,
            royal: Some(Role::King),
        }
    }

    fn insufficient_material(&self, _: &Board) -> bool {
        false
    }
}

/// A 16x16 board whose back ranks hold every piece we draw.
pub fn showcase_16x16() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    static VARIANT: Showcase = Showcase;
    RULES.get_or_init(|| Rules::new(&VARIANT))
}

/// A 5x8 board, the smallest we support.
pub fn narrow_5x8() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    static VARIANT: Narrow = Narrow;
    RULES.get_or_init(|| Rules::new(&VARIANT))
}
