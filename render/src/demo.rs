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

/// A drawing-only variant: roster letters, board and start position.
fn definition(
    name: &'static str,
    title: &'static str,
    (files, ranks): (u8, u8),
    letters: &[(Role, char)],
    start_fen: &'static str,
) -> Definition {
    Definition {
        name,
        title,
        size: BoardSize::new(files, ranks).expect("a supported size"),
        roster: letters.iter().map(|&(r, l)| role(r, l)).collect(),
        start_fen,
        promotion: vec![Role::Queen],
        castling: None,
        royal: Some(Role::King),
    }
}

impl Variant for Showcase {
    fn definition(&self) -> Definition {
        definition(
            "showcase-16x16",
            "Every piece on 16x16",
            (16, 16),
            &[
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
            ],
            "rnbhuisqkamfgfor/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/RNBHUISQKAMFGFOR w - - 0 1",
        )
    }

    fn insufficient_material(&self, _rules: &Rules, _: &Board) -> bool {
        false
    }
}

impl Variant for Narrow {
    fn definition(&self) -> Definition {
        definition(
            "narrow-5x8",
            "A 5x8 board",
            (5, 8),
            &[
                (Role::Pawn, 'P'),
                (Role::Knight, 'N'),
                (Role::Bishop, 'B'),
                (Role::Rook, 'R'),
                (Role::Queen, 'Q'),
                (Role::King, 'K'),
                (Role::Hole, 'H'),
            ],
            "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w - - 0 1",
        )
    }

    fn insufficient_material(&self, _rules: &Rules, _: &Board) -> bool {
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
