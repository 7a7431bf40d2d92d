//! Games defined in a file: a server's own variant without a new release.
//!
//! A definition is a TOML table per game (the format is in
//! `docs/variants.md`; [`read`] reads it): the board, the start, the pieces
//! with their moves in Betza's notation ([`crate::betza`]), pawns,
//! castling, how a stalemate scores and the move rule. Each game read is
//! turned into [`Rules`] once and kept for the life of the process (leaked:
//! rules live as long as the positions that use them, and a process loads a
//! few files at start), in a registry [`crate::variants::by_name`] reads
//! beside the built-in games.
//!
//! The fairy games we ship (Capablanca, Gothic, Embassy, Chancellor,
//! Knightmate, Shatranj, Courier, Makruk, Grand, Shako, and orthodox chess written
//! as a file) are
//! built in as text ([`SHIPPED`]) and always loaded; files named in the
//! configuration add theirs ([`load`]).

mod legs;
mod read;

pub use read::{read, Art, DefinitionError, Flag, PieceSpec, Spec, HOOKS, MAX_FILE_BYTES};

use crate::outcome::{Outcome, WinReason};
use crate::variant::{Definition, Variant};
use crate::{Board, Role, Rules};
use std::sync::{OnceLock, RwLock};

/// The definitions shipped with the bot, as (file, text).
pub const SHIPPED: [(&str, &str); 17] = [
    (
        "variants/standard.toml",
        include_str!("../../../variants/standard.toml"),
    ),
    (
        "variants/antichess.toml",
        include_str!("../../../variants/antichess.toml"),
    ),
    (
        "variants/void.toml",
        include_str!("../../../variants/void.toml"),
    ),
    (
        "variants/suicide-void.toml",
        include_str!("../../../variants/suicide-void.toml"),
    ),
    (
        "variants/chess99.toml",
        include_str!("../../../variants/chess99.toml"),
    ),
    (
        "variants/black-holes.toml",
        include_str!("../../../variants/black-holes.toml"),
    ),
    (
        "variants/super16.toml",
        include_str!("../../../variants/super16.toml"),
    ),
    (
        "variants/capablanca.toml",
        include_str!("../../../variants/capablanca.toml"),
    ),
    (
        "variants/gothic.toml",
        include_str!("../../../variants/gothic.toml"),
    ),
    (
        "variants/embassy.toml",
        include_str!("../../../variants/embassy.toml"),
    ),
    (
        "variants/chancellor.toml",
        include_str!("../../../variants/chancellor.toml"),
    ),
    (
        "variants/knightmate.toml",
        include_str!("../../../variants/knightmate.toml"),
    ),
    (
        "variants/shatranj.toml",
        include_str!("../../../variants/shatranj.toml"),
    ),
    (
        "variants/courier.toml",
        include_str!("../../../variants/courier.toml"),
    ),
    (
        "variants/makruk.toml",
        include_str!("../../../variants/makruk.toml"),
    ),
    (
        "variants/grand.toml",
        include_str!("../../../variants/grand.toml"),
    ),
    (
        "variants/shako.toml",
        include_str!("../../../variants/shako.toml"),
    ),
];

/// How a stalemate scores for the side with no move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stalemate {
    Draw,
    Loss,
    Win,
}

/// A game read from a file, as a [`Variant`]: its definition and the rules
/// that are data here but hooks for the built-in games.
#[derive(Debug)]
pub struct DefinedVariant {
    def: Definition,
    /// What the file says of it, for `variants show` and help.
    pub spec: Spec,
}

impl DefinedVariant {
    fn stalemate(&self) -> Stalemate {
        self.spec.stalemate
    }

    /// The built-in game whose code this game switched on (`rules =
    /// "void"`): it answers every hook but the data.
    #[inline]
    fn hook(&self) -> Option<&'static dyn Variant> {
        self.spec.hook.map(crate::variants::variant_of)
    }

    /// Void Chess's tile layer, where the file switched it on (`tiles =
    /// "void"`): its hooks for the tiles alone (not its fortress draws).
    #[inline]
    fn tiles(&self) -> Option<&'static crate::variants::void::VoidChess> {
        self.spec
            .void_tiles
            .then_some(&crate::variants::void::VoidChess)
    }
}

impl Variant for DefinedVariant {
    fn definition(&self) -> Definition {
        self.def.clone()
    }

    fn default_promotion(&self) -> Option<Role> {
        if let Some(h) = self.hook() {
            return h.default_promotion();
        }
        let letter = self.spec.promotion_default?;
        self.def
            .roster
            .iter()
            .find(|r| r.letter == letter)
            .map(|r| r.role)
    }

