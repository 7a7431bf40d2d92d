//! The one trait every game implements.
//!
//! A variant is data (a [`Definition`]: board, roster, set-up, promotion,
//! castling) plus a few hooks for what data cannot say. Each game lives in its
//! own module under `variants/`, so the special rules of one never appear in
//! another's code.

use crate::movement::Movement;
use crate::{
    Board, BoardSize, Color, DrawReason, Move, MoveList, Outcome, Piece, Role, Rules, Square,
};

/// A role of a variant's roster.
#[derive(Clone, Debug)]
pub struct RoleDef {
    pub role: Role,
    /// Upper-case letter for SAN and White in FEN; lower case is Black in FEN.
    pub letter: char,
    pub movement: Movement,
}

/// Castling geometry: files of the king and rooks before and after, per side
/// (index 0 king side, 1 queen side), on one rank of each side's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingDef {
    /// The rank king and rooks stand on, counted from each side's own first
    /// (0: the first; Shako's is 1, the second).
    pub rank: u8,
    pub king_file: u8,
    pub rook_from: [u8; 2],
    pub king_to: [u8; 2],
    pub rook_to: [u8; 2],
}

/// Everything about a variant that is plain data.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Identifier used in commands and storage: `standard`, `void`.
    pub name: &'static str,
    /// Name for people: "Void Chess".
    pub title: &'static str,
    pub size: BoardSize,
    pub roster: Vec<RoleDef>,
    pub start_fen: &'static str,
    /// Roles a pawn may promote to, in the order offered.
    pub promotion: Vec<Role>,
    pub castling: Option<CastlingDef>,
    /// The role whose safety decides the game (check, checkmate).
    pub royal: Option<Role>,
}

/// What a move did, handed to [`Variant::after_move`].
#[derive(Copy, Clone, Debug)]
pub struct MoveEffect {
    pub mover: Color,
    pub mv: Move,
    /// The piece as it stands on `mv.to` after the move (promoted if it did).
    pub landed: Piece,
    pub captured: Option<Piece>,
}

/// A limit on which moves are legal this turn, with the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// Only moves starting here are legal.
    pub only_from: Square,
    /// "your king on e4 stands on an unstable tile and must move"
    pub reason: String,
}

/// Whether a game has voids, and how they come about; decides which words
/// a refused move may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Voids {
    /// No square is ever a void.
    None,
    /// Voids appear by the game's own rules (Void Chess: after captures).
    ByRule,
    /// Players place and move the void with `@` (Suicide Void Chess).
    Placed,
}

