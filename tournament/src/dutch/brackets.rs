//! The pairing procedure: score brackets from the top, each settled by
//! maximum-weight matchings of the whole field (so that the players below can
//! always still be paired), then the colours.
//!
//! The steps follow bbpPairings' Dutch procedure, which the reference we test
//! against reproduces as well:
//!
//! 1. If the field is odd, a first, coarse matching finds the score group the
//!    bye will come from (players who had a bye or a win without playing
//!    excluded), which fixes who may take it and criterion C9 (the bye goes
//!    to the player with the fewest unplayed games).
//! 2. For each bracket (the players moved down from above, then the score
//!    group, with the next score group as look-ahead), the edge weights are
//!    set and the field matched:
//!    - the moved-down players (MDPs) that can be paired in the bracket are
//!      chosen from the top, and each is given, in turn, the highest-ranked
//!      resident it can have;
//!    - among the residents left, the ones paired inside the bracket form the
//!      upper half (S1) and the rest the lower (S2); exchanges between them
//!      are chosen as the rules order them (fewest, then the smallest
//!      pairing-number differences), by nudging weights one player at a
//!      time and matching again;
//!    - each player of S1, from the top, is given the highest-ranked
//!      opponent that keeps the pairing optimal.
//!
//!    Whoever is left floats down into the next bracket.
//! 3. Colours by article 5 ([`super::colour::allocate`]).

use std::collections::HashMap;

use super::colour::{compatible, Preference, Strength};
use super::weight::{
    best_matching, pack, Lex, CARD, CARD_SHIFT, CURRENT_PAIRS, CURRENT_SCORES, FLOAT_SCORES,
    NEXT_SCORES, PACKED_A, PACKED_B, PACKED_C,
};
use super::{colour, Entrant, Field, Float, NoPairing, Pairing};
use crate::{Points, Side};

/// A player in the order of the pairing: score, highest first, then pairing
/// number.
struct Player<'a> {
    entrant: &'a Entrant,
    score: Points,
    pref: Preference,
    /// Floats one and two rounds back.
    float1: Float,
    float2: Float,
}

/// Where an edge lies relative to the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Both players in the bracket (the lower one a resident).
    Current,
    /// The lower player in the next score group (the look-ahead).
    Next,
    /// Anywhere else: the edge only says the two may meet.
    Far,
}

/// Criterion C9's state: whether the bye's score group is the one being
/// paired, its score, and each played-games count's rank there.
struct ByeRanks {
    active: bool,
    score: Option<Points>,
    ranks: HashMap<u32, i64>,
}

struct Pairer<'a> {
    field: &'a Field,
    players: Vec<Player<'a>>,
    n: usize,
    /// Whether two players may meet (no rematch, not forbidden, colours
    /// possible).
    meet: Vec<bool>,
    weights: Vec<Lex>,
    /// How many edges of each vertex are not zero (to leave settled pairs
    /// out of the matchings).
    degree: Vec<u32>,
    rounds_played: u32,
    /// Width of a count field: sums over a matching never reach 2^count_bits.
    count_bits: u32,
    /// bbpPairings' field width, used inside the reserved component.
    exchange_bits: u32,
    bye_takers: Option<Vec<bool>>,
    bye: ByeRanks,
    /// The score bits of each score group present in the current bracket.
    shifts: HashMap<Points, u32>,
    mate: Vec<usize>,
}