    fn voids(&self) -> crate::variant::Voids {
        if let Some(t) = self.tiles() {
            return t.voids();
        }
        self.hook()
            .map_or(crate::variant::Voids::None, |h| h.voids())
    }

    fn after_move(&self, rules: &Rules, board: &mut Board, effect: &crate::variant::MoveEffect) {
        if let Some(t) = self.tiles() {
            t.after_move(rules, board, effect);
        }
        if let Some(h) = self.hook() {
            h.after_move(rules, board, effect);
        }
    }

    fn removal_square(&self, board: &Board) -> Option<crate::Square> {
        if let Some(t) = self.tiles() {
            return t.removal_square(board);
        }
        self.hook().and_then(|h| h.removal_square(board))
    }

    fn limits_or_blocks(&self) -> bool {
        self.tiles().is_some() || self.hook().is_some_and(|h| h.limits_or_blocks())
    }

    fn blocker_after_move(&self, board: &Board) -> Option<crate::Square> {
        self.hook().and_then(|h| h.blocker_after_move(board))
    }

    fn restriction(&self, rules: &Rules, board: &Board) -> Option<crate::variant::Restriction> {
        if let Some(t) = self.tiles() {
            return t.restriction(rules, board);
        }
        self.hook().and_then(|h| h.restriction(rules, board))
    }

    fn all_legal_moves(&self, rules: &Rules, board: &Board) -> Option<Vec<crate::Move>> {
        self.hook().and_then(|h| h.all_legal_moves(rules, board))
    }

    fn king_capture(&self) -> bool {
        self.hook().is_some_and(|h| h.king_capture())
    }

    fn double_step_anywhere(&self) -> bool {
        self.hook().is_some_and(|h| h.double_step_anywhere())
    }

    fn delayed_promotion(&self) -> bool {
        self.hook().is_some_and(|h| h.delayed_promotion())
    }

    fn en_passant_by_any_piece(&self) -> bool {
        self.hook().is_some_and(|h| h.en_passant_by_any_piece())
    }

    fn automatic_draws(&self) -> bool {
        self.hook().is_none_or(|h| h.automatic_draws())
    }

    fn fifty_move_rule(&self) -> bool {
        self.hook().is_none_or(|h| h.fifty_move_rule())
    }

    fn has_extra_attacks(&self) -> bool {
        self.hook().is_some_and(|h| h.has_extra_attacks())
    }

    fn extra_attack(
        &self,
        rules: &Rules,
        board: &Board,
        target: crate::Square,
        by: crate::Color,
    ) -> bool {
        self.hook()
            .is_some_and(|h| h.extra_attack(rules, board, target, by))
    }

    fn capturer_removed(
        &self,
        board: &Board,
        at: crate::Square,
        capturer: Role,
        victim: crate::Color,
    ) -> bool {
        self.hook()
            .is_some_and(|h| h.capturer_removed(board, at, capturer, victim))
    }

    fn letter_alias(&self, letter: char) -> Option<Role> {
        self.hook().and_then(|h| h.letter_alias(letter))
    }

    fn claimable_draw(&self, rules: &Rules, board: &Board) -> Option<crate::DrawReason> {
        self.hook().and_then(|h| h.claimable_draw(rules, board))
    }

    fn variant_draw(&self, rules: &Rules, board: &Board) -> Option<crate::DrawReason> {
        self.hook().and_then(|h| h.variant_draw(rules, board))
    }

    fn validate_setup(&self, rules: &Rules, board: &Board) -> Result<(), String> {
        self.hook()
            .map_or(Ok(()), |h| h.validate_setup(rules, board))
    }

    fn update_counters(&self, rules: &Rules, board: &mut Board) {
        if let Some(h) = self.hook() {
            h.update_counters(rules, board);
        }
    }

    fn no_moves_outcome(&self, rules: &Rules, board: &Board) -> Option<Outcome> {
        if let Some(h) = self.hook() {
            return h.no_moves_outcome(rules, board);
        }
        // A king on its unstable tile with no move is lost to the void.
        if let Some(lost) = self.tiles().and_then(|t| t.no_moves_outcome(rules, board)) {
            return Some(lost);
        }
        let mover = board.turn();
        match self.stalemate() {
            Stalemate::Draw => None,
            Stalemate::Loss => Some(Outcome::Win {
                winner: !mover,
                reason: WinReason::Stalemated,
            }),
            Stalemate::Win => Some(Outcome::Win {
                winner: mover,
                reason: WinReason::Stalemated,
            }),
        }
    }

