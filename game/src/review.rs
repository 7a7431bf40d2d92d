//! Engine reviews of finished games, judged as lichess judges them: each
//! move by how much it cost its player's winning chances, each side by an
//! accuracy in percent. Pure: the engine's evaluations come in, the review
//! goes out.
//!
//! - **Winning chances** (−1 to 1, for one side): `2 / (1 + e^(−c·cp)) − 1`,
//!   with the centipawns held within ±1000 and a forced mate counted as the
//!   whole chance (±1); a finished position is won, drawn or lost. `c` is
//!   lichess's 0.00368208 for standard chess and, for every other game, the
//!   coefficient fitted to our engine's own self-play games
//!   ([`coefficient`], `docs/reviews.md`).
//! - **Marks**: a move that lowers its player's chances by 0.1 or more is an
//!   inaccuracy (`?!`), by 0.2 a mistake (`?`), by 0.3 a blunder (`??`).
//! - **Accuracy** (lichess's, from `AccuracyPercent.scala`): per move
//!   `103.1668 · e^(−0.043544 · loss) − 3.1669` (+1, lichess's allowance for
//!   the engine's own uncertainty), the loss in win percent (0 to 100) of
//!   the player who moved; a side's accuracy is the mean of the
//!   volatility-weighted mean and the harmonic mean of its moves'.
//!
//! Giveaway games need nothing of their own: the engine scores every game
//! for the side to move by that game's own goal, and a finished position is
//! won by the winner its rules name (in antichess, the side without pieces).

use voidmate_rules::{Color, GameKind, Position};

/// An evaluation for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns, the side to move's.
    Cp(i32),
    /// A forced mate in this many plies: positive, the side to move mates;
    /// negative, it is mated.
    Mate(i32),
    /// The game is over: 1 won, 0 drawn, −1 lost for the side to move.
    Over(i8),
}

impl Eval {
    /// From the engine's score (side to move; beyond ±(MATE − 1000) a mate).
    pub fn from_score(score: i32) -> Eval {
        let mate = voidmate_engine::MATE;
        if score.abs() > mate - 1000 {
            let plies = mate - score.abs();
            Eval::Mate(if score > 0 {
                plies.max(1)
            } else {
                -plies.max(1)
            })
        } else {
            Eval::Cp(score)
        }
    }

    /// The finished position's value for the side to move.
    pub fn over(pos: &Position) -> Option<Eval> {
        let outcome = pos.outcome()?;
        Some(Eval::Over(match outcome.winner() {
            None => 0,
            Some(w) if w == pos.turn() => 1,
            Some(_) => -1,
        }))
    }

    /// The same evaluation for the other side.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(cp) => Eval::Cp(-cp),
            Eval::Mate(n) => Eval::Mate(-n),
            Eval::Over(v) => Eval::Over(-v),
        }
    }

    /// As PGN's `[%eval ...]` writes it (White's view is the caller's to
    /// give): pawns with two decimals, or `#n` / `#-n`.
    pub fn pgn(self) -> String {
        match self {
            Eval::Cp(cp) => format!("{:.2}", cp as f64 / 100.0),
            Eval::Mate(n) => format!("#{}", (n + n.signum()) / 2),
            Eval::Over(1) => "#0".to_string(),
            Eval::Over(-1) => "#-0".to_string(),
            Eval::Over(_) => "0.00".to_string(),
        }
    }
}

/// Lichess's coefficient for standard chess.
pub const LICHESS: f64 = 0.003_682_08;

