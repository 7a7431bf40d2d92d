//! A position of a game: the board, the variant's rules and the history that
//! repetition needs.

use crate::fen::{self, FenError};
use crate::movegen;
use crate::rules::Rules;
use crate::shared::SharedRules;
use crate::variant::Restriction;
use crate::{
    Attacks, Board, Color, DrawReason, Move, MoveKind, Outcome, Piece, Role, Square, Tile,
    WinReason,
};

/// A position reached in a game of some variant.
///
/// Built from the variant's start ([`Position::new`]) or a FEN
/// ([`Position::from_fen`]); changed only by legal moves.
#[derive(Clone)]
pub struct Position {
    rules: SharedRules,
    board: Board,
    /// Keys of the earlier positions of the game, oldest first.
    history: Vec<u64>,
}

impl Position {
    /// The variant's starting position.
    pub fn new(rules: impl Into<SharedRules>) -> Position {
        let rules = rules.into();
        let start = rules.def.start_fen;
        Position::from_fen(rules.clone(), start).expect("start FEN is valid")
    }

    pub fn from_fen(rules: impl Into<SharedRules>, fen: &str) -> Result<Position, FenError> {
        let rules = rules.into();
        let board = fen::parse(&rules, fen)?;
        let mut pos = Position {
            rules,
            board,
            history: Vec::new(),
        };
        pos.settle_en_passant();
        Ok(pos)
    }

    /// Keeps the en-passant square only if an en-passant capture is legal:
    /// by the rules of chess two positions are the same when the same moves
    /// are legal in them, so a right nobody can use must not tell them apart
    /// (repetition) nor show in the FEN.
    fn settle_en_passant(&mut self) {
        if self.board.ep.is_none() {
            return;
        }
        if !self
            .rules
            .variant
            .may_take_en_passant(&self.rules, &self.board)
        {
            self.board.set_ep(None);
            return;
        }
        let moves = crate::legal::all_legal_moves(&self.rules, &self.board);
        if !moves.iter().any(|m| m.kind == MoveKind::EnPassant) {
            self.board.set_ep(None);
        }
    }

    pub fn fen(&self) -> String {
        fen::format(&self.rules, &self.board)
    }