    /// No hook of a defined game changes the board after a move or decides
    /// a move's legality: the bitboard route may judge king safety wherever
    /// its tables suit the pieces (orthodox pieces on at most 128 squares).
    /// The bitboard route judges king safety for a game whose hooks change
    /// nothing it depends on; a game with the tile layer takes the general
    /// route, which plays out every move a tile could concern.
    fn bitboard_legality(&self) -> bool {
        !self.spec.void_tiles && self.hook().is_none_or(|h| h.bitboard_legality())
    }

    fn defined_spec(&self) -> Option<&Spec> {
        Some(&self.spec)
    }

    fn role_name(&self, role: Role) -> Option<&str> {
        self.spec
            .pieces
            .iter()
            .find(|p| p.role == role)
            .map(|p| p.name.as_str())
    }

    fn promotion_rank(&self) -> Option<u8> {
        self.spec.promotion_rank
    }

    /// Giveaway: where a capture can be made, only captures may.
    fn filter_moves(&self, rules: &Rules, board: &Board, moves: &mut crate::MoveList) {
        if let Some(h) = self.hook() {
            return h.filter_moves(rules, board, moves);
        }
        if self.spec.captures_forced {
            let capture = |m: &crate::Move| crate::movegen::is_capture(board, m);
            if moves.iter().any(capture) {
                moves.retain(|m| capture(m));
            }
        }
    }

    fn filters_moves(&self) -> bool {
        self.hook()
            .map_or(self.spec.captures_forced, |h| h.filters_moves())
    }

    fn has_immediate_outcome(&self) -> bool {
        !self.spec.extinction.is_empty() || self.spec.flag.is_some() || self.spec.bare_king
    }

    /// Extinction first (the side to move lost its last piece of a kind it
    /// must keep: it loses, and if both did, the mover's capture decided),
    /// then the flag (the side that just moved has its flag piece home).
    fn immediate_outcome(&self, rules: &Rules, board: &Board) -> Option<Outcome> {
        let mover = board.turn();
        let role_of = |letter: char| {
            rules
                .definition()
                .roster
                .iter()
                .find(|r| r.letter == letter)
                .map(|r| r.role)
        };
        for side in [mover, !mover] {
            let extinct = self
                .spec
                .extinction
                .iter()
                .filter_map(|&l| role_of(l))
                .any(|role| board.count(side, role) == 0);
            if extinct {
                return Some(Outcome::Win {
                    winner: !side,
                    reason: WinReason::Extinction,
                });
            }
        }
        // Bare king: the side to move wins when the other has its royal
        // piece alone and it has more (the bared side had its one move to
        // bare this one's king too, which makes it a draw).
        if self.spec.bare_king && bare(rules, board, !mover) && !bare(rules, board, mover) {
            return Some(Outcome::Win {
                winner: mover,
                reason: WinReason::BareKing,
            });
        }
        let flag = self.spec.flag.as_ref()?;
        let role = role_of(flag.piece)?;
        for side in [!mover, mover] {
            let home = &flag.squares[side.index()];
            let arrived = home
                .iter()
                .any(|&q| board.piece_at(q) == Some(crate::Piece::new(side, role)));
            if arrived {
                return Some(Outcome::Win {
                    winner: side,
                    reason: WinReason::ReachedZone,
                });
            }
        }
        None
    }

    fn double_step_rank(&self) -> Option<u8> {
        self.spec.double_step_rank
    }

    fn promotion_zone(&self) -> Option<u8> {
        self.spec.promotion_zone
    }

    fn promotion_limited(&self) -> bool {
        self.spec.promotion_limited
    }

    fn pawn_double_step(&self) -> bool {
        self.hook()
            .map_or(self.spec.double_step, |h| h.pawn_double_step())
    }

    fn move_rule(&self) -> Option<u16> {
        match self.hook() {
            Some(h) => h.move_rule(),
            None => (self.spec.move_rule > 0).then_some(self.spec.move_rule),
        }
    }

    /// Only royal pieces left on the board: nobody can ever give mate (a
    /// game won by a flag or by extinction never runs out of material).
    fn insufficient_material(&self, rules: &Rules, board: &Board) -> bool {
        if let Some(h) = self.hook() {
            return h.insufficient_material(rules, board);
        }
        // Two bare kings: neither side can win by baring the other.
        if self.spec.bare_king {
            return crate::Color::ALL.iter().all(|&c| bare(rules, board, c));
        }
        // A flag or an extinction can still be won with the pieces left.
        if self.has_immediate_outcome() {
            return false;
        }
        rules
            .definition()
            .roster
            .iter()
            .filter(|r| Some(r.role) != rules.definition().royal)
            .all(|r| board.count_both(r.role) == 0)
    }
}

