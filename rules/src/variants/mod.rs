//! The games, each in its own module, and the registry that names them.

pub mod antichess;
pub mod black_holes;
pub mod chess99;
pub mod standard;
pub mod suicide_void;
pub mod super16;
pub mod void;

use crate::Rules;
use std::sync::OnceLock;

/// Every variant's rules, built on first use.
fn registry() -> &'static [Rules] {
    static ALL: OnceLock<Vec<Rules>> = OnceLock::new();
    ALL.get_or_init(|| {
        vec![
            Rules::new(&standard::Standard),
            Rules::new(&void::VoidChess),
            Rules::new(&antichess::Antichess),
            Rules::new(&suicide_void::SuicideVoid {
                promotion_wins: false,
            }),
            Rules::new(&suicide_void::SuicideVoid {
                promotion_wins: true,
            }),
            Rules::new(&chess99::Chess99),
            Rules::new(&black_holes::BlackHoles),
            Rules::new(&super16::Super16),
        ]
    })
}

/// All variants, in the order we present them.
pub fn all() -> impl Iterator<Item = &'static Rules> {
    registry().iter()
}

/// Looks a variant up by its name or a common alias (`chess`, `void-chess`),
/// case-insensitively.
pub fn by_name(name: &str) -> Option<&'static Rules> {
    let key: String = name
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect();
    let canonical = match key.as_str() {
        "standard" | "chess" | "orthodox" => "standard",
        "void" | "voidchess" => "void",
        "antichess" | "giveaway" | "losing" | "losingchess" => "antichess",
        "suicidevoid" | "suicidevoidchess" => "suicide-void",
        "chess99" | "99" => "chess99",
        "blackholes" | "holes" => "black-holes",
        "super16" | "superchess" | "superchess16x16" | "16x16" => "super16",
        "suicidevoidpw" | "suicidevoidpromotionwins" | "suicidevoidchesspromotionwins" => {
            "suicide-void-pw"
        }
        _ => return None,
    };
    all().find(|r| r.name() == canonical)
}

/// The rules of orthodox chess.
pub fn standard() -> &'static Rules {
    by_name("standard").expect("registered")
}

/// The rules of antichess.
pub fn antichess() -> &'static Rules {
    by_name("antichess").expect("registered")
}

/// The rules of Void Chess.
pub fn void() -> &'static Rules {
    by_name("void").expect("registered")
}

/// The rules of Suicide Void Chess; with `promotion_wins`, the variant where
/// a pawn reaching its last rank wins.
pub fn suicide_void(promotion_wins: bool) -> &'static Rules {
    by_name(if promotion_wins {
        "suicide-void-pw"
    } else {
        "suicide-void"
    })
    .expect("registered")
}

/// The rules of Chess 99.
pub fn chess99() -> &'static Rules {
    by_name("chess99").expect("registered")
}

/// The rules of Black Holes.
pub fn black_holes() -> &'static Rules {
    by_name("black-holes").expect("registered")
}

/// The rules of Super Chess 16x16.
pub fn super16() -> &'static Rules {
    by_name("super16").expect("registered")
}
