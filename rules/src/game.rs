//! Which game is being played: one identity per game, so that everything
//! that differs by game (names, titles, sides, colours, evaluation, help,
//! chat choices) is a `match` the compiler checks for completeness. Adding
//! a game adds a case here, and the compiler then lists every place that
//! must say something about it.

use crate::{variants, Color, Rules};
use std::fmt;

/// Declares the enum and its list together, from one list of games, so
/// that [`GameKind::ALL`] (and every table sized by [`GameKind::COUNT`]) can
/// never leave a game out.
macro_rules! games {
    ($( $(#[$doc:meta])* $kind:ident ),+ $(,)?) => {
        /// One of the games Voidmate plays: a built-in game, or one read
        /// from a variants file.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $( $(#[$doc])* $kind, )+
            /// A game read from a variants file (`docs/variants.md`).
            Defined(DefinedGame),
        }

        impl GameKind {
            /// Every built-in game, in the order we present them (the
            /// games read from files are [`GameKind::every`]).
            pub const ALL: [GameKind; [$(GameKind::$kind),+].len()] = [$(GameKind::$kind),+];
        }
    };
}

games! {
    /// Orthodox chess.
    Standard,
    /// Void Chess, the flagship: 9x9, the Minister, unstable tiles and voids.
    Void,
    /// Giveaway chess: captures are compulsory, losing everything wins.
    Antichess,
    /// Antichess with one movable void square.
    SuicideVoid,
    /// Suicide Void Chess where a pawn reaching its last rank wins.
    SuicideVoidPromotionWins,
    /// 9x9, the paladin, capture the king.
    Chess99,
    /// 5x8 with holes that transport pieces.
    BlackHoles,
    /// 16x16 with new and reprogrammable pieces.
    Super16,
}

impl GameKind {
    /// How many games there are: the size of every per-game table.
    pub const COUNT: usize = GameKind::ALL.len();

    /// The game a challenge plays when it names none: the flagship.
    pub const DEFAULT: GameKind = GameKind::Void;

    /// This game's place in [`GameKind::ALL`] (and in a [`ByKind`]);
    /// `None` for a game read from a file, which has no slot there.
    pub const fn index(self) -> Option<usize> {
        // In `ALL`'s order (a test holds the two together): asked at every
        // node of a search, through the engine's per-game tables.
        Some(match self {
            GameKind::Standard => 0,
            GameKind::Void => 1,
            GameKind::Antichess => 2,
            GameKind::SuicideVoid => 3,
            GameKind::SuicideVoidPromotionWins => 4,
            GameKind::Chess99 => 5,
            GameKind::BlackHoles => 6,
            GameKind::Super16 => 7,
            GameKind::Defined(_) => return None,
        })
    }

    /// A game read from a file, by its rules.
    pub fn defined(rules: &'static Rules) -> GameKind {
        match rules.kind() {
            Some(kind) => kind,
            None => GameKind::Defined(DefinedGame(rules)),
        }
    }

    /// Every game: the built-in ones, then those read from files (the
    /// fairy games shipped with the bot and the server's own).
    pub fn every() -> Vec<GameKind> {
        let mut all = GameKind::ALL.to_vec();
        all.extend(crate::defined::all().into_iter().map(GameKind::defined));
        all
    }

    /// How a game and a challenge store their game: the name of a built-in
    /// game; a defined game's name and the hash of its definition
    /// (`capablanca@1f2e...`), so that it keeps its rules when its file
    /// changes or goes (see [`crate::defined::restore`]).
    pub fn storage_key(self) -> String {
        match self {
            GameKind::Defined(game) => match crate::defined::hash_of(game.0) {
                Some(hash) => format!("{}@{hash}", game.0.name()),
                None => game.0.name().to_string(),
            },
            _ => self.name().to_string(),
        }
    }

    /// The game a [`GameKind::storage_key`] names: a defined game by its
    /// definition's hash (it must have been loaded or restored).
    pub fn from_storage_key(key: &str) -> Option<GameKind> {
        match key.split_once('@') {
            Some((_, hash)) => crate::defined::by_hash(hash).map(GameKind::defined),
            None => GameKind::from_name(key),
        }
    }

    /// Whether this game may be played in `community` (a file may be
    /// enabled for some communities only: [`crate::defined::playable_in`]).
    pub fn playable_in(self, community: Option<&str>) -> bool {
        match self {
            GameKind::Defined(game) => crate::defined::playable_in(game.0, community),
            _ => true,
        }
    }

    /// Every game that may be played in `community`, in the order we
    /// present them.
    pub fn every_in(community: Option<&str>) -> Vec<GameKind> {
        GameKind::every()
            .into_iter()
            .filter(|k| k.playable_in(community))
            .collect()
    }

    /// Whether this game was read from a file.
    pub const fn is_defined(self) -> bool {
        matches!(self, GameKind::Defined(_))
    }

    /// The name used in commands and storage.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Defined(game) => game.0.name(),
            GameKind::Standard => "standard",
            GameKind::Void => "void",
            GameKind::Antichess => "antichess",
            GameKind::SuicideVoid => "suicide-void",
            GameKind::SuicideVoidPromotionWins => "suicide-void-pw",
            GameKind::Chess99 => "chess99",
            GameKind::BlackHoles => "black-holes",
            GameKind::Super16 => "super16",
        }
    }

    /// The name for people.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Defined(game) => game.0.title(),
            GameKind::Standard => "Standard chess",
            GameKind::Void => "Void Chess",
            GameKind::Antichess => "Antichess",
            GameKind::SuicideVoid => "Suicide Void Chess",
            GameKind::SuicideVoidPromotionWins => "Suicide Void Chess (promotion wins)",
            GameKind::Chess99 => "Chess 99",
            GameKind::BlackHoles => "Black Holes",
            GameKind::Super16 => "Super Chess 16x16",
        }
    }

    /// Other names players use, compared without case, spaces, `-` or `_`.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameKind::Defined(_) => &[],
            GameKind::Standard => &["chess", "orthodox"],
            GameKind::Void => &["voidchess"],
            GameKind::Antichess => &["giveaway", "losing", "losingchess"],
            GameKind::SuicideVoid => &["suicidevoidchess"],
            GameKind::SuicideVoidPromotionWins => {
                &["suicidevoidpromotionwins", "suicidevoidchesspromotionwins"]
            }
            GameKind::Chess99 => &["99"],
            GameKind::BlackHoles => &["holes"],
            GameKind::Super16 => &["superchess", "superchess16x16", "16x16"],
        }
    }

    /// The game named `name` or one of its aliases, ignoring case, spaces,
    /// `-` and `_`.
    pub fn from_name(name: &str) -> Option<GameKind> {
        let key = fold(name);
        GameKind::built_in_named(name).or_else(|| {
            crate::defined::all()
                .into_iter()
                .find(|r| fold(r.name()) == key || fold(r.title()) == key)
                .map(GameKind::defined)
        })
    }

    /// The built-in game named `name` or one of its aliases, as
    /// [`GameKind::from_name`] reads it (the games read from files are not
    /// asked: their reader asks this).
    pub fn built_in_named(name: &str) -> Option<GameKind> {
        let key = fold(name);
        GameKind::ALL
            .into_iter()
            .find(|kind| fold(kind.name()) == key || kind.aliases().iter().any(|a| fold(a) == key))
    }

    /// The rules of this game.
    pub fn rules(self) -> &'static Rules {
        match self {
            GameKind::Defined(game) => game.0,
            _ => variants::of(self),
        }
    }

    /// Whether the sides are Player 1 and Player 2 with colours of their
    /// choosing (Super Chess), rather than White and Black.
    pub const fn has_numbered_players(self) -> bool {
        match self {
            GameKind::Super16 => true,
            GameKind::Defined(_)
            | GameKind::Standard
            | GameKind::Void
            | GameKind::Antichess
            | GameKind::SuicideVoid
            | GameKind::SuicideVoidPromotionWins
            | GameKind::Chess99
            | GameKind::BlackHoles => false,
        }
    }

    /// What the game calls its sides: Super Chess has Player 1 (who moves
    /// first, White in FEN) and Player 2.
    pub const fn side_name(self, color: Color) -> &'static str {
        match (self.has_numbered_players(), color) {
            (true, Color::White) => "Player 1",
            (true, Color::Black) => "Player 2",
            (false, Color::White) => "White",
            (false, Color::Black) => "Black",
        }
    }

    /// The pieces' colours when nobody chose others (names the board
    /// renderer knows): Super Chess's players start red and blue.
    pub const fn default_colours(self) -> [&'static str; 2] {
        if self.has_numbered_players() {
            ["red", "blue"]
        } else {
            ["white", "black"]
        }
    }

    /// Whether captures crack the floor ([`Rules::has_unstable_tiles`]):
    /// asked of the game's rules, never restated here.
    pub fn has_unstable_tiles(self) -> bool {
        self.rules().has_unstable_tiles()
    }

    /// Whether checks must be answered ([`Rules::checks_bind`]).
    pub fn checks_bind(self) -> bool {
        self.rules().checks_bind()
    }

    /// Whether a pawn that reaches its last rank wins the game (Suicide
    /// Void Chess's option).
    pub const fn promotion_wins(self) -> bool {
        match self {
            GameKind::SuicideVoidPromotionWins => true,
            GameKind::Defined(_)
            | GameKind::Standard
            | GameKind::Void
            | GameKind::Antichess
            | GameKind::SuicideVoid
            | GameKind::Chess99
            | GameKind::BlackHoles
            | GameKind::Super16 => false,
        }
    }

    /// The game whose rules this one is an option of (Suicide Void Chess
    /// for its promotion-wins option); itself otherwise. Games that share a
    /// base share their help.
    pub const fn base(self) -> GameKind {
        match self {
            GameKind::SuicideVoidPromotionWins => GameKind::SuicideVoid,
            GameKind::Defined(_)
            | GameKind::Standard
            | GameKind::Void
            | GameKind::Antichess
            | GameKind::SuicideVoid
            | GameKind::Chess99
            | GameKind::BlackHoles
            | GameKind::Super16 => self,
        }
    }

    /// This game with its promotion-wins option, if it has one (Suicide Void
    /// Chess, with or without it already).
    pub const fn with_promotion_wins(self) -> Option<GameKind> {
        match self {
            GameKind::SuicideVoid | GameKind::SuicideVoidPromotionWins => {
                Some(GameKind::SuicideVoidPromotionWins)
            }
            GameKind::Defined(_)
            | GameKind::Standard
            | GameKind::Void
            | GameKind::Antichess
            | GameKind::Chess99
            | GameKind::BlackHoles
            | GameKind::Super16 => None,
        }
    }

    /// Whether pieces may be reprogrammed ([`Rules::has_programs`]).
    pub fn has_programs(self) -> bool {
        self.rules().has_programs()
    }

    /// Whether losing every piece wins ([`Rules::is_giveaway`]).
    pub fn is_giveaway(self) -> bool {
        self.rules().is_giveaway()
    }
}