/// Whether `side` has its royal piece and nothing else.
fn bare(rules: &Rules, board: &Board, side: crate::Color) -> bool {
    let royal = rules.definition().royal;
    board.occupied(side).len() == royal.map_or(0, |r| board.count(side, r) as usize)
}

/// A game read from a file or restored from storage.
struct Entry {
    rules: &'static Rules,
    /// Its definition's identity ([`Spec::hash`]), and any other hash a
    /// stored game knows it by.
    hashes: Vec<String>,
    /// Whether it is offered: a game read from a file is, one restored for
    /// the games that started under an older definition is not.
    listed: bool,
    /// Where it may be played (`None`: everywhere; see [`playable_in`]).
    communities: Option<Vec<String>>,
}

/// The games read so far, in the order they were read.
fn registry() -> &'static RwLock<Vec<Entry>> {
    static DEFINED: OnceLock<RwLock<Vec<Entry>>> = OnceLock::new();
    DEFINED.get_or_init(|| {
        let mut games: Vec<Entry> = Vec::new();
        for (file, text) in SHIPPED {
            let parent = |name: &str| {
                games
                    .iter()
                    .find(|e| e.rules.name() == name)
                    .and_then(|e| spec_of(e.rules))
                    .map(|s| s.table.clone())
            };
            let specs = read(file, text, &parent)
                .unwrap_or_else(|e| panic!("a shipped definition does not read: {e:?}"));
            for spec in specs {
                games.push(Entry {
                    hashes: vec![spec.hash()],
                    rules: build(spec),
                    listed: true,
                    communities: None,
                });
            }
        }
        RwLock::new(games)
    })
}

fn entries() -> std::sync::RwLockReadGuard<'static, Vec<Entry>> {
    registry().read().unwrap_or_else(|p| p.into_inner())
}

/// Turns a checked definition into rules, for the life of the process.
fn build(spec: Spec) -> &'static Rules {
    let def = spec.definition();
    let variant: &'static DefinedVariant = Box::leak(Box::new(DefinedVariant { def, spec }));
    Box::leak(Box::new(Rules::new(variant)))
}

/// Every game read from a file, shipped ones first (the built-in games'
/// own files, which share their names, are not among them: see [`twin`]).
pub fn all() -> Vec<&'static Rules> {
    entries()
        .iter()
        .filter(|e| e.listed && e.rules.kind().is_none())
        .map(|e| e.rules)
        .collect()
}

/// The game read from a file under `name` (any case), if any.
pub fn named(name: &str) -> Option<&'static Rules> {
    let name = name.trim().to_ascii_lowercase();
    all().into_iter().find(|r| r.name() == name)
}

/// A built-in game as its shipped file defines it (`standard`): the same
/// rules, read from the format, so that a definition may inherit from it
/// and tests may hold the two to the same perft.
pub fn twin(name: &str) -> Option<&'static Rules> {
    entries()
        .iter()
        .map(|e| e.rules)
        .find(|r| r.kind().is_some() && r.name() == name)
}

/// What a file says of the game `rules` was read from (`None` for a
/// built-in game).
pub fn spec_of(rules: &Rules) -> Option<&'static Spec> {
    rules.variant().defined_spec()
}

/// The identity of a defined game's definition ([`Spec::hash`]): a game
/// stores it, so that it keeps its rules when the file changes.
pub fn hash_of(rules: &Rules) -> Option<String> {
    spec_of(rules).map(Spec::hash)
}

/// The defined game whose definition has `hash`, listed or kept for the
/// games that started under it.
pub fn by_hash(hash: &str) -> Option<&'static Rules> {
    entries()
        .iter()
        .find(|e| e.hashes.iter().any(|h| h == hash))
        .map(|e| e.rules)
}

