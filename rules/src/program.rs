//! Reprogrammed pieces (Super Chess 16x16): a side's own movement for some
//! roles of the roster, written by the players.
//!
//! A program lists, per piece, vectors with a way of moving:
//!
//! ```text
//! N: jump 2,1 2,-1 1,2 1,-2; R: slide 1,0 -1,0 step 0,2 0,-2
//! ```
//!
//! A vector is `rank,file` from its owner's side: the rank counts towards
//! the opponent, the file towards the p-file for both sides (the set-up
//! mirrors the ranks, so one program gives both sides mirror-image moves).
//! - `step`: exactly that far; on a straight line (orthogonal or diagonal)
//!   every square on the way must be empty, like a king's or a rook's
//!   shorter move. Off the lines there is nothing between, as for a knight.
//! - `slide`: the vector again and again over empty squares, like a rook
//!   (`slide 1,0`); squares between two repetitions are not looked at, as
//!   with a nightrider (`slide 2,1`).
//! - `jump`: exactly that far, whatever stands between.
//!
//! Every vector may capture where it lands. A programmed pawn moves and
//! captures by its program only (no double step, no en passant) and still
//! promotes on the last rank. Pieces a program does not name keep their
//! moves. The bot stores a program in its canonical text ([`Program`]'s
//! `Display`), which parses back to the same program.

use crate::movement::Vector;
use crate::{Role, Rules, Square};
use std::fmt;

/// How a programmed vector is used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reach {
    Step,
    Slide,
    Jump,
}

impl Reach {
    const ALL: [Reach; 3] = [Reach::Step, Reach::Slide, Reach::Jump];

    pub fn word(self) -> &'static str {
        match self {
            Reach::Step => "step",
            Reach::Slide => "slide",
            Reach::Jump => "jump",
        }
    }
}

/// One programmed way to move: a `(file, rank)` vector from the owner's
/// side (rank positive towards the opponent) and how it is used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Way {
    pub reach: Reach,
    pub vector: Vector,
}

/// A side's program: new movement for some roles, the others unchanged.
/// The empty program is the default mode.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    /// Sorted by role, each role once with its letter, its ways sorted and
    /// without repeats.
    entries: Vec<(Role, char, Vec<Way>)>,
}

/// The most squares a programmed piece may reach from one square of an
/// empty board (promotions of a pawn count once per promotion piece). With
/// at most 36 pieces a side this keeps every position's move list within
/// [`crate::MAX_MOVES`]; a queen reaches at most 60.
pub const MAX_REACH: usize = 112;

/// Largest component of a vector: across the whole 16x16 board.
const MAX_COMPONENT: i8 = 15;

/// Why a program text was refused, in words a player reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramError(pub String);

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProgramError {}

fn refuse<T>(msg: String) -> Result<T, ProgramError> {
    Err(ProgramError(msg))
}

impl Program {
    /// The default mode: nothing reprogrammed.
    pub fn none() -> Program {
        Program::default()
    }

    pub fn is_default(&self) -> bool {
        self.entries.is_empty()
    }

    /// The programmed ways of `role`, if it is programmed.
    pub fn ways(&self, role: Role) -> Option<&[Way]> {
        self.entries
            .iter()
            .find(|(r, _, _)| *r == role)
            .map(|(_, _, w)| w.as_slice())
    }

    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        self.entries.iter().map(|(r, _, _)| *r)
    }

    /// Reads a program for `rules`' roster. `default` (or nothing) is the
    /// empty program; `N: default` leaves the knight as it is.
    pub fn parse(rules: &Rules, text: &str) -> Result<Program, ProgramError> {
        let mut entries: Vec<(Role, char, Vec<Way>)> = Vec::new();
        let mut seen: Vec<Role> = Vec::new();
        for entry in entries_of(text) {
            let entry = entry.as_str();
            let entry = entry.trim();
            if entry.is_empty() || entry.eq_ignore_ascii_case("default") {
                continue;
            }
            let Some((name, body)) = entry.split_once(':') else {
                return refuse(format!(
                    "'{entry}' names no piece: start each part with the piece and a colon, like `N: jump 2,1`"
                ));
            };
            let role = role_named(rules, name.trim())?;
            if seen.contains(&role) {
                return refuse(format!(
                    "the {role} is programmed twice; give each piece once"
                ));
            }
            seen.push(role);
            let body = body.trim();
            if body.eq_ignore_ascii_case("default") {
                continue;
            }
            let ways = parse_ways(role, body)?;
            check_reach(rules, role, &ways)?;
            let letter = rules.letter(role).unwrap_or('?');
            entries.push((role, letter, ways));
        }
        entries.sort_by_key(|(r, _, _)| *r);
        Ok(Program { entries })
    }
}

/// The parts of a program: split at `;`, line ends, and before a word
/// ending in a colon (`N: jump 2,1 R: slide 1,0` on one line, as chat
/// platforms that join lines send it; `super knight:` stays whole).
fn entries_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in text.split([';', '\n']) {
        let mut current: Vec<&str> = Vec::new();
        for word in part.split_whitespace() {
            if word.len() > 1 && word.ends_with(':') && !current.is_empty() {
                let carry = current
                    .last()
                    .filter(|w| w.eq_ignore_ascii_case("super"))
                    .copied();
                if carry.is_some() {
                    current.pop();
                }
                if !current.is_empty() {
                    out.push(current.join(" "));
                }
                current = carry.into_iter().collect();
            }
            current.push(word);
        }
        out.push(current.join(" "));
    }
    out
}