fn bit_length(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

pub(super) fn pair(field: &Field) -> Result<Pairing, NoPairing> {
    let mut players: Vec<Player> = field
        .entrants
        .iter()
        .map(|e| Player {
            entrant: e,
            score: e.score,
            pref: Preference::of(&e.colours),
            float1: float_back(e, 1),
            float2: float_back(e, 2),
        })
        .collect();
    players.sort_by_key(|p| (std::cmp::Reverse(p.score), p.entrant.number));
    let n = players.len();
    let last_round = field.round >= field.rounds;
    let rounds_played = field.round.saturating_sub(1);
    let leaders = Points(rounds_played); // half of the maximum, in half points
    let mut meet = vec![false; n * n];
    for i in 0..n {
        for j in (i + 1)..n {
            let (a, b) = (&players[i], &players[j]);
            let ok = !a.entrant.avoid.contains(&b.entrant.id)
                && !b.entrant.avoid.contains(&a.entrant.id)
                && (compatible(&a.pref, &b.pref)
                    || (last_round && (a.score > leaders || b.score > leaders)));
            meet[i * n + j] = ok;
            meet[j * n + i] = ok;
        }
    }
    let bye_takers = if n % 2 == 1 {
        let takers: Vec<bool> = players.iter().map(|p| !p.entrant.unplayed_win).collect();
        if !takers.iter().any(|&t| t) {
            return Err(NoPairing::NoByeTaker);
        }
        Some(takers)
    } else {
        None
    };
    let mut pairer = Pairer {
        field,
        players,
        n,
        meet,
        weights: vec![Lex::ZERO; n * n],
        degree: vec![0; n],
        rounds_played,
        count_bits: bit_length(n) + 2,
        exchange_bits: (bit_length(n) + 3).max(8),
        bye_takers,
        bye: ByeRanks {
            active: false,
            score: None,
            ranks: HashMap::new(),
        },
        shifts: HashMap::new(),
        mate: (0..n).collect(),
    };
    let pairs = pairer.run()?;
    pairer.finish(pairs)
}

fn float_back(e: &Entrant, back: usize) -> Float {
    e.floats
        .len()
        .checked_sub(back)
        .map_or(Float::None, |i| e.floats[i])
}

/// The score groups of `players` (indices into the ordered field), each as
/// a range.
fn groups(players: &[Player]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=players.len() {
        if i == players.len() || players[i].score != players[start].score {
            out.push(start..i);
            start = i;
        }
    }
    out
}

impl Pairer<'_> {
    fn weight(&self, a: usize, b: usize) -> Lex {
        self.weights[a * self.n + b]
    }

    fn set(&mut self, a: usize, b: usize, w: Lex) {
        let old = self.weights[a * self.n + b];
        if old.is_zero() != w.is_zero() {
            if w.is_zero() {
                self.degree[a] -= 1;
                self.degree[b] -= 1;
            } else {
                self.degree[a] += 1;
                self.degree[b] += 1;
            }
        }
        self.weights[a * self.n + b] = w;
        self.weights[b * self.n + a] = w;
    }

    /// Matches the field again with the current weights. Settled pairs
    /// (each other's only edge) and players without edges are left out: a
    /// maximum-cardinality matching keeps the one and leaves the other.
    fn rematch(&mut self) {
        let n = self.n;
        let mut active = Vec::with_capacity(n);
        for v in 0..n {
            match self.degree[v] {
                0 => self.mate[v] = v,
                1 => {
                    let only = (0..n).find(|&u| !self.weight(v, u).is_zero());
                    match only {
                        Some(u) if self.degree[u] == 1 => self.mate[v] = u,
                        _ => active.push(v),
                    }
                }
                _ => active.push(v),
            }
        }
        best_matching(&self.weights, n, &active, &mut self.mate);
    }

    fn settle(&mut self, a: usize, b: usize) {
        for k in 0..self.n {
            if k != b && k != a {
                self.set(a, k, Lex::ZERO);
                self.set(b, k, Lex::ZERO);
            }
        }
        self.set(a, b, Lex::settled());
    }

    /// Score bits of a score in the current bracket: a group's pairs count in
    /// fields of their own, higher scores above lower ones.
    fn score_bits(&self, score: Points) -> i64 {
        self.shifts.get(&score).map_or(0, |&s| 1i64 << s)
    }

    /// Sets the score fields for the groups of the players in `members`:
    /// from the lowest score up, each group as many bits as its count there
    /// needs.
    fn set_shifts(&mut self, members: &[usize]) -> Result<(), NoPairing> {
        let mut counts: Vec<(Points, usize)> = Vec::new();
        for &g in members {
            let s = self.players[g].score;
            match counts.iter_mut().find(|(score, _)| *score == s) {
                Some((_, c)) => *c += 1,
                None => counts.push((s, 1)),
            }
        }
        counts.sort();
        self.shifts.clear();
        let mut at = 0;
        for (score, count) in counts {
            self.shifts.insert(score, at);
            at += bit_length(count).max(1);
        }
        if at > 60 {
            return Err(NoPairing::Tangled);
        }
        Ok(())
    }

    /// The weight of the edge between `hi` (ranked higher) and `lo`.
    fn edge(&self, hi: usize, lo: usize, place: Place) -> Lex {
        if !self.meet[hi * self.n + lo] {
            return Lex::ZERO;
        }
        let (h, l) = (&self.players[hi], &self.players[lo]);
        let bits = self.count_bits;
        let mut w = Lex::ZERO;
        let current = place == Place::Current;
        let completion = match &self.bye_takers {
            Some(takers) => 1 + i64::from(!takers[hi]) + i64::from(!takers[lo]),
            None => 3,
        };
        w.0[CARD] = (1 << CARD_SHIFT) | completion;
        if current {
            w.0[CURRENT_SCORES] = self.score_bits(h.score);
            w.0[CURRENT_PAIRS] = 1;
        }
        let next = i64::from(place == Place::Next);
        if place == Place::Next {
            w.0[NEXT_SCORES] = self.score_bits(h.score);
        }
        let c9 = if self.bye.active {
            self.bye.score.map_or(0, |score| {
                let rank = |p: &Player| {
                    if p.score == score {
                        self.bye.ranks.get(&p.entrant.played).copied().unwrap_or(0)
                    } else {
                        0
                    }
                };
                rank(h) + rank(l)
            })
        } else {
            0
        };
        let (imbalance, absolute, compat, strong) = if current {
            colour_fields(&h.pref, &l.pref)
        } else {
            (0, 0, 0, 0)
        };
        w.0[PACKED_A] = pack(&[
            (next, bits),
            (c9, 2 * bits),
            (imbalance, bits),
            (absolute, bits),
        ]);
        let (mut c14, mut c15, mut c16, mut c17) = (0, 0, 0, 0);
        let mut scores = [0i64; 4];
        if current {
            let back = |f1: bool| {
                let (hf, lf) = if f1 {
                    (h.float1, l.float1)
                } else {
                    (h.float2, l.float2)
                };
                let down = i64::from(lf == Float::Down)
                    + i64::from(hf == Float::Down && h.score <= l.score);
                let up_again = lf == Float::Up && h.score > l.score;
                let down_scores = if lf == Float::Down {
                    self.score_bits(l.score)
                } else {
                    0
                } + if hf == Float::Down {
                    self.score_bits(h.score)
                } else {
                    0
                };
                let up_scores = if up_again {
                    0
                } else {
                    self.score_bits(h.score)
                };
                (down, i64::from(!up_again), down_scores, up_scores)
            };
            if self.rounds_played >= 1 {
                let (d, u, ds, us) = back(true);
                (c14, c15) = (d, u);
                scores[0] = ds;
                scores[1] = us;
            }
            if self.rounds_played >= 2 {
                let (d, u, ds, us) = back(false);
                (c16, c17) = (d, u);
                scores[2] = ds;
                scores[3] = us;
            }
        }
        w.0[PACKED_B] = pack(&[(compat, bits), (strong, bits), (c14, bits), (c15, bits)]);
        w.0[PACKED_C] = pack(&[(c16, bits), (c17, bits)]);
        w.0[FLOAT_SCORES..FLOAT_SCORES + 4].copy_from_slice(&scores);
        w
    }

    /// Step 1: for an odd field, where the bye will come from.
    fn find_bye_group(&mut self, groups: &[std::ops::Range<usize>]) {
        let Some(takers) = self.bye_takers.clone() else {
            return;
        };
        let n = self.n;
        let top = self.players[0].score;
        // Each group's place, counted from the lowest score.
        let mut shift = HashMap::new();
        let mut at = 0i64;
        for g in groups.iter().rev() {
            shift.insert(self.players[g.start].score, at);
            at += i64::from(bit_length(g.len()).max(1));
        }
        let mut weights = vec![Lex::ZERO; n * n];
        for i in 0..n {
            for j in (i + 1)..n {
                if !self.meet[i * n + j] {
                    continue;
                }
                let mut w = Lex::ZERO;
                w.0[CARD] = (1 << CARD_SHIFT) | (1 + i64::from(!takers[i]) + i64::from(!takers[j]));
                w.0[1] = shift[&self.players[i].score] + shift[&self.players[j].score];
                w.0[2] = i64::from(self.players[j].score >= top);
                weights[i * n + j] = w;
                weights[j * n + i] = w;
            }
        }
        let mut mate: Vec<usize> = (0..n).collect();
        let all: Vec<usize> = (0..n).collect();
        best_matching(&weights, n, &all, &mut mate);
        let score = (0..n)
            .find(|&v| mate[v] == v)
            .map_or(top, |v| self.players[v].score);
        // Only players at or below that score may take the bye.
        let narrowed: Vec<bool> = (0..n)
            .map(|v| takers[v] && self.players[v].score <= score)
            .collect();
        self.bye_takers = Some(narrowed);
        self.bye.score = Some(score);
        self.bye.active = score >= top
            && (0..n)
                .take_while(|&v| self.players[v].score >= top)
                .all(|v| mate[v] == v || self.players[mate[v]].score >= top);
        let mut played: Vec<u32> = (0..n)
            .filter(|&v| self.players[v].score == score)
            .map(|v| self.players[v].entrant.played)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, p) in played.into_iter().enumerate() {
            self.bye.ranks.insert(p, rank as i64);
        }
    }

    /// Step 2: the brackets, from the top. Returns the pairs (as indices
    /// into the ordered field).
    fn run(&mut self) -> Result<Vec<(usize, usize)>, NoPairing> {
        let n = self.n;
        let groups = groups(&self.players);
        self.find_bye_group(&groups);
        for i in 0..n {
            for j in (i + 1)..n {
                let w = self.edge(i, j, Place::Far);
                self.set(i, j, w);
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut matched = vec![false; n];
        // The bracket: moved-down players first, then the residents; the
        // next score group follows while a bracket is paired.
        let mut bracket: Vec<usize> = groups[0].clone().collect();
        let mut loaded = 1;
        let mut moved_down = 0; // how many of `bracket` came from above
        let mut previous: Vec<usize> = Vec::new();
        while bracket.len() > 1 || loaded < groups.len() {
            let next_begin = bracket.len();
            let fresh = loaded < groups.len();
            let bracket_score = if fresh {
                let g = groups[loaded].clone();
                loaded += 1;
                let score = self.players[g.start].score;
                bracket.extend(g);
                score
            } else {
                self.players[*bracket.last().expect("a bracket is never empty here")].score
            };
            self.set_shifts(&bracket)?;
            let local = bracket.len();
            // base[li][lj] for lj < li, li from the residents on.
            let mut base: Vec<Vec<Lex>> = vec![Vec::new(); local];
            for li in moved_down..local {
                let place = if li < next_begin {
                    Place::Current
                } else {
                    Place::Next
                };
                base[li] = (0..li)
                    .map(|lj| self.edge(bracket[lj], bracket[li], place))
                    .collect();
                for lj in 0..li {
                    self.set(bracket[lj], bracket[li], base[li][lj]);
                }
            }
            self.rematch();
            let residents = &bracket[moved_down..next_begin];
            let mut resident = vec![false; n];
            for &r in residents {
                resident[r] = true;
            }
            self.choose_moved_down(
                &bracket,
                moved_down,
                next_begin,
                &base,
                &resident,
                &mut matched,
            );
            self.pair_moved_down(&bracket, moved_down, next_begin, &base, &mut matched);
            let remainder = self.remainder(&bracket, moved_down, next_begin);
            if remainder.len() >= 2 {
                self.exchanges(&bracket, next_begin, &mut base, &resident, &remainder);
            }
            self.pair_upper(&bracket, &base, &resident, &remainder, &mut matched);

            // Into the next bracket.
            self.bye.active =
                n % 2 == 1 && fresh && self.bye.score.is_some_and(|score| score >= bracket_score);
            let mut following = Vec::new();
            let mut following_moved = 0;
            for (li, &g) in bracket.iter().enumerate() {
                if li < next_begin && matched[g] && self.mate[g] != g {
                    let m = self.mate[g];
                    let pair = if self.players[g].entrant.number < self.players[m].entrant.number {
                        (g, m)
                    } else {
                        (m, g)
                    };
                    if !pairs.contains(&pair) {
                        pairs.push(pair);
                    }
                    continue;
                }
                following.push(g);
                if li < next_begin {
                    following_moved += 1;
                }
                if self.bye.active {
                    let m = self.mate[g];
                    if m != g && self.players[m].score < bracket_score {
                        self.bye.active = false;
                    }
                }
            }
            bracket = following;
            moved_down = following_moved;
            if loaded >= groups.len() && bracket == previous {
                break;
            }
            previous.clone_from(&bracket);
        }
        Ok(pairs)
    }

    /// Which of the moved-down players will be paired in this bracket: from
    /// the top, as many of each score as the best matching pairs there.
    fn choose_moved_down(
        &mut self,
        bracket: &[usize],
        moved_down: usize,
        next_begin: usize,
        base: &[Vec<Lex>],
        resident: &[bool],
        matched: &mut [bool],
    ) {
        let bracket_size = (next_begin - moved_down) as i64;
        let mut score = None;
        let mut left = 0usize; // moved-down players of this score still to decide
        let mut to_pair = 0usize; // of them, how many the matching pairs here
        for li in 0..moved_down {
            let g = bracket[li];
            if score.is_none_or(|s| self.players[g].score < s) {
                let s = self.players[g].score;
                score = Some(s);
                left = 0;
                to_pair = 0;
                for &m in bracket[li..moved_down]
                    .iter()
                    .take_while(|&&m| self.players[m].score >= s)
                {
                    left += 1;
                    if self.mate[m] != m && resident[self.mate[m]] {
                        to_pair += 1;
                    }
                }
            }
            if to_pair == 0 {
                continue;
            }
            if left <= to_pair {
                matched[g] = true;
                left -= 1;
                continue;
            }
            left -= 1;
            if !resident[self.mate[g]] || self.mate[g] == g {
                for rli in moved_down..next_begin {
                    let w = base[rli][li];
                    if !w.is_zero() {
                        self.set(g, bracket[rli], w.nudged(1));
                    }
                }
                self.rematch();
            }
            if self.mate[g] != g && resident[self.mate[g]] {
                matched[g] = true;
                to_pair -= 1;
                for rli in moved_down..next_begin {
                    let w = base[rli][li];
                    if !w.is_zero() {
                        self.set(g, bracket[rli], w.nudged(bracket_size + 1));
                    }
                }
            }
        }
    }

    /// Gives each chosen moved-down player, from the top, the highest-ranked
    /// resident the best matching allows.
    fn pair_moved_down(
        &mut self,
        bracket: &[usize],
        moved_down: usize,
        next_begin: usize,
        base: &[Vec<Lex>],
        matched: &mut [bool],
    ) {
        let mut settled = Vec::new();
        for li in 0..moved_down {
            let g = bracket[li];
            if !matched[g] || settled.contains(&g) {
                continue;
            }
            let mut addend = bracket.len() as i64;
            for rli in (moved_down..next_begin).rev() {
                let r = bracket[rli];
                if matched[r] {
                    continue;
                }
                let w = base[rli][li];
                if !w.is_zero() {
                    self.set(g, r, w.nudged(addend));
                    addend += 1;
                }
            }
            self.rematch();
            let m = self.mate[g];
            if m == g {
                matched[g] = false;
            } else {
                matched[m] = true;
                self.settle(g, m);
                settled.push(g);
                settled.push(m);
            }
        }
    }

    /// The residents not paired with a moved-down player (local indices).
    fn remainder(&self, bracket: &[usize], moved_down: usize, next_begin: usize) -> Vec<usize> {
        let from_above = &bracket[..moved_down];
        (moved_down..next_begin)
            .filter(|&li| {
                let g = bracket[li];
                let m = self.mate[g];
                m == g || !from_above.contains(&m)
            })
            .collect()
    }

    /// Whether `g` is paired, in the current matching, with a lower resident.
    fn paired_below(&self, g: usize, resident: &[bool]) -> bool {
        let m = self.mate[g];
        m != g && m > g && resident[m]
    }

    /// The exchange weight of the edge between remainder players at local
    /// indices `hi_li` < `lo_li`, the higher one `position`-th in the
    /// remainder: prefer keeping S1 players in S1, then smaller positions.
    fn exchange_weight(
        base: &[Vec<Lex>],
        hi_li: usize,
        lo_li: usize,
        position: usize,
        upper: usize,
        bits: u32,
    ) -> Lex {
        let w = base[lo_li][hi_li];
        if w.is_zero() {
            return w;
        }
        let addend = ((i64::from(position < upper) << (2 * bits)) - position as i64) << 1;
        w.nudged(addend)
    }

    /// Steps for the exchanges between S1 and S2 of the remainder.
    fn exchanges(
        &mut self,
        bracket: &[usize],
        next_begin: usize,
        base: &mut [Vec<Lex>],
        resident: &[bool],
        remainder: &[usize],
    ) {
        let bits = self.exchange_bits;
        let upper = remainder
            .iter()
            .filter(|&&li| {
                let g = bracket[li];
                let m = self.mate[g];
                m != g && m < g
            })
            .count();
        let upper = if upper > remainder.len() {
            remainder.len() / 2
        } else {
            upper
        };
        for (oi, &opp) in remainder.iter().enumerate() {
            for (pi, &player) in remainder[..oi].iter().enumerate() {
                let w = Self::exchange_weight(base, player, opp, pi, upper, bits);
                self.set(bracket[player], bracket[opp], w);
            }
        }
        self.rematch();
        let exchanges = remainder[..upper]
            .iter()
            .filter(|&&li| !self.paired_below(bracket[li], resident))
            .count();

        // The S1 players to move down into S2: from the bottom of S1.
        let mut left = exchanges;
        for scan in (0..upper).rev() {
            if left == 0 {
                break;
            }
            let li = remainder[scan];
            let g = bracket[li];
            if self.paired_below(g, resident) {
                for &opp in &remainder[scan + 1..] {
                    let w = Self::exchange_weight(base, li, opp, scan, upper, bits);
                    if !w.is_zero() {
                        self.set(g, bracket[opp], w.nudged(-1));
                    }
                }
                self.rematch();
            }
            let exchanged = !self.paired_below(g, resident);
            if exchanged {
                left -= 1;
            }
            for &opp in &remainder[scan + 1..] {
                if exchanged {
                    base[opp][li] = Lex::ZERO;
                }
                let w = Self::exchange_weight(base, li, opp, scan, upper, bits);
                self.set(g, bracket[opp], w);
            }
        }

        // The S2 players to move up into S1: from the top of S2.
        let mut left = exchanges;
        for scan in upper..remainder.len() {
            if left <= 1 {
                break;
            }
            let position = scan;
            let li = remainder[scan];
            let g = bracket[li];
            let already = self.paired_below(g, resident);
            if !already {
                for &opp in &remainder[scan + 1..] {
                    let w = Self::exchange_weight(base, li, opp, position, upper, bits);
                    if !w.is_zero() {
                        self.set(g, bracket[opp], w.nudged(1));
                    }
                }
                self.rematch();
            }
            if self.paired_below(g, resident) {
                left -= 1;
                for (oi, &opp) in remainder.iter().enumerate() {
                    if opp == li || oi >= scan {
                        continue;
                    }
                    base[li][opp] = Lex::ZERO;
                    self.set(g, bracket[opp], Lex::ZERO);
                }
                for nli in next_begin..bracket.len() {
                    base[nli][li] = Lex::ZERO;
                    self.set(g, bracket[nli], Lex::ZERO);
                }
            }
            if !already {
                for &opp in &remainder[scan + 1..] {
                    let w = Self::exchange_weight(base, li, opp, position, upper, bits);
                    self.set(g, bracket[opp], w);
                }
            }
        }

        // Fix S1 and S2: no edge between two players of S2, or two of S1.
        for (pi, &player) in remainder.iter().enumerate() {
            for &opp in &remainder[pi + 1..] {
                let (pg, og) = (bracket[player], bracket[opp]);
                if !self.paired_below(pg, resident) || self.paired_below(og, resident) {
                    base[opp][player] = Lex::ZERO;
                }
                self.set(pg, og, base[opp][player]);
            }
        }
    }

    /// Each S1 player, from the top, gets the highest-ranked opponent the
    /// best matching allows.
    fn pair_upper(
        &mut self,
        bracket: &[usize],
        base: &[Vec<Lex>],
        resident: &[bool],
        remainder: &[usize],
        matched: &mut [bool],
    ) {
        for &li in remainder {
            let g = bracket[li];
            if !self.paired_below(g, resident) {
                continue;
            }
            let mut addend = 0;
            for &opp in remainder.iter().rev() {
                let og = bracket[opp];
                if opp <= li || matched[og] {
                    continue;
                }
                let w = base[opp][li];
                if !w.is_zero() {
                    self.set(g, og, w.nudged(addend));
                }
                addend += 1;
            }
            self.rematch();
            let m = self.mate[g];
            if m != g {
                matched[g] = true;
                matched[m] = true;
                self.settle(g, m);
            }
        }
    }

    /// Step 3: checks what is left and gives the colours.
    fn finish(&self, pairs: Vec<(usize, usize)>) -> Result<Pairing, NoPairing> {
        let mut paired = vec![false; self.n];
        for &(a, b) in &pairs {
            paired[a] = true;
            paired[b] = true;
        }
        let left: Vec<usize> = (0..self.n).filter(|&v| !paired[v]).collect();
        if left.len() > self.n % 2 {
            return Err(NoPairing::Exhausted {
                unpaired: left.len(),
            });
        }
        let bye = match left.first() {
            Some(&v) if self.players[v].entrant.unplayed_win => return Err(NoPairing::NoByeTaker),
            Some(&v) => Some(self.players[v].entrant.id),
            None => None,
        };
        let mut games: Vec<(usize, usize)> = pairs;
        games.sort_by_key(|&(a, b)| a.min(b));
        let games = games
            .into_iter()
            .map(|(a, b)| {
                let (white, black) = colour::allocate(
                    self.players[a].entrant,
                    self.players[b].entrant,
                    self.field.initial,
                );
                (white.id, black.id)
            })
            .collect();
        Ok(Pairing { games, bye })
    }
}

/// The colour criteria of a pair in the bracket, each 1 where the pair
/// meets it: C10 (no colour difference beyond 2 for two players who both
/// need the same colour), C11 (no third colour in a row), C12 (both
/// preferences granted), C13 (strong preferences granted).
fn colour_fields(h: &Preference, l: &Preference) -> (i64, i64, i64, i64) {
    let same = h.side.is_some() && h.side == l.side;
    let strong = i64::from(
        !(same
            && h.strength >= Strength::Strong
            && l.strength >= Strength::Strong
            && !(h.strength == Strength::Absolute && l.strength == Strength::Absolute)),
    );
    let compat = i64::from(!same);
    let absolute = if same && h.strength == Strength::Absolute && l.strength == Strength::Absolute {
        let (hi_imb, lo_imb) = (h.difference.abs(), l.difference.abs());
        if hi_imb == lo_imb {
            i64::from(!(l.repeated.is_some() && l.repeated == h.repeated))
        } else {
            // The one with the smaller imbalance gives way: it must not have
            // played the colour it would now get in each of its last two
            // games.
            let yielding = if lo_imb > hi_imb {
                h.repeated
            } else {
                l.repeated
            };
            let gets = l.side.map(Side::opposite);
            i64::from(!(yielding.is_some() && yielding == gets))
        }
    } else {
        1
    };
    let imbalance = i64::from(!(same && h.difference.abs() >= 2 && l.difference.abs() >= 2));
    (imbalance, absolute, compat, strong)
}