    /// The position with the turn passed to the other side (and no
    /// en-passant right): what the pieces of the side not to move could do
    /// on their next turn, for hints and pictures. `None` where that is no
    /// position (the side to move is in check: passing would leave its king
    /// attacked).
    pub fn passed_turn(&self) -> Option<Position> {
        self.after_null()
    }

    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The handle on the rules, to start another position of the same game.
    #[inline]
    pub fn shared_rules(&self) -> &SharedRules {
        &self.rules
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.board.turn
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    #[inline]
    pub fn tile(&self, sq: Square) -> Tile {
        self.board.tile(sq)
    }

    /// The legal moves, on the heap: a full move list is tens of kilobytes
    /// (see [`crate::MAX_MOVES`]), too big to pass around by value or keep in
    /// an async task's state.
    pub fn legal_moves(&self) -> Vec<Move> {
        crate::legal::all_legal_moves(&self.rules, &self.board)
    }

    pub fn is_legal(&self, mv: &Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// The side to move's king is attacked.
    #[inline]
    pub fn is_check(&self) -> bool {
        movegen::in_check(&self.rules, &self.board)
    }

    /// Whether the quiet move `mv` gives check, told without playing it:
    /// `Some` for a legal move that neither captures nor promotes (a plain
    /// move or a double step) in a game whose quiet moves change only their
    /// two squares, or one without a royal piece (never in check); `None`
    /// otherwise, and then only
    /// [`after`](Position::after)`(mv).is_check()` can say. A search asks
    /// it of the quiet moves it means to skip unless they check.
    #[inline]
    pub fn quiet_check(&self, mv: &Move) -> Option<bool> {
        crate::checks::quiet_check(&self.rules, &self.board, mv)
    }

    /// Is `sq` attacked by a piece of `by`?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        crate::legal::attacked(&self.rules, &self.board, sq, by)
    }

    /// What `mv` wins in material when both sides then go on capturing on
    /// its square, each with its least valuable piece, and each free to
    /// stop (a static exchange evaluation), with pieces worth `value`: for
    /// a capture, its victim less what the answers win back; for a move to
    /// an empty square, 0 or what the opponent wins by taking the piece.
    /// Pins, checks and what a move does beyond taking (a void opening, a
    /// promotion) are not looked at: an estimate for ordering and pruning a
    /// search. `None` for en passant, castling, a promotion, a move that
    /// places a void, or a game whose pieces attack in ways the movement
    /// tables do not list (reprogrammed pieces, Black Holes).
    pub fn exchange(&self, mv: &Move, value: impl Fn(Role) -> i32) -> Option<i32> {
        if mv.promotion.is_some() || !matches!(mv.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            return None;
        }
        let victim = match self.board.piece_at(mv.to) {
            Some(p) if p.color != self.board.turn => value(p.role),
            Some(_) => return None,
            None => 0,
        };
        crate::legal::exchange(&self.rules, &self.board, mv.from, mv.to, victim, &value)
    }

    /// Every square each side attacks, by role, and each role's reach, in
    /// one pass over the pieces: for an evaluation that asks about most
    /// squares (threats, undefended pieces, mobility). `None` where the game
    /// has no bitboard route or pieces it does not follow alone (a walker
    /// such as the Minister, pieces crossing voids, reprogrammed pieces);
    /// ask [`is_attacked`](Position::is_attacked) and
    /// [`reach`](Position::reach) there.
    pub fn attacks(&self) -> Option<Attacks> {
        if self.rules.programs.is_some() {
            return None;
        }
        self.rules.bitboards.as_ref()?.attacks(&self.board)
    }

    /// How many squares the piece on `sq` reaches (empty or enemy), as a
    /// measure of its freedom; pawns count nothing. Cheap and approximate,
    /// for evaluations, not for move generation.
    #[inline]
    pub fn reach(&self, sq: Square) -> u32 {
        crate::legal::reach(&self.rules, &self.board, sq)
    }

    /// A variant's limit on this turn's moves, with its reason.
    pub fn restriction(&self) -> Option<Restriction> {
        self.rules.variant.restriction(&self.rules, &self.board)
    }

    /// Plays a legal move; an illegal one is refused and changes nothing.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove(*mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, mv: &Move) {
        self.history.push(self.board.key());
        self.make(mv);
        // Repetition looks back only as far as the half-move clock: after a
        // capture or a pawn move no earlier position can come again, so the
        // keys kept stay few (and a copy of the position stays cheap).
        if self.board.halfmove == 0 {
            self.history.clear();
        }
    }

    /// Plays a legal move on the board alone; the history is the caller's.
    fn make(&mut self, mv: &Move) {
        movegen::play(&self.rules, &mut self.board, mv);
        self.rules
            .variant
            .update_counters(&self.rules, &mut self.board);
        self.settle_en_passant();
    }

    /// The position after `mv`, with the game's history (so its
    /// [`outcome`](Position::outcome) sees repetitions).
    pub fn after(&self, mv: &Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(mv);
        p
    }

    /// The position after `mv` without the earlier positions of the game:
    /// cheaper than [`after`](Position::after) (nothing on the heap), for a
    /// search that keeps the keys along its own line ([`Position::history`]
    /// gives it the game's). Its [`repetitions`](Position::repetitions) and
    /// [`outcome`](Position::outcome) see no repetition.
    pub fn after_alone(&self, mv: &Move) -> Position {
        let mut p = Position {
            rules: self.rules.clone(),
            board: self.board,
            history: Vec::new(),
        };
        p.make(mv);
        p
    }

    /// The keys ([`Board::key`]) of the earlier positions that repetition
    /// still looks at, oldest first: those since the last capture or pawn
    /// move at least.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The position with the turn handed to the other side and nothing
    /// else changed (no en-passant square): a "null move" for a search to
    /// ask "what if I could pass?". Never a legal move of any game. `None`
    /// when the side to move is in check (passing would leave its king
    /// en prise).
    pub fn after_null(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut p = self.clone();
        p.history.push(self.board.key());
        p.board.set_ep(None);
        p.board.set_turn(!self.board.turn);
        Some(p)
    }

