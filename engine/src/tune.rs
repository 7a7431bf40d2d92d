//! Tuning the evaluation's weights on positions from games (Texel's
//! method): each position's score, passed through a logistic curve, is a
//! prediction of the game's result; the weights are moved (by Adam, a
//! gradient descent with a step per weight) to make the predictions'
//! squared error smallest. The evaluation is linear in its weights, so each
//! position's terms are counted once ([`Sample`]) and every step is a pass
//! of sums over them.
//!
//! A position may also carry the score the game's search gave it. The
//! target can then be a blend ([`blend`]) of the game's result and that
//! score as an expected result: the result says who won, but from games
//! full of slips it also credits whatever the winning side happened to
//! have; the search's score says what the position held when it was
//! played.

use crate::eval::{features, phase, Sink, Term, Weights, COUNT};
use voidmate_rules::{GameKind, Position};

/// One position's terms and the result of the game it came from.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The terms that are not zero: index and White's count less Black's.
    terms: Vec<(u16, i32)>,
    /// 256 in the opening, 0 in the endgame ([`phase`]).
    phase: i32,
    /// White's result: 1, ½ or 0.
    result: f64,
    /// The game's search's score for White, in centipawns, if recorded.
    score: Option<i32>,
    /// What the weights are fitted to predict: the result, or a [`blend`]
    /// of it and the score.
    target: f64,
}

struct Collect(Vec<(u16, i32)>);

impl Sink for Collect {
    fn add(&mut self, term: Term, value: i32) {
        if value == 0 {
            return;
        }
        match self.0.iter_mut().find(|(t, _)| *t as usize == term.index()) {
            Some((_, v)) => *v += value,
            None => self.0.push((term.index() as u16, value)),
        }
    }
}

impl Sample {
    /// `pos` from a game that White scored `result` in.
    pub fn new(pos: &Position, result: f64) -> Sample {
        let mut c = Collect(Vec::new());
        features(pos, &mut c);
        c.0.retain(|(_, v)| *v != 0);
        Sample {
            terms: c.0,
            phase: phase(pos),
            result,
            score: None,
            target: result,
        }
    }

    /// The same, with the score (White's, centipawns) that the game's
    /// search gave the position.
    pub fn with_score(pos: &Position, result: f64, score: i32) -> Sample {
        Sample {
            score: Some(score),
            ..Sample::new(pos, result)
        }
    }

    /// White's score with `w` (what [`crate::eval::white_score`] computes, in floats).
    fn score(&self, w: &[f64; 2 * COUNT]) -> f64 {
        let p = self.phase as f64 / 256.0;
        self.terms
            .iter()
            .map(|&(t, v)| v as f64 * (w[t as usize] * p + w[COUNT + t as usize] * (1.0 - p)))
            .sum()
    }
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn flat(w: &Weights) -> [f64; 2 * COUNT] {
    let mut f = [0.0; 2 * COUNT];
    for i in 0..COUNT {
        f[i] = w.mg[i] as f64;
        f[COUNT + i] = w.eg[i] as f64;
    }
    f
}

/// The mean squared error of `w`'s predictions, with the curve's scale `k`.
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let f = flat(w);
    error_of(samples, &f, k)
}

fn error_of(samples: &[Sample], w: &[f64; 2 * COUNT], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.target - sigmoid(k, s.score(w))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale `k` that fits `w`'s scores to the results best (a golden-section
/// search over 0.1..3): how many centipawns make a win likely in this
/// game, before any weight moves.
pub fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    fit_k_flat(samples, &flat(w))
}

fn fit_k_flat(samples: &[Sample], f: &[f64; 2 * COUNT]) -> f64 {
    golden(|k| error_of(samples, f, k))
}

/// The `k` in 0.1..3 where `error` is least (a golden-section search).
fn golden(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Sets each sample's target to `lambda` parts its game's result and
/// `1 - lambda` parts its search score read as an expected result; samples
/// without a score keep their result. The scores are read through the
/// curve that fits them to the results best, whose scale this returns
/// (`None` if no sample has a score).
pub fn blend(samples: &mut [Sample], lambda: f64) -> Option<f64> {
    let (k, _) = score_scale(samples)?;
    for s in samples {
        s.target = match s.score {
            Some(v) => lambda * s.result + (1.0 - lambda) * sigmoid(k, v as f64),
            None => s.result,
        };
    }
    Some(k)
}

/// The scale `k` of the curve `1 / (1 + 10^(−k·score/400))` that fits the
/// samples' search scores to their games' results best (least squares, a
/// golden-section search over 0.1..3), and how many samples had a score:
/// how often a side with a given score went on to win. `None` if none had.
pub fn score_scale(samples: &[Sample]) -> Option<(f64, usize)> {
    let scored: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|s| s.score.map(|v| (s.result, v as f64)))
        .collect();
    if scored.is_empty() {
        return None;
    }
    let k = golden(|k| {
        scored
            .iter()
            .map(|&(r, v)| (r - sigmoid(k, v)).powi(2))
            .sum::<f64>()
    });
    Some((k, scored.len()))
}