/// A roster role by its letter (`N`, either case) or name (`knight`,
/// `super knight`).
fn role_named(rules: &Rules, name: &str) -> Result<Role, ProgramError> {
    let roster = || {
        rules
            .roster()
            .filter_map(|r| rules.letter(r).map(|l| format!("{l} ({r})")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut chars = name.chars();
    let by_letter = match (chars.next(), chars.next()) {
        (Some(c), None) => rules.role_for_letter(c),
        _ => None,
    };
    let wanted: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    let role = by_letter.or_else(|| {
        rules.roster().find(|r| {
            r.name().replace(' ', "") == wanted
                || (wanted == "programmable" && *r == Role::Programmable)
        })
    });
    match role {
        Some(r) if rules.roster().any(|x| x == r) => Ok(r),
        _ => refuse(format!(
            "'{name}' is not a piece of this game; the pieces are {}",
            roster()
        )),
    }
}

fn parse_ways(role: Role, body: &str) -> Result<Vec<Way>, ProgramError> {
    let mut ways = Vec::new();
    let mut reach = None;
    for word in body.split_whitespace() {
        if let Some(r) = Reach::ALL.into_iter().find(|r| {
            r.word().eq_ignore_ascii_case(word)
                || format!("{}s", r.word()).eq_ignore_ascii_case(word)
        }) {
            reach = Some(r);
            continue;
        }
        let vector = parse_vector(word).ok_or_else(|| {
            ProgramError(if word.chars().any(|c| c.is_ascii_digit()) {
                format!("'{word}' is not a vector: write rank,file with whole numbers, like 2,1 or -1,0")
            } else {
                format!("'{word}' is not a way to move: use step, slide or jump")
            })
        })?;
        let Some(reach) = reach else {
            return refuse(format!(
                "for the {role}, say how it moves before the vectors: `step`, `slide` or `jump`, then vectors like 2,1"
            ));
        };
        let (file, rank) = vector;
        if file == 0 && rank == 0 {
            return refuse(format!("the {role}'s vector 0,0 goes nowhere"));
        }
        let limit = i64::from(MAX_COMPONENT);
        if file.abs() > limit || rank.abs() > limit {
            return refuse(format!(
                "the {role}'s vector {word} leaves the board: at most {MAX_COMPONENT} squares each way"
            ));
        }
        // Both parts are within ±MAX_COMPONENT, so they fit an i8.
        let vector = (file as i8, rank as i8);
        let way = Way { reach, vector };
        if !ways.contains(&way) {
            ways.push(way);
        }
    }
    if ways.is_empty() {
        return refuse(format!(
            "the {role} has no vectors: give some, like `{}: step 1,0`, or `default` to keep its moves",
            role.name()
        ));
    }
    ways.sort_by_key(|w| (w.reach, w.vector.1, w.vector.0));
    Ok(ways)
}

/// `rank,file` (also `(rank,file)`) as a `(file, rank)` pair of whole
/// numbers, however large (the caller says when one is out of range).
fn parse_vector(word: &str) -> Option<(i64, i64)> {
    let inner = word.trim_start_matches('(').trim_end_matches([')', ',']);
    let (r, f) = inner.split_once(',')?;
    Some((whole_number(f.trim())?, whole_number(r.trim())?))
}

/// An optionally signed run of digits; one too long for an `i64` counts as
/// the largest number of its sign, which no board allows anyway.
fn whole_number(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix(['-', '+']) {
        Some(rest) => (text.starts_with('-'), rest),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -n } else { n })
}

/// Refuses ways that reach too many squares (see [`MAX_REACH`]).
fn check_reach(rules: &Rules, role: Role, ways: &[Way]) -> Result<(), ProgramError> {
    let size = rules.size();
    let promo = rules.promotion_roles().len().max(1);
    let mut worst = (0, Square::new(0, 0));
    for from in size.squares() {
        let mut targets = std::collections::HashSet::new();
        for w in ways {
            let mut k = 1;
            loop {
                let f = from.file() as i16 + w.vector.0 as i16 * k;
                let r = from.rank() as i16 + w.vector.1 as i16 * k;
                if f < 0 || r < 0 || f >= size.files() as i16 || r >= size.ranks() as i16 {
                    break;
                }
                targets.insert(Square::new(f as u8, r as u8));
                if w.reach != Reach::Slide {
                    break;
                }
                k += 1;
            }
        }
        let last = size.ranks() - 1;
        let count: usize = targets
            .iter()
            .map(|t| {
                if role == Role::Pawn && t.rank() == last {
                    promo
                } else {
                    1
                }
            })
            .sum();
        if count > worst.0 {
            worst = (count, from);
        }
    }
    if worst.0 > MAX_REACH {
        return refuse(format!(
            "the {role} would reach {} squares from {} on an empty board; at most {MAX_REACH} (a queen reaches 60)",
            worst.0, worst.1
        ));
    }
    Ok(())
}

impl fmt::Display for Way {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.vector.1, self.vector.0)
    }
}

/// The canonical text: `N: jump 1,2 2,1; R: slide 0,1 1,0`, or `default`.
impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entries.is_empty() {
            return f.write_str("default");
        }
        for (i, (_, letter, ways)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{letter}:")?;
            let mut last = None;
            for w in ways {
                if last != Some(w.reach) {
                    write!(f, " {}", w.reach.word())?;
                    last = Some(w.reach);
                }
                write!(f, " {w}")?;
            }
        }
        Ok(())
    }
}