    /// Whether the game's history may have drawn it here (the 50-move rule
    /// or a threefold repetition, in games where those end the game), which
    /// the board alone does not show: a search must not take a stored score
    /// for this position, since the same board reached by another path is
    /// no draw. [`outcome_given`](Position::outcome_given) decides (a mate on
    /// the 100th half-move still stands).
    pub fn may_be_drawn_by_history(&self) -> bool {
        self.history_draw().is_some()
    }

    /// The draw the game's history holds here, moves aside: the 50-move
    /// rule, then threefold repetition, in games where those end the game.
    fn history_draw(&self) -> Option<DrawReason> {
        let v = self.rules.variant;
        if !v.automatic_draws() {
            return None;
        }
        if v.move_rule()
            .is_some_and(|moves| u32::from(self.board.halfmove) >= 2 * u32::from(moves))
        {
            return Some(DrawReason::FiftyMoveRule);
        }
        (self.repetitions() >= 3).then_some(DrawReason::ThreefoldRepetition)
    }

    /// How often the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let key = self.board.key();
        let reversible = self.board.halfmove as usize;
        1 + self
            .history
            .iter()
            .rev()
            .take(reversible)
            .filter(|&&k| k == key)
            .count()
    }

    /// The result if the game is over in this position.
    ///
    /// Order: no legal move (checkmate, then the variant's own loss such as a
    /// king lost to the void, else stalemate), then draws by insufficient
    /// material, the variant's own draws, the 50-move rule and threefold
    /// repetition. A mate on the 100th half-move stands.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_given(&self.legal_moves())
    }

    /// [`outcome`](Position::outcome) for a caller that already holds this
    /// position's legal moves (a search, which needs them anyway): the
    /// moves are not generated a second time.
    pub fn outcome_given(&self, legal: &[Move]) -> Option<Outcome> {
        self.outcome_if_moves(!legal.is_empty())
    }

    /// [`outcome`](Position::outcome) for a caller that knows only whether
    /// the side to move has a legal move (a search holding
    /// [`UncheckedMoves`](crate::UncheckedMoves)).
    pub fn outcome_if_moves(&self, any_legal: bool) -> Option<Outcome> {
        let v = self.rules.variant;
        if self.rules.immediate_wins {
            if let Some(o) = v.immediate_outcome(&self.rules, &self.board) {
                return Some(o);
            }
        }
        if !any_legal {
            if self.is_check() {
                return Some(Outcome::Win {
                    winner: !self.turn(),
                    reason: WinReason::Checkmate,
                });
            }
            return Some(
                v.no_moves_outcome(&self.rules, &self.board)
                    .unwrap_or(Outcome::Draw(DrawReason::Stalemate)),
            );
        }
        if let Some(reason) = self.drawn_by_material() {
            return Some(Outcome::Draw(reason));
        }
        self.history_draw().map(Outcome::Draw)
    }

    /// The draws a position holds by its pieces alone, whatever the moves:
    /// too little material to mate, or the variant's own draw. A search that
    /// stops before generating moves (a quiescence search standing pat)
    /// asks this instead of [`outcome`](Position::outcome).
    #[inline]
    pub fn drawn_by_material(&self) -> Option<DrawReason> {
        let v = self.rules.variant;
        if v.insufficient_material(&self.rules, &self.board) {
            return Some(DrawReason::InsufficientMaterial);
        }
        v.variant_draw(&self.rules, &self.board)
    }

    /// A draw the side to move may claim in this position, if any.
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        self.rules.variant.claimable_draw(&self.rules, &self.board)
    }

    /// Leaf nodes of the legal move tree to `depth` (draw rules ignored, as
    /// perft conventionally does).
    pub fn perft(&self, depth: u32) -> u64 {
        crate::legal::perft(&self.rules, &self.board, depth)
    }

    /// Perft split by first move, in SAN.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.legal_moves()
            .iter()
            .map(|m| {
                let n = if depth <= 1 {
                    1
                } else {
                    crate::legal::perft(
                        &self.rules,
                        &movegen::make(&self.rules, &self.board, m),
                        depth - 1,
                    )
                };
                (self.san(m), n)
            })
            .collect()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {})", self.rules.name(), self.fen())
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{} is not a legal move here", self.0.from, self.0.to)
    }
}

impl std::error::Error for IllegalMove {}
