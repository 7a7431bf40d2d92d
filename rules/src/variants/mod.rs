//! The games, each in its own module, and the registry that names them.

pub mod antichess;
pub mod black_holes;
pub mod chess99;
pub mod standard;
pub mod suicide_void;
pub mod super16;
pub mod void;

use crate::variant::Variant;
use crate::{ByKind, GameKind, Program, ProgramError, Rules, SharedRules};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

/// The variant that defines `kind`'s rules: one arm per game, so a new
/// game does not compile until its rules are written.
pub(crate) fn variant_of(kind: GameKind) -> &'static dyn Variant {
    match kind {
        GameKind::Standard => &standard::Standard,
        GameKind::Void => &void::VoidChess,
        GameKind::Antichess => &antichess::Antichess,
        GameKind::SuicideVoid => &suicide_void::SuicideVoid {
            promotion_wins: false,
        },
        GameKind::SuicideVoidPromotionWins => &suicide_void::SuicideVoid {
            promotion_wins: true,
        },
        GameKind::Chess99 => &chess99::Chess99,
        GameKind::BlackHoles => &black_holes::BlackHoles,
        GameKind::Super16 => &super16::Super16,
        // A game read from a file has its own rules (`GameKind::rules`);
        // asked here, it is judged as standard chess.
        GameKind::Defined(_) => &standard::Standard,
    }
}

/// Every game's rules, built on first use.
fn registry() -> &'static ByKind<Rules> {
    static ALL: OnceLock<ByKind<Rules>> = OnceLock::new();
    ALL.get_or_init(|| ByKind::from_fn(|kind| Rules::new(variant_of(kind))))
}

/// The rules of `kind` (see [`GameKind::rules`]).
pub(crate) fn of(kind: GameKind) -> &'static Rules {
    if let GameKind::Defined(game) = kind {
        return game.rules();
    }
    // Every built-in game is in `GameKind::ALL`, so has its slot.
    registry()
        .get(kind)
        .unwrap_or_else(|| unreachable!("{kind} has no rules"))
}

/// Whether `rules`' pieces can be reprogrammed (Super Chess 16x16).
pub fn programmable(rules: &Rules) -> bool {
    rules.kind().is_some_and(GameKind::has_programs)
}

/// How many programmed rule sets are kept ready (most recently used first).
/// Positions hold their rules themselves, so one that falls out of the cache
/// lives on while a game uses it and is freed after; the cache only saves
/// building the same rules again, and never grows past this.
pub const PROGRAMMED_CACHE: usize = 64;

/// Programmed rules by their programs' text, most recently used first.
type Recent = VecDeque<(String, Arc<Rules>)>;

/// `base` with White's and Black's pieces reprogrammed (both programs read
/// for `base` with [`Program::parse`]). The same pair of programs gives back
/// the same rules while they are in the cache (see [`PROGRAMMED_CACHE`]).
pub fn programmed(
    base: &'static Rules,
    white: &Program,
    black: &Program,
) -> Result<SharedRules, ProgramError> {
    if white.is_default() && black.is_default() {
        return Ok(base.into());
    }
    if !programmable(base) {
        return Err(ProgramError(format!(
            "{} has no programmable pieces; only Super Chess 16x16 does",
            base.title()
        )));
    }
    static BUILT: OnceLock<Mutex<Recent>> = OnceLock::new();
    let key = format!("{}\n{white}\n{black}", base.name());
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let rules = match built.iter().position(|(k, _)| *k == key) {
        Some(i) => built.remove(i).expect("found").1,
        None => Arc::new(Rules::programmed(base.variant(), [white, black])),
    };
    built.push_front((key, rules.clone()));
    built.truncate(PROGRAMMED_CACHE);
    Ok(rules.into())
}

/// All variants, in the order we present them.
pub fn all() -> impl Iterator<Item = &'static Rules> {
    registry().iter().map(|(_, rules)| rules)
}

/// Looks a variant up by its name or a common alias (`chess`, `void-chess`),
/// case-insensitively (see [`crate::GameKind::from_name`]).
pub fn by_name(name: &str) -> Option<&'static Rules> {
    crate::GameKind::from_name(name)
        .map(crate::GameKind::rules)
        .or_else(|| crate::defined::named(name))
}

/// The rules of orthodox chess.
pub fn standard() -> &'static Rules {
    GameKind::Standard.rules()
}

/// The rules of antichess.
pub fn antichess() -> &'static Rules {
    GameKind::Antichess.rules()
}

/// The rules of Void Chess.
pub fn void() -> &'static Rules {
    GameKind::Void.rules()
}

/// The rules of Suicide Void Chess; with `promotion_wins`, the variant where
/// a pawn reaching its last rank wins.
pub fn suicide_void(promotion_wins: bool) -> &'static Rules {
    if promotion_wins {
        GameKind::SuicideVoidPromotionWins.rules()
    } else {
        GameKind::SuicideVoid.rules()
    }
}

/// The rules of Chess 99.
pub fn chess99() -> &'static Rules {
    GameKind::Chess99.rules()
}

/// The rules of Black Holes.
pub fn black_holes() -> &'static Rules {
    GameKind::BlackHoles.rules()
}

/// The rules of Super Chess 16x16.
pub fn super16() -> &'static Rules {
    GameKind::Super16.rules()
}