/// A game's rules beyond its [`Definition`].
pub trait Variant: Send + Sync + 'static {
    fn definition(&self) -> Definition;

    /// The piece a pawn becomes when the player names none (Super Chess:
    /// the Queen); `None` asks the player to choose.
    fn default_promotion(&self) -> Option<Role> {
        None
    }

    /// Whether the game has voids, and who makes them.
    fn voids(&self) -> Voids {
        Voids::None
    }

    /// Tile effects at the end of every move, after the pieces moved and
    /// before the opponent's turn (Void Chess: unstable tiles and voids).
    fn after_move(&self, _rules: &Rules, _board: &mut Board, _effect: &MoveEffect) {}

    /// Whether a move that neither captures nor promotes, a plain move or a
    /// pawn's double step, changes nothing but the square it leaves and the
    /// one it lands on ([`Variant::after_move`] leaves it alone): then a
    /// search may tell whether it gives check without playing it. Off
    /// unless a variant opts in.
    fn plain_quiet_moves(&self) -> bool {
        false
    }

    /// A square of the mover's that may lose its piece in
    /// [`Variant::after_move`] without the piece moving. The fast legality
    /// check skips moves whose king safety such a loss could change.
    fn removal_square(&self, _board: &Board) -> Option<Square> {
        None
    }

    /// Whether the bitboard route ([`crate::bitboard`]) may judge king
    /// safety here: [`Variant::after_move`] changes nothing an attack on the
    /// mover's king depends on, beyond the square
    /// [`Variant::blocker_after_move`] names. Off unless a variant opts in.
    fn bitboard_legality(&self) -> bool {
        false
    }

    /// A square that blocks every line once the mover's move is over,
    /// whatever the move (Void Chess: the mover's unstable tile, which turns
    /// void or keeps the Minister standing on it).
    fn blocker_after_move(&self, _board: &Board) -> Option<Square> {
        None
    }

    /// Whether [`Variant::restriction`] or [`Variant::blocker_after_move`]
    /// may ever answer (Void Chess's tiles): read once into the rules, so a
    /// game without them is not asked at every position.
    fn limits_or_blocks(&self) -> bool {
        false
    }

    /// Moves allowed this turn, when the variant limits them.
    fn restriction(&self, _rules: &Rules, _board: &Board) -> Option<Restriction> {
        None
    }

    /// A quick test before the position lists every legal move to see
    /// whether its en-passant right can be used: `false` only where no
    /// en-passant capture can be legal, so the right is dropped at once.
    /// The default sends every position to the full list.
    fn may_take_en_passant(&self, _rules: &Rules, _board: &Board) -> bool {
        true
    }

    /// Removes moves the variant forbids beyond king safety (antichess:
    /// anything but a capture when a capture is possible). Called last.
    fn filter_moves(&self, _rules: &Rules, _board: &Board, _moves: &mut MoveList) {}

    /// Every legal move, when [`Variant::filter_moves`] filled its list and
    /// there may be more (Black Holes with many holes); `None` when the list
    /// cannot overflow.
    fn all_legal_moves(&self, _rules: &Rules, _board: &Board) -> Option<Vec<Move>> {
        None
    }

    /// Whether [`Variant::filter_moves`] does anything (lets perft count
    /// without building move lists when it does not).
    fn filters_moves(&self) -> bool {
        false
    }

    /// The result when the side to move has no legal move and is not in check
    /// (stalemate if `None`).
    fn no_moves_outcome(&self, _rules: &Rules, _board: &Board) -> Option<Outcome> {
        None
    }

    /// The game is won by capturing the king: moves may leave it attacked
    /// (check is still shown). Chess 99.
    fn king_capture(&self) -> bool {
        false
    }

    /// Pawns may advance two empty squares from any rank (Chess 99).
    fn double_step_anywhere(&self) -> bool {
        false
    }

    /// Pawns may advance two empty squares from their starting rank (off in
    /// Shatranj and Courier, games defined in a file).
    fn pawn_double_step(&self) -> bool {
        true
    }

    /// Moves by each side without a capture or pawn move that draw, where
    /// [`Variant::fifty_move_rule`] applies: 50 unless a game defined in a
    /// file says otherwise; `None`: no such rule.
    fn move_rule(&self) -> Option<u16> {
        self.fifty_move_rule().then_some(50)
    }

    /// What the file says of a game defined in one (`None` for the
    /// built-in games).
    fn defined_spec(&self) -> Option<&crate::defined::Spec> {
        None
    }

    /// The rank, counted from each side's own first rank (1), where pawns
    /// promote; `None`: the last (makruk's is the sixth).
    fn promotion_rank(&self) -> Option<u8> {
        None
    }

    /// The rank, counted from each side's own first rank (1), from which
    /// pawns double-step; `None`: the second (Grand Chess's is the third).
    fn double_step_rank(&self) -> Option<u8> {
        None
    }

    /// The first rank (each side's own counting) of a promotion zone: a
    /// pawn arriving there or beyond, short of the last rank, may promote or
    /// stay a pawn; on the last rank it must promote (Grand Chess: 8).
    fn promotion_zone(&self) -> Option<u8> {
        None
    }

    /// A pawn may only become a piece its side has lost: no more of a role
    /// than the game starts with (Grand Chess).
    fn promotion_limited(&self) -> bool {
        false
    }

    /// A win that stands whatever the moves, asked before them (only where
    /// [`Variant::has_immediate_outcome`] says so): a side lost its last
    /// piece of a kind, or a flag piece reached its zone (games defined in
    /// a file).
    fn immediate_outcome(&self, _rules: &Rules, _board: &Board) -> Option<Outcome> {
        None
    }

    /// Whether [`Variant::immediate_outcome`] can ever answer.
    fn has_immediate_outcome(&self) -> bool {
        false
    }

    /// The game's own name for a role, where it differs from the role's
    /// ("archbishop" for the role a file gave its letter `A`).
    fn role_name(&self, _role: Role) -> Option<&str> {
        None
    }

    /// A pawn on the last rank stays a pawn until its owner, on a later turn,
    /// turns it into a promotion piece and plays that piece in the same move
    /// (Chess 99).
    fn delayed_promotion(&self) -> bool {
        false
    }

    /// Any piece that could capture on the square a pawn passed may take it
    /// en passant (Chess 99); the en-passant square is then always recorded.
    fn en_passant_by_any_piece(&self) -> bool {
        false
    }

    /// Threefold repetition and the 50-move rule end the game by themselves.
    fn automatic_draws(&self) -> bool {
        true
    }

    /// Whether the 50-move rule ends the game by itself (when
    /// [`Variant::automatic_draws`] holds). Super Chess replaces it with a
    /// 100-move claim.
    fn fifty_move_rule(&self) -> bool {
        true
    }

    /// Whether pieces attack in ways the movement tables do not describe
    /// (Black Holes' relativistic moves); if so, [`Variant::extra_attack`]
    /// is asked too, and every move gets the full king-safety test.
    fn has_extra_attacks(&self) -> bool {
        false
    }

    /// Does `by` attack `target` in a way of its own (see
    /// [`Variant::has_extra_attacks`])?
    fn extra_attack(&self, _rules: &Rules, _board: &Board, _target: Square, _by: Color) -> bool {
        false
    }

    /// Whether a `capturer` taking a piece of `victim` on `at` is removed
    /// with it (Super Chess's Fortress guard), asked of the board as it
    /// stands: by [`Variant::after_move`] where it applies the rule, and by
    /// the static exchange, which then ends the exchange there.
    fn capturer_removed(
        &self,
        _board: &Board,
        _at: Square,
        _capturer: Role,
        _victim: Color,
    ) -> bool {
        false
    }

    /// Another letter players use for a role (Black Holes' page writes the
    /// knight S), read in moves but never written.
    fn letter_alias(&self, _letter: char) -> Option<Role> {
        None
    }

    /// A draw the side to move may claim now (Chess 99: both kings attacked).
    fn claimable_draw(&self, _rules: &Rules, _board: &Board) -> Option<DrawReason> {
        None
    }

    /// Draws particular to the variant, checked after the usual ones.
    fn variant_draw(&self, _rules: &Rules, _board: &Board) -> Option<DrawReason> {
        None
    }

    /// Neither side can ever win.
    fn insufficient_material(&self, rules: &Rules, board: &Board) -> bool;

    /// Refuses a position (read from a FEN) that the variant's own rules
    /// can never reach, with the reason in words.
    fn validate_setup(&self, _rules: &Rules, _board: &Board) -> Result<(), String> {
        Ok(())
    }

    /// Counters that follow the game but not move generation (Void Chess's
    /// siege); updated by [`crate::Position::play`], not by perft.
    fn update_counters(&self, _rules: &Rules, _board: &mut Board) {}
}
