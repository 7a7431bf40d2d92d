//! The games, each in its own module, and the registry that names them.

pub mod antichess;
pub mod standard;
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