/// One value for each game, indexed by [`GameKind`]: its length is the
/// number of games, so a table written for fewer does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByKind<T>(pub [T; GameKind::COUNT]);

impl<T> ByKind<T> {
    /// The table of `f`'s value for each game.
    pub fn from_fn(mut f: impl FnMut(GameKind) -> T) -> ByKind<T> {
        ByKind(std::array::from_fn(|i| f(GameKind::ALL[i])))
    }

    /// Each game with its value, in [`GameKind::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (GameKind, &T)> {
        GameKind::ALL.into_iter().zip(&self.0)
    }
}

impl<T> ByKind<T> {
    /// The value for `kind`: `None` for a game read from a file, which
    /// per-game tables do not cover.
    pub fn get(&self, kind: GameKind) -> Option<&T> {
        kind.index().map(|i| &self.0[i])
    }
}

/// A game read from a file, by its rules (kept for the life of the process,
/// see [`crate::defined`]). Two are the same game when they are the same
/// rules; they sort by name.
#[derive(Clone, Copy)]
pub struct DefinedGame(&'static Rules);

impl DefinedGame {
    /// This game's rules.
    pub fn rules(self) -> &'static Rules {
        self.0
    }
}

impl PartialEq for DefinedGame {
    fn eq(&self, other: &DefinedGame) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for DefinedGame {}

impl std::hash::Hash for DefinedGame {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state);
    }
}