/// Terms the tuner leaves at their starting weights: what the games'
/// results cannot teach. The king hunt (Super Chess: with a clear lead, the
/// losing king to the edge and the winning king after it) is how a won
/// ending on a 16x16 board becomes a mate; self-play games at a few thousand
/// nodes a move seldom finish that hunt and end drawn at the ply limit, and
/// the lead it needs is counted in the middlegame too, where a king walking
/// out is in danger. So the results say a king near the enemy king does no
/// good, and both Super Chess fits turned the hunt around (`runs.md`).
pub const HELD: &[Term] = &[Term::HUNT_EDGE, Term::HUNT_CLOSE];

/// What a tuning run did.
#[derive(Debug, Clone)]
pub struct Tuned {
    pub weights: Weights,
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    /// Terms that no sample counted: left at their starting weights.
    pub unseen: Vec<Term>,
    /// Terms the samples counted but the tuner left at their starting
    /// weights: [`HELD`] and [`Options::hold`].
    pub held: Vec<Term>,
}

/// How a tuning run goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// Full passes of gradient descent.
    pub iterations: u32,
    /// The cost of moving a weight from its start, per (100 centipawns)²:
    /// keeps terms that few positions decide from wandering off on noise.
    pub l2: f64,
    /// Terms held at their starting weights besides [`HELD`]: a run that
    /// tunes only part of the evaluation (say, all but the piece values).
    pub hold: Vec<Term>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            iterations: 1000,
            l2: 1e-4,
            hold: Vec::new(),
        }
    }
}