/// The curve's coefficient for `kind`: lichess's for standard chess; for the
/// other games fitted to our engine's self-play games (`voidmate win-curve`
/// over `voidmate tune-data` files: the least-squares logistic fit of each
/// quiet position's search score to its game's result, read as
/// `c = k · ln 10 / 400` of the tuner's curve; `docs/reviews.md` has the
/// runs). One arm per game: a new game does not compile until it has its
/// curve (lichess's until one is fitted).
pub fn coefficient(kind: GameKind) -> f64 {
    match kind {
        GameKind::Standard => LICHESS,
        GameKind::Void => 0.002726,
        GameKind::Antichess => 0.002529,
        // The promotion-wins option plays as its base game until decided.
        GameKind::SuicideVoid | GameKind::SuicideVoidPromotionWins => 0.003892,
        GameKind::Chess99 => 0.003130,
        // From few games: provisional.
        GameKind::BlackHoles => 0.002118,
        GameKind::Super16 => 0.001556,
        // A game read from a file has no games of its own to fit: chess's.
        GameKind::Defined(_) => LICHESS,
    }
}

/// Winning chances, −1 to 1, of the side `e` is for.
pub fn winning_chances(e: Eval, c: f64) -> f64 {
    match e {
        Eval::Cp(cp) => {
            let cp = cp.clamp(-1000, 1000) as f64;
            2.0 / (1.0 + (-c * cp).exp()) - 1.0
        }
        Eval::Mate(n) => n.signum() as f64,
        Eval::Over(v) => v as f64,
    }
}

/// What a move's cost makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for a loss of winning chances (0 to 2), if it earns one.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        if loss >= 0.3 {
            Some(Mark::Blunder)
        } else if loss >= 0.2 {
            Some(Mark::Mistake)
        } else if loss >= 0.1 {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// One move as reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1 for White's first move.
    pub ply: usize,
    pub mover: Color,
    pub san: String,
    /// The position before the move, for the mover.
    pub before: Eval,
    /// The position after it, for the mover.
    pub after: Eval,
    /// What the mover's winning chances lost (0 when they rose).
    pub loss: f64,
    pub mark: Option<Mark>,
    /// The engine's choice in the position before, when it differs.
    pub better: Option<String>,
}

impl MoveReview {
    /// `14. Qxd4??` or `3... Nf6??`.
    pub fn numbered(&self, first: Color) -> String {
        let index = self.ply - 1 + usize::from(first == Color::Black);
        let number = index / 2 + 1;
        let dots = if index.is_multiple_of(2) { "." } else { "..." };
        let mark = self.mark.map_or("", Mark::symbol);
        format!("{number}{dots} {}{mark}", self.san)
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub first: Color,
    pub moves: Vec<MoveReview>,
    /// White's and Black's accuracy in percent (`None`: no move of theirs).
    pub accuracy: [Option<f64>; 2],
    /// White's and Black's inaccuracies, mistakes and blunders.
    pub counts: [[usize; 3]; 2],
    /// White's winning chances (−1 to 1) at the start and after each move.
    pub white_chances: Vec<f64>,
}

impl Review {
    /// Reviews a game from the engine's evaluations of each of its
    /// positions (`evals[i]`, for the side to move in the position before
    /// move `i + 1`; one more than the moves, the last for the final
    /// position), the engine's best move in each (SAN), and the moves
    /// played (SAN), the first by `first`.
    pub fn new(
        kind: GameKind,
        first: Color,
        sans: &[String],
        evals: &[Eval],
        best: &[Option<String>],
    ) -> Review {
        let c = coefficient(kind);
        let mut moves = Vec::with_capacity(sans.len());
        let mut counts = [[0usize; 3]; 2];
        let mut mover = first;
        let mut white_chances = Vec::with_capacity(evals.len());
        for (i, e) in evals.iter().enumerate() {
            let side = if i % 2 == 0 { first } else { !first };
            let w = winning_chances(*e, c);
            white_chances.push(if side == Color::White { w } else { -w });
        }
        for (i, san) in sans.iter().enumerate() {
            let (Some(&before), Some(&after)) = (evals.get(i), evals.get(i + 1)) else {
                break;
            };
            let after = after.flip();
            let loss = (winning_chances(before, c) - winning_chances(after, c)).max(0.0);
            let mark = Mark::for_loss(loss);
            if let Some(m) = mark {
                counts[mover.index()][m as usize] += 1;
            }
            let better = best
                .get(i)
                .cloned()
                .flatten()
                .filter(|b| strip(b) != strip(san));
            moves.push(MoveReview {
                ply: i + 1,
                mover,
                san: san.clone(),
                before,
                after,
                loss,
                mark,
                better,
            });
            mover = !mover;
        }
        let accuracy = accuracy(first, &white_chances);
        Review {
            first,
            moves,
            accuracy,
            counts,
            white_chances,
        }
    }