impl PartialOrd for DefinedGame {
    fn partial_cmp(&self, other: &DefinedGame) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DefinedGame {
    fn cmp(&self, other: &DefinedGame) -> std::cmp::Ordering {
        (self.0.name(), std::ptr::from_ref::<Rules>(self.0) as usize).cmp(&(
            other.0.name(),
            std::ptr::from_ref::<Rules>(other.0) as usize,
        ))
    }
}

impl fmt::Debug for DefinedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// A game's name as compared: no case, spaces, `-` or `_`.
fn fold(s: &str) -> String {
    s.trim()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_rules_names_and_aliases() {
        for kind in GameKind::ALL {
            let rules = kind.rules();
            assert_eq!(rules.name(), kind.name());
            assert_eq!(rules.title(), kind.title());
            assert_eq!(rules.kind(), Some(kind));
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
            assert_eq!(GameKind::from_name(&kind.name().to_uppercase()), Some(kind));
            for alias in kind.aliases() {
                assert_eq!(GameKind::from_name(alias), Some(kind), "{alias}");
            }
        }
        assert_eq!(variants::all().count(), GameKind::ALL.len());
        // Each game's rules are that game's, not another's: its board.
        let boards: Vec<(GameKind, String)> = GameKind::ALL
            .iter()
            .map(|k| (*k, k.rules().size().to_string()))
            .collect();
        for (kind, size) in [
            (GameKind::Standard, "8x8"),
            (GameKind::Void, "9x9"),
            (GameKind::Antichess, "8x8"),
            (GameKind::SuicideVoid, "8x8"),
            (GameKind::SuicideVoidPromotionWins, "8x8"),
            (GameKind::Chess99, "9x9"),
            (GameKind::BlackHoles, "5x8"),
            (GameKind::Super16, "16x16"),
        ] {
            assert!(
                boards.contains(&(kind, size.to_string())),
                "{kind}: {boards:?}"
            );
        }
        assert_eq!(GameKind::from_name("Void Chess"), Some(GameKind::Void));
        assert_eq!(GameKind::from_name("super_chess"), Some(GameKind::Super16));
        assert_eq!(GameKind::from_name("xiangqi"), None);
        assert_eq!(GameKind::from_name(""), None);
        assert_eq!(GameKind::from_name("ヴォイド"), None);
    }

    /// The list and the indices agree, and the facts asked of each game's
    /// rules come out as its page says: the giveaway games have no king to
    /// guard, Chess 99's king is captured, only Void Chess cracks its floor,
    /// only Super Chess reprograms.
    #[test]
    fn indices_and_features_agree_with_the_rules() {
        use GameKind::*;
        for (i, kind) in GameKind::ALL.into_iter().enumerate() {
            assert_eq!(kind.index(), Some(i));
            let giveaway = matches!(kind, Antichess | SuicideVoid | SuicideVoidPromotionWins);
            assert_eq!(kind.is_giveaway(), giveaway, "{kind}");
            assert_eq!(kind.checks_bind(), !giveaway && kind != Chess99, "{kind}");
            assert_eq!(kind.has_unstable_tiles(), kind == Void, "{kind}");
            assert_eq!(kind.has_programs(), kind == Super16, "{kind}");
            assert_eq!(kind.base().base(), kind.base());
            assert_eq!(kind.promotion_wins(), kind.base() != kind, "{kind}");
            if let Some(with) = kind.with_promotion_wins() {
                assert!(
                    with.promotion_wins() && with.base() == kind.base(),
                    "{kind}"
                );
            }
        }
        let names = ByKind::from_fn(GameKind::name);
        assert_eq!(names.get(GameKind::Super16), Some(&"super16"));
        assert_eq!(names.iter().count(), GameKind::COUNT);
    }
}