/// Tunes `start` on `samples`; `progress` is told the error every 50
/// passes.
///
/// The pawn's material weights stay at their start: they fix the scale
/// (centipawns), so that the tuned scores still mean what the search's
/// margins (null move, aspiration windows, exchange values) take them to
/// mean. The curve's scale `k` is fitted again every 100 passes, as the
/// other weights find their places around the pawn. The [`HELD`] terms and
/// those of `options.hold` stay at their start too.
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    options: Options,
    mut progress: impl FnMut(u32, f64),
) -> Tuned {
    let mut k = fit_k(samples, start);
    let w0 = flat(start);
    let mut w = w0;
    let error_before = error_of(samples, &w, k);
    let mut free = [false; 2 * COUNT];
    for s in samples {
        for &(t, _) in &s.terms {
            free[t as usize] = true;
            free[COUNT + t as usize] = true;
        }
    }
    let seen: Vec<bool> = free[..COUNT].to_vec();
    let mut held: Vec<Term> = HELD.to_vec();
    held.extend(options.hold.iter().filter(|t| !HELD.contains(t)));
    held.retain(|t| seen[t.index()]);
    for t in held
        .iter()
        .copied()
        .chain([Term::material(voidmate_rules::Role::Pawn)])
    {
        free[t.index()] = false;
        free[COUNT + t.index()] = false;
    }
    // Adam: a step per weight from running means of its gradient and its
    // square, so rarely counted terms move as surely as common ones.
    let (b1, b2, rate) = (0.9f64, 0.999f64, 1.0f64);
    let mut m = [0.0f64; 2 * COUNT];
    let mut v = [0.0f64; 2 * COUNT];
    let n = samples.len().max(1) as f64;
    for it in 1..=options.iterations {
        if it.is_multiple_of(100) {
            k = fit_k_flat(samples, &w);
        }
        let c = k * std::f64::consts::LN_10 / 400.0;
        let mut grad = [0.0f64; 2 * COUNT];
        for s in samples {
            let p = sigmoid(k, s.score(&w));
            // d(error)/d(score) for this sample.
            let d = -2.0 * (s.target - p) * p * (1.0 - p) * c / n;
            let ph = s.phase as f64 / 256.0;
            for &(t, val) in &s.terms {
                grad[t as usize] += d * val as f64 * ph;
                grad[COUNT + t as usize] += d * val as f64 * (1.0 - ph);
            }
        }
        for i in 0..2 * COUNT {
            if !free[i] {
                continue;
            }
            grad[i] += 2.0 * options.l2 * (w[i] - w0[i]) / 1e4;
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if it.is_multiple_of(50) {
            progress(it, error_of(samples, &w, k));
        }
    }
    let mut weights = start.clone();
    for i in 0..COUNT {
        weights.mg[i] = w[i].round() as i32;
        weights.eg[i] = w[COUNT + i].round() as i32;
    }
    let error_after = error(samples, &weights, k);
    Tuned {
        error_after,
        weights,
        k,
        error_before,
        unseen: Term::all().filter(|t| !seen[t.index()]).collect(),
        held,
    }
}

/// The weights of `w` that differ from `kind`'s starting ones, as lines of
/// a table for `eval/weights.rs`.
pub fn table_lines(kind: GameKind, w: &Weights) -> Vec<String> {
    let start = Weights::start(Some(kind));
    Term::all()
        .filter(|t| {
            w.mg[t.index()] != start.mg[t.index()] || w.eg[t.index()] != start.eg[t.index()]
        })
        .map(|t| {
            format!(
                "(\"{}\", {}, {}),",
                t.name(),
                w.mg[t.index()],
                w.eg[t.index()]
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::variants;

    /// Positions where White is a knight up win, a knight down lose; the
    /// tuner, started with the knight's material worth nothing, must learn
    /// that a knight is worth something and lower the error.
    #[test]
    fn tuning_learns_a_value_the_results_show() {
        let up = Position::from_fen(
            variants::standard(),
            "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1",
        )
        .unwrap();
        let down = Position::from_fen(
            variants::standard(),
            "1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
        )
        .unwrap();
        let even = Position::from_fen(
            variants::standard(),
            "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
        )
        .unwrap();
        let mut samples = Vec::new();
        for i in 0..30 {
            samples.push(Sample::new(&up, if i % 10 == 0 { 0.5 } else { 1.0 }));
            samples.push(Sample::new(&down, if i % 10 == 0 { 0.5 } else { 0.0 }));
            samples.push(Sample::new(&even, 0.5));
        }
        let mut start = Weights::start(Some(GameKind::Standard));
        let knight = Term::material(voidmate_rules::Role::Knight).index();
        start.mg[knight] = 0;
        start.eg[knight] = 0;
        let mut reports = 0;
        let options = Options {
            iterations: 300,
            l2: 0.0,
            ..Options::default()
        };
        let tuned = tune(&samples, &start, options, |_, _| reports += 1);
        assert_eq!(reports, 6);
        let pawn = Term::material(voidmate_rules::Role::Pawn).index();
        assert_eq!(
            tuned.weights.eg[pawn], start.eg[pawn],
            "the pawn fixes the scale"
        );
        // The knight's worth is shared among its terms (material, mobility,
        // centre): the position a knight up must now score well.
        assert!(tuned.weights.eg[knight] > 0);
        let score = crate::eval::white_score(&up, &tuned.weights);
        assert!(score > 100, "{score}");
        assert!(crate::eval::white_score(&down, &tuned.weights) < -100);
        assert!(tuned.error_after < tuned.error_before);
        assert!(tuned
            .unseen
            .contains(&Term::material(voidmate_rules::Role::Queen)));
        let lines = table_lines(GameKind::Standard, &tuned.weights);
        assert!(lines
            .iter()
            .any(|l| l.starts_with("(\"material.knight\", ")));
    }

    /// Positions a knight up whose games went either way (the results say
    /// nothing) but whose search saw White well ahead: on results alone a
    /// knight started at nothing stays near nothing; with the targets
    /// blended towards the scores it is learned.
    #[test]
    fn a_blend_with_the_search_scores_teaches_what_noisy_results_hide() {
        let at = |fen: &str| Position::from_fen(variants::standard(), fen).unwrap();
        let up = at("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1");
        let down = at("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let even = at("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let make = || {
            let mut samples = Vec::new();
            for i in 0..40 {
                let coin = if i % 2 == 0 { 1.0 } else { 0.0 };
                samples.push(Sample::with_score(&up, coin, 300));
                samples.push(Sample::with_score(&down, 1.0 - coin, -300));
                // Where the scores and the results agree: the curve's scale.
                samples.push(Sample::with_score(&even, 0.5, 0));
                samples.push(Sample::with_score(&even, coin, 600 * (2 * coin as i32 - 1)));
            }
            samples
        };
        let mut start = Weights::start(Some(GameKind::Standard));
        let knight = Term::material(voidmate_rules::Role::Knight).index();
        start.mg[knight] = 0;
        start.eg[knight] = 0;
        let options = Options {
            iterations: 300,
            l2: 0.0,
            ..Options::default()
        };
        let knight_after = |lambda: f64| {
            let mut samples = make();
            let k = blend(&mut samples, lambda).expect("every sample has a score");
            let tuned = tune(&samples, &start, options.clone(), |_, _| {});
            // The knight's worth is shared among its terms, and nothing
            // here fixes the curve's scale: the expected result the tuned
            // weights give the position a knight up says what was learned.
            let score = crate::eval::white_score(&up, &tuned.weights);
            (sigmoid(tuned.k, score as f64), sigmoid(k, 300.0))
        };
        let (results_only, _) = knight_after(1.0);
        let (scores_only, searched) = knight_after(0.0);
        let (blended, _) = knight_after(0.5);
        assert!(
            searched > 0.6,
            "the search's +300 reads as a likely win: {searched}"
        );
        assert!((results_only - 0.5).abs() < 0.05, "{results_only}");
        assert!(
            (scores_only - searched).abs() < 0.05,
            "{scores_only} {searched}"
        );
        assert!(
            blended > results_only + 0.03 && blended < scores_only - 0.03,
            "{blended}"
        );

        // No scores: nothing to blend, the targets stay the results.
        let mut plain = vec![Sample::new(&up, 1.0), Sample::new(&down, 0.0)];
        assert_eq!(blend(&mut plain, 0.0), None);
        assert_eq!(
            plain.iter().map(|s| s.target).collect::<Vec<_>>(),
            [1.0, 0.0]
        );
    }

    /// Super Chess endings where White, a queen up, lost whenever its king
    /// stood near Black's and won when it kept away: free, the hunt's terms
    /// would turn around; held, they keep their start while the rest of the
    /// fit goes on.
    #[test]
    fn the_held_terms_keep_their_start_whatever_the_results() {
        let at = |fen: &str| Position::from_fen(variants::super16(), fen).unwrap();
        let near = at("16/16/16/16/16/16/16/8k7/16/7K8/16/16/16/16/2Q13/16 w - - 0 1");
        let far = at("16/16/16/16/16/16/16/8k7/16/16/16/16/16/16/2Q13/15K w - - 0 1");
        let down = at("16/16/16/16/16/16/16/8k7/16/16/16/16/16/16/2q13/15K w - - 0 1");
        let mut samples = Vec::new();
        for _ in 0..20 {
            samples.push(Sample::new(&near, 0.0));
            samples.push(Sample::new(&far, 1.0));
            samples.push(Sample::new(&down, 0.0));
        }
        let start = Weights::start(Some(GameKind::Super16));
        let options = Options {
            iterations: 200,
            l2: 0.0,
            ..Options::default()
        };
        let tuned = tune(&samples, &start, options, |_, _| {});
        assert!(tuned.error_after < tuned.error_before);
        assert_eq!(tuned.held, HELD.to_vec(), "both hunt terms were counted");
        for t in HELD {
            let i = t.index();
            assert_eq!(
                (tuned.weights.mg[i], tuned.weights.eg[i]),
                (start.mg[i], start.eg[i]),
                "{}",
                t.name()
            );
        }
        let lines = table_lines(GameKind::Super16, &tuned.weights);
        assert!(
            lines.iter().all(|l| !l.starts_with("(\"hunt.")),
            "{lines:?}"
        );
        assert!(!lines.is_empty(), "the other terms moved");

        // A run asked to hold the piece values too: the queen, whose value
        // moved above, keeps its start, and the report names it held.
        let queen = Term::material(voidmate_rules::Role::Queen);
        let moved = tuned.weights.eg[queen.index()] != start.eg[queen.index()];
        assert!(moved, "the queen's value moved when free");
        let options = Options {
            iterations: 200,
            l2: 0.0,
            hold: vec![queen],
        };
        let tuned = tune(&samples, &start, options, |_, _| {});
        let q = queen.index();
        assert_eq!(
            (tuned.weights.mg[q], tuned.weights.eg[q]),
            (start.mg[q], start.eg[q])
        );
        assert!(tuned.held.contains(&queen));
        assert!(tuned.error_after < tuned.error_before);
    }
}