    /// The `n` costliest marked moves, worst first.
    pub fn worst(&self, n: usize) -> Vec<&MoveReview> {
        let mut marked: Vec<&MoveReview> = self.moves.iter().filter(|m| m.mark.is_some()).collect();
        marked.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        marked.truncate(n);
        marked
    }
}

/// A SAN without its check and mark signs, to compare moves.
fn strip(san: &str) -> &str {
    san.trim_end_matches(['+', '#', '!', '?'])
}

/// Win percent (0 to 100) from winning chances.
fn win_percent(chances: f64) -> f64 {
    50.0 + 50.0 * chances
}

/// A move's accuracy from its player's win percent before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let loss = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's accuracy (lichess's `gameAccuracy`): the mean of the
/// volatility-weighted mean and the harmonic mean of its moves' accuracies,
/// each move weighted by the standard deviation of the win percents in a
/// window around it (its size a tenth of the game, 2 to 8; the weight held
/// within 0.5 to 12).
pub fn accuracy(first: Color, white_chances: &[f64]) -> [Option<f64>; 2] {
    let wp: Vec<f64> = white_chances.iter().map(|&c| win_percent(c)).collect();
    let moves = wp.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let size = (moves / 10).clamp(2, 8).min(wp.len());
    let mut windows: Vec<&[f64]> = Vec::new();
    for _ in 0..size.saturating_sub(2) {
        windows.push(&wp[..size]);
    }
    windows.extend(wp.windows(size));
    let weights: Vec<f64> = windows
        .iter()
        .map(|w| deviation(w).clamp(0.5, 12.0))
        .collect();
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for i in 0..moves {
        let mover = if i % 2 == 0 { first } else { !first };
        let (prev, next) = (wp[i], wp[i + 1]);
        let acc = match mover {
            Color::White => move_accuracy(prev, next),
            Color::Black => move_accuracy(100.0 - prev, 100.0 - next),
        };
        let weight = weights.get(i).copied().unwrap_or(0.5);
        per_side[mover.index()].push((acc, weight));
    }
    per_side.map(|xs| {
        if xs.is_empty() {
            return None;
        }
        let total: f64 = xs.iter().map(|(_, w)| w).sum();
        let weighted = xs.iter().map(|(a, w)| a * w).sum::<f64>() / total;
        // A move of 0% makes the harmonic mean 0; lichess's own floor.
        let harmonic = xs.len() as f64 / xs.iter().map(|(a, _)| 1.0 / a.max(0.001)).sum::<f64>();
        Some(((weighted + harmonic) / 2.0).clamp(0.0, 100.0))
    })
}

/// Population standard deviation.
fn deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_curve_and_marks() {
        // Lichess's curve: +100 cp is about 0.18 of winning chance.
        let w = winning_chances(Eval::Cp(100), LICHESS);
        assert!((w - 0.1821).abs() < 0.001, "{w}");
        assert_eq!(
            winning_chances(Eval::Cp(5000), LICHESS),
            winning_chances(Eval::Cp(1000), LICHESS)
        );
        assert_eq!(winning_chances(Eval::Mate(3), LICHESS), 1.0);
        assert_eq!(winning_chances(Eval::Mate(-1), LICHESS), -1.0);
        assert_eq!(winning_chances(Eval::Over(0), LICHESS), 0.0);
        assert_eq!(Mark::for_loss(0.09), None);
        assert_eq!(Mark::for_loss(0.1), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.31), Some(Mark::Blunder));
    }

    #[test]
    fn engine_scores_read_as_mates_beyond_the_bound() {
        let mate = voidmate_engine::MATE;
        assert_eq!(Eval::from_score(35), Eval::Cp(35));
        assert_eq!(Eval::from_score(mate - 3), Eval::Mate(3));
        assert_eq!(Eval::from_score(-(mate - 2)), Eval::Mate(-2));
        assert_eq!(Eval::Mate(3).pgn(), "#2");
        assert_eq!(Eval::Mate(-2).pgn(), "#-1");
        assert_eq!(Eval::Cp(-35).pgn(), "-0.35");
    }

    #[test]
    fn accuracy_is_100_without_losses_and_falls_with_them() {
        let level = vec![0.0; 11];
        let [w, b] = accuracy(Color::White, &level);
        assert!((w.unwrap() - 100.0).abs() < 1e-9 && (b.unwrap() - 100.0).abs() < 1e-9);
        // White's third move throws the game away (White moves from the
        // positions at 0, 2 and 4).
        let mut chances = vec![0.0, 0.0, 0.0, 0.0, 0.0, -0.9, -0.9];
        let [w, b] = accuracy(Color::White, &chances);
        assert!(w.unwrap() < 80.0, "{w:?}");
        assert!((b.unwrap() - 100.0).abs() < 1e-9);
        // Always within 0..=100, whatever the swings.
        let mut state = 7u64;
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            chances.push((state % 2001) as f64 / 1000.0 - 1.0);
            for a in accuracy(Color::Black, &chances).into_iter().flatten() {
                assert!((0.0..=100.0).contains(&a), "{a}");
            }
        }
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        // Lichess's curve: losing 10 points of win percent leaves about
        // 65%, losing 50 about 10%.
        assert!((move_accuracy(60.0, 50.0) - 64.58).abs() < 0.05);
        assert!((move_accuracy(50.0, 0.0) - 9.53).abs() < 0.05);
    }

    /// Giveaway games: a side left without pieces has won, so the finished
    /// position is a win for it and the move that gave the last piece away
    /// gained, not lost; in standard chess the mated side has lost.
    #[test]
    fn finished_positions_are_won_by_their_games_own_rules() {
        use voidmate_rules::variants;
        let gave_all = Position::from_fen(variants::antichess(), "8/8/8/8/8/8/8/k7 w - - 0 1")
            .expect("an antichess position");
        assert_eq!(Eval::over(&gave_all), Some(Eval::Over(1)));
        let mut mated = Position::new(variants::standard());
        for mv in ["f3", "e5", "g4", "Qh4#"] {
            mated.play_text(mv).unwrap();
        }
        assert_eq!(Eval::over(&mated), Some(Eval::Over(-1)));
        // White's move that gives its last piece away, from an equal
        // position: after it Black is to move and has lost (White won), so
        // White's move gained everything and is not marked.
        let after_for_black = Eval::Over(-1);
        let r2 = Review::new(
            GameKind::Antichess,
            Color::White,
            &["Kxb2".to_string()],
            &[Eval::Cp(0), after_for_black],
            &[None],
        );
        assert_eq!(r2.moves[0].mark, None);
        assert_eq!(r2.moves[0].loss, 0.0);
        assert!(r2.white_chances[1] > 0.99, "{:?}", r2.white_chances);
    }

    #[test]
    fn numbering_follows_the_first_mover() {
        let m = |ply| MoveReview {
            ply,
            mover: Color::White,
            san: "Nf6".into(),
            before: Eval::Cp(0),
            after: Eval::Cp(0),
            loss: 0.5,
            mark: Some(Mark::Blunder),
            better: None,
        };
        assert_eq!(m(6).numbered(Color::White), "3... Nf6??");
        assert_eq!(m(1).numbered(Color::White), "1. Nf6??");
        assert_eq!(m(1).numbered(Color::Black), "1... Nf6??");
    }
}