/// A stored definition ([`Spec::canonical`]) made known again under the
/// hash it was stored with, for the games that started under it: the game
/// of that definition if one is loaded, else its rules kept aside (not
/// offered for new games).
pub fn restore(hash: &str, text: &str) -> Result<&'static Rules, Vec<DefinitionError>> {
    if let Some(rules) = by_hash(hash) {
        return Ok(rules);
    }
    let specs = read("stored definition", text, &|_| None)?;
    let Some(spec) = specs.into_iter().next() else {
        return Err(vec![DefinitionError {
            file: "stored definition".into(),
            line: 1,
            field: "file".into(),
            message: "no game in it".into(),
        }]);
    };
    let mut games = registry().write().unwrap_or_else(|p| p.into_inner());
    let same = spec.hash();
    if let Some(e) = games.iter_mut().find(|e| e.hashes.contains(&same)) {
        e.hashes.push(hash.to_string());
        return Ok(e.rules);
    }
    let rules = build(spec);
    games.push(Entry {
        rules,
        hashes: vec![same, hash.to_string()],
        listed: false,
        communities: None,
    });
    Ok(rules)
}

/// Offers the game `name` in `communities` only (the configuration's
/// `communities` for its file); `None` offers it everywhere.
pub fn offer_in(name: &str, communities: Option<Vec<String>>) {
    let mut games = registry().write().unwrap_or_else(|p| p.into_inner());
    for e in games
        .iter_mut()
        .filter(|e| e.listed && e.rules.name() == name)
    {
        e.communities.clone_from(&communities);
    }
}

/// Whether `rules` may be played in `community` (a Discord server
/// `discord:guild:ID`, a Matrix room `!room:server`, `console`; `None` in a
/// direct conversation): every built-in game and every unrestricted file
/// may; a file given communities only there. A configuration may name a
/// Discord server as `discord:ID` and a Matrix room as `matrix:!room:server`.
pub fn playable_in(rules: &Rules, community: Option<&str>) -> bool {
    let games = entries();
    let Some(entry) = games.iter().find(|e| std::ptr::eq(e.rules, rules)) else {
        return true;
    };
    match (&entry.communities, community) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(list), Some(here)) => list.iter().any(|c| same_community(c, here)),
    }
}

/// Whether a configuration's name for a community is `here`.
fn same_community(named: &str, here: &str) -> bool {
    let named = named.trim();
    named == here
        || named
            .strip_prefix("discord:")
            .is_some_and(|id| here == format!("discord:guild:{id}"))
        || named.strip_prefix("matrix:") == Some(here)
}

/// Reads the games of one file and adds them: each game's rules, or the
/// errors that refused the file (none of its games is added then). A game
/// of a name already loaded is refused unless its definition is the same
/// (a file read twice adds nothing).
pub fn load(file: &str, text: &str) -> Result<Vec<&'static Rules>, Vec<DefinitionError>> {
    let parent = |name: &str| {
        entries()
            .iter()
            .filter(|e| e.listed)
            .find(|e| e.rules.name() == name)
            .and_then(|e| spec_of(e.rules))
            .map(|s| s.table.clone())
    };
    let specs = read(file, text, &parent)?;
    let mut added = Vec::new();
    let mut errors = Vec::new();
    let mut games = registry().write().unwrap_or_else(|p| p.into_inner());
    for spec in specs {
        let hash = spec.hash();
        let listed = games
            .iter()
            .position(|e| e.listed && e.rules.name() == spec.name);
        match listed {
            Some(i) if games[i].hashes.contains(&hash) => added.push(games[i].rules),
            Some(_) => errors.push(DefinitionError {
                file: file.to_string(),
                line: spec.line,
                field: spec.name.clone(),
                message: format!(
                    "a game named `{}` is loaded already with other rules; give this one another name",
                    spec.name
                ),
            }),
            None => {
                // Kept aside for stored games already: offered now.
                if let Some(e) = games.iter_mut().find(|e| e.hashes.contains(&hash)) {
                    e.listed = true;
                    added.push(e.rules);
                    continue;
                }
                let rules = build(spec);
                games.push(Entry {
                    rules,
                    hashes: vec![hash],
                    listed: true,
                    communities: None,
                });
                added.push(rules);
            }
        }
    }
    if errors.is_empty() {
        Ok(added)
    } else {
        Err(errors)
    }
}

/// The role a piece's letter is given in a defined game, in the order they
/// are handed out: the royal piece is the king and a pawn the pawn; a
/// castling partner `R` is the rook; `N`, `B`, `R` and `Q` keep their roles
/// when free; the rest take roles no built-in rule treats specially. (A
/// role is only an identity here: its moves, name and letter are the
/// file's.)
pub(crate) const SPARE_ROLES: [Role; 10] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::Paladin,
    Role::Prince,
    Role::Princess,
    Role::Archbishop,
    Role::SuperKnight,
    Role::Fortress,
];

/// The most pieces a definition may have, pawn and royal included.
pub const MAX_PIECES: usize = SPARE_ROLES.len() + 2;
