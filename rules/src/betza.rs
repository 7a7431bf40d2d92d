//! Betza's notation for how fairy pieces move, as variant inventors write
//! it (Fairy-Stockfish's `variants.ini` does too), read into our movement
//! [`Component`]s.
//!
//! What is read: the atoms `W F D N A H C Z G` (one leap each, in every
//! direction), the shorthands `K` (= `WF`), `R` (= `WW`), `B` (= `FF`) and
//! `Q` (= `RB`); an atom written twice is a rider (`WW`, `NN`, the
//! nightrider), an atom or shorthand followed by a number rides at most that
//! far (`W3`, `R4`, `Q2`); atoms written one after another are one piece
//! with all their moves (`BN`, the archbishop). The lame modifier `n` makes
//! a leap stop at a blocker on its way: `nN` (the xiangqi horse), `nD`,
//! `nA` (the elephant).
//!
//! Direction modifiers, seen from White's side (Black's pieces move as the
//! mirror image): `f` forward, `b` backward, `l` left, `r` right, `v`
//! vertical, `s` sideways, and the diagonal pairs `fl fr bl br` (`FfW`, the
//! makruk khon: a ferz that also steps straight forward).
//!
//! Move- and capture-only parts (`m`, `c`: `mNcK` moves as a knight and
//! captures as a king) and hoppers: `p` passes over empty squares to the
//! first piece on its line, jumps it, and lands on any empty square beyond
//! or captures the first enemy there (`pR`, the cannon's way; the xiangqi
//! cannon is `mRcpR`); `g` lands just past the piece it jumps (`gQ`, the
//! grasshopper). A hopper's atom must ride without limit.
//!
//! What is refused, by name: initial moves (`i`), jumping modifiers (`j`)
//! and any other letter. Our own moves that Betza cannot say (the Minister's
//! two steps, Super Chess's long paths) are written beside it in a
//! definition (see `defined`).

use crate::movement::{Component, Landing, Only, Vector};
use std::fmt;

/// Why a Betza string does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError(pub String);

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BetzaError {}

/// The longest Betza string read.
pub const MAX_BETZA: usize = 64;

/// One leap of each atom, in its first octant.
fn atom(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// The atoms a shorthand stands for, and whether it rides.
fn shorthand(letter: char) -> Option<(&'static [char], bool)> {
    Some(match letter {
        'K' => (&['W', 'F'], false),
        'R' => (&['W'], true),
        'B' => (&['F'], true),
        'Q' => (&['W', 'F'], true),
        _ => return None,
    })
}

/// Every direction of a leap `(a, b)`: its signs and its mirror.
pub fn directions((a, b): (i8, i8)) -> Vec<Vector> {
    let mut out: Vec<Vector> = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (x * sx, y * sy);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The lame paths of `nX`: each leap's steps, every square before the last
/// to be empty.
fn lame(letter: char) -> Result<Vec<Vec<Vector>>, BetzaError> {
    let sign = |v: i8| v.signum();
    Ok(match letter {
        // Two steps of a wazir, or of a ferz, in one line.
        'D' | 'A' => {
            let (a, b) = atom(letter).expect("an atom");
            directions((a, b))
                .into_iter()
                .map(|(x, y)| vec![(sign(x), sign(y)), (x, y)])
                .collect()
        }
        // The horse: one step straight, then one diagonally outwards.
        'N' => directions((2, 1))
            .into_iter()
            .map(|(x, y)| {
                let first = if x.abs() == 2 {
                    (sign(x), 0)
                } else {
                    (0, sign(y))
                };
                vec![first, (x, y)]
            })
            .collect(),
        other => {
            return Err(BetzaError(format!(
                "`n{other}`: only `nD`, `nN` and `nA` can be lame"
            )))
        }
    })
}

/// The directions of `dirs` that the modifiers `groups` allow (all of them
/// without modifiers), seen from White's side: `f` forward, `b` backward,
/// `l` left, `r` right, `v` vertical (more along the file than across),
/// `s` sideways (more across than along); a pair `fl` is one diagonal.
fn along(dirs: Vec<Vector>, groups: &[Vec<char>]) -> Vec<Vector> {
    if groups.is_empty() {
        return dirs;
    }
    let one = |c: char, (x, y): Vector| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => y.abs() > x.abs() || x == 0,
        's' => x.abs() > y.abs() || y == 0,
        _ => false,
    };
    dirs.into_iter()
        .filter(|&v| groups.iter().any(|g| g.iter().all(|&c| one(c, v))))
        .collect()
}

/// Adds `dirs` to `leaps`, each once.
fn add_leaps(leaps: &mut Vec<Vector>, dirs: Vec<Vector>) {
    for v in dirs {
        if !leaps.contains(&v) {
            leaps.push(v);
        }
    }
}

/// Reads `text` into movement components: its leaps, its rides (by range)
/// and its lame paths.
pub fn parse(text: &str) -> Result<Vec<Component>, BetzaError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(BetzaError(
            "no moves: write at least one atom, like `N` or `WF`".into(),
        ));
    }
    if text.chars().count() > MAX_BETZA {
        return Err(BetzaError(format!(
            "too long: at most {MAX_BETZA} characters"
        )));
    }
    let chars: Vec<char> = text.chars().collect();
    let mut leaps: Vec<Vector> = Vec::new();
    let mut rides: Vec<(Option<u8>, Vec<Vector>)> = Vec::new();
    let mut paths: Vec<Vec<Vector>> = Vec::new();
    let mut i = 0;
    let mut add_ride =
        |range: Option<u8>, dirs: Vec<Vector>| match rides.iter_mut().find(|(r, _)| *r == range) {
            Some((_, d)) => {
                for v in dirs {
                    if !d.contains(&v) {
                        d.push(v);
                    }
                }
            }
            None => rides.push((range, dirs)),
        };
    // Parts of the piece that only move, only capture or hop.
    let mut limited: Vec<Component> = Vec::new();
    while i < chars.len() {
        // Modifiers before an atom: the directions `f`, `b`, `l`, `r`,
        // `s`, `v` and the diagonal pairs `fl`, `fr`, `bl`, `br`; `m` and
        // `c` (move or capture only); `p` and `g` (hoppers).
        let mut groups: Vec<Vec<char>> = Vec::new();
        let (mut moves_only, mut captures_only) = (false, false);
        let mut hop: Option<Landing> = None;
        while i < chars.len() && "fblrsvmcpg".contains(chars[i]) {
            let c = chars[i];
            match (c, chars.get(i + 1)) {
                ('m', _) => moves_only = true,
                ('c', _) => captures_only = true,
                ('p' | 'g', _) if hop.is_some() => {
                    return Err(BetzaError(
                        "one hop modifier per atom: `p` or `g`, not both".into(),
                    ))
                }
                ('p', _) => hop = Some(Landing::Beyond),
                ('g', _) => hop = Some(Landing::Next),
                (_, Some(&d)) if "fb".contains(c) && "lr".contains(d) => {
                    groups.push(vec![c, d]);
                    i += 1;
                }
                _ => groups.push(vec![c]),
            }
            i += 1;
        }
        let only = match (moves_only, captures_only) {
            (true, false) => Some(Only::Moves),
            (false, true) => Some(Only::Captures),
            _ => None,
        };
        let Some(&c) = chars.get(i) else {
            return Err(BetzaError(
                "a modifier must come before an atom, like `fW` or `mR`".into(),
            ));
        };
        let mut lame_next = false;
        if c == 'n' {
            if !groups.is_empty() || only.is_some() || hop.is_some() {
                return Err(BetzaError(
                    "a lame leap takes no other modifier here; write `nN`, `nD` or `nA`".into(),
                ));
            }
            lame_next = true;
            i += 1;
        } else if "ij".contains(c) {
            return Err(BetzaError(format!(
                "the modifier `{c}` (an initial or jumping move) is not read; write the piece without it"
            )));
        }
        let Some(&letter) = chars.get(i) else {
            return Err(BetzaError("`n` must come before an atom, like `nN`".into()));
        };
        i += 1;
        if lame_next {
            paths.extend(lame(letter)?);
            continue;
        }
        // A number after the atom: a rider of that range.
        let digits: String = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        i += digits.len();
        let range = if digits.is_empty() {
            None
        } else {
            match digits.parse::<u8>() {
                Ok(n) if (1..=15).contains(&n) => Some(n),
                _ => {
                    return Err(BetzaError(format!(
                        "`{letter}{digits}`: a range is 1 to 15 squares"
                    )))
                }
            }
        };
        // The atom's leaps and rides, before any `m`, `c`, `p` or `g`.
        let mut parts: Vec<(Option<u8>, bool, Vec<Vector>)> = Vec::new();
        if let Some(a) = atom(letter) {
            // Doubled (`WW`): a rider without limit.
            let doubled = range.is_none() && chars.get(i) == Some(&letter);
            if doubled {
                i += 1;
            }
            let dirs = along(directions(a), &groups);
            match (doubled, range) {
                (true, _) => parts.push((None, true, dirs)),
                (false, Some(1)) | (false, None) => parts.push((None, false, dirs)),
                (false, Some(n)) => parts.push((Some(n), true, dirs)),
            }
        } else if let Some((atoms, rides_far)) = shorthand(letter) {
            for &a in atoms {
                let dirs = along(directions(atom(a).expect("an atom")), &groups);
                match (rides_far, range) {
                    (_, Some(1)) | (false, None) => parts.push((None, false, dirs)),
                    (_, Some(n)) => parts.push((Some(n), true, dirs)),
                    (true, None) => parts.push((None, true, dirs)),
                }
            }
        } else {
            return Err(BetzaError(format!(
                "`{letter}` is no Betza atom: use W F D N A H C Z G, or K R B Q"
            )));
        }
        for (range, rides, dirs) in parts {
            let part = match (hop, rides, range) {
                (None, false, _) if only.is_none() => {
                    add_leaps(&mut leaps, dirs);
                    continue;
                }
                (None, true, _) if only.is_none() => {
                    add_ride(range, dirs);
                    continue;
                }
                (None, false, _) => Component::Leap(dirs),
                (None, true, _) => Component::Ride { dirs, range },
                (Some(landing), true, None) => Component::Hop { dirs, landing },
                (Some(_), _, _) => {
                    return Err(BetzaError(format!(
                        "`{letter}`: a hopper hops along lines without a limit; write `p` or `g` before a rider, like `pR` or `gQ`"
                    )))
                }
            };
            limited.push(match only {
                Some(only) => Component::Only {
                    only,
                    part: Box::new(part),
                },
                None => part,
            });
        }
    }
    let mut out = Vec::new();
    if !leaps.is_empty() {
        out.push(Component::Leap(leaps));
    }
    for (range, dirs) in rides {
        out.push(Component::Ride { dirs, range });
    }
    if !paths.is_empty() {
        out.push(Component::Path(paths));
    }
    out.extend(limited);
    Ok(out)
}

/// One atom's moves in words, and the piece it makes alone.
fn atom_words(letter: char) -> (&'static str, &'static str) {
    match letter {
        'W' => ("one square along a rank or file", "wazir"),
        'F' => ("one square diagonally", "ferz"),
        'D' => ("two squares along a rank or file, jumping", "dabbaba"),
        'N' => ("two squares one way and one the other, jumping", "knight"),
        'A' => ("two squares diagonally, jumping", "alfil"),
        'H' => ("three squares along a rank or file, jumping", "threeleaper"),
        'C' => ("three squares one way and one the other, jumping", "camel"),
        'Z' => ("three squares one way and two the other, jumping", "zebra"),
        'G' => ("three squares diagonally, jumping", "tripper"),
        'K' => ("one square in any direction", "king"),
        'R' => ("along ranks and files", "rook"),
        'B' => ("diagonally", "bishop"),
        'Q' => ("along ranks, files and diagonals", "queen"),
        _ => ("", ""),
    }
}

/// A direction modifier in words.
fn direction_words(group: &[char]) -> &'static str {
    match group {
        ['f'] => "forward",
        ['b'] => "backward",
        ['l'] => "to the left",
        ['r'] => "to the right",
        ['s'] => "sideways",
        ['v'] => "forward or backward",
        ['f', 'l'] => "forward-left",
        ['f', 'r'] => "forward-right",
        ['b', 'l'] => "backward-left",
        ['b', 'r'] => "backward-right",
        _ => "",
    }
}

/// `text`'s moves in words, for help (`BN`: "any distance diagonally, as a
/// bishop; or two squares one way and one the other, jumping, as a
/// knight"). The same reading as [`parse`], so a string that does not
/// parse gives its error.
pub fn describe(text: &str) -> Result<String, BetzaError> {
    parse(text)?;
    let chars: Vec<char> = text.trim().chars().collect();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut groups: Vec<Vec<char>> = Vec::new();
        let mut marks: Vec<char> = Vec::new();
        while i < chars.len() && "fblrsvmcpg".contains(chars[i]) {
            match chars.get(i + 1) {
                _ if "mcpg".contains(chars[i]) => {
                    marks.push(chars[i]);
                    i += 1;
                }
                Some(&d) if "fb".contains(chars[i]) && "lr".contains(d) => {
                    groups.push(vec![chars[i], d]);
                    i += 2;
                }
                _ => {
                    groups.push(vec![chars[i]]);
                    i += 1;
                }
            }
        }
        let lame = chars.get(i) == Some(&'n');
        if lame {
            i += 1;
        }
        let Some(&letter) = chars.get(i) else { break };
        i += 1;
        let digits: String = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        i += digits.len();
        let doubled = digits.is_empty() && atom(letter).is_some() && chars.get(i) == Some(&letter);
        if doubled {
            i += 1;
        }
        let (how, name) = atom_words(letter);
        let rider = shorthand(letter).is_some_and(|(_, far)| far);
        let mut phrase = match (rider, digits.parse::<u8>().ok(), doubled) {
            (true, None, _) => format!("any distance {how}, as a {name}"),
            (true, Some(n), _) => format!("up to {n} squares {how}"),
            (false, Some(n), _) if n > 1 => {
                format!("{how}, repeated in a line up to {n} times")
            }
            (false, _, true) => format!("{how}, repeated in a line (a {name}rider)"),
            (false, _, false) => format!("{how}, as a {name}"),
        };
        if lame {
            phrase = format!("{phrase}, but blocked by a piece on the way");
        }
        if marks.contains(&'p') {
            phrase = format!(
                "{phrase}, but only by hopping over a piece on the way and landing anywhere past it"
            );
        } else if marks.contains(&'g') {
            phrase = format!("{phrase}, but only by hopping over a piece and landing just past it");
        }
        match (marks.contains(&'m'), marks.contains(&'c')) {
            (true, false) => phrase = format!("{phrase}, to an empty square only (no capture)"),
            (false, true) => phrase = format!("{phrase}, only to capture"),
            _ => {}
        }
        if !groups.is_empty() {
            let dirs: Vec<&str> = groups.iter().map(|g| direction_words(g)).collect();
            phrase = format!("{phrase}, {} only", dirs.join(" or "));
        }
        parts.push(phrase);
    }
    Ok(parts.join("; or "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{DIAGONAL, KNIGHT, ORTHOGONAL};

    fn sorted(mut v: Vec<Vector>) -> Vec<Vector> {
        v.sort();
        v
    }

    #[test]
    fn the_classic_pieces_read_as_their_moves() {
        // The knight: eight leaps.
        let n = parse("N").unwrap();
        assert_eq!(n.len(), 1);
        let Component::Leap(ls) = &n[0] else {
            panic!("{n:?}")
        };
        assert_eq!(sorted(ls.clone()), sorted(KNIGHT.to_vec()));
        // The rook, as `R` and as `WW`.
        for r in ["R", "WW"] {
            let c = parse(r).unwrap();
            assert_eq!(
                c,
                vec![Component::Ride {
                    dirs: ORTHOGONAL.to_vec(),
                    range: None
                }],
                "{r}"
            );
        }
        // The queen: both rides in one.
        let Component::Ride { dirs, range } = &parse("Q").unwrap()[0] else {
            panic!()
        };
        assert_eq!(*range, None);
        assert_eq!(
            sorted(dirs.clone()),
            sorted(ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect())
        );
        // The king: eight steps; the archbishop: bishop and knight.
        let Component::Leap(k) = &parse("K").unwrap()[0] else {
            panic!()
        };
        assert_eq!(k.len(), 8);
        let bn = parse("BN").unwrap();
        assert_eq!(bn.len(), 2, "{bn:?}");
        // A limited rider and a nightrider.
        assert_eq!(
            parse("W3").unwrap(),
            vec![Component::Ride {
                dirs: ORTHOGONAL.to_vec(),
                range: Some(3)
            }]
        );
        let Component::Ride { dirs, range: None } = &parse("NN").unwrap()[0] else {
            panic!()
        };
        assert_eq!(dirs.len(), 8);
    }

    #[test]
    fn directions_are_read_from_whites_side() {
        let leaps = |t: &str| match &parse(t).unwrap()[..] {
            [Component::Leap(v)] => sorted(v.clone()),
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(leaps("fW"), vec![(0, 1)]);
        assert_eq!(leaps("bW"), vec![(0, -1)]);
        assert_eq!(leaps("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(leaps("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(leaps("flF"), vec![(-1, 1)]);
        assert_eq!(leaps("fN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        // The khon: a ferz and a step forward.
        assert_eq!(
            leaps("FfW"),
            vec![(-1, -1), (-1, 1), (0, 1), (1, -1), (1, 1)]
        );
        // A forward rook: a rider up the file only.
        assert_eq!(
            parse("fR").unwrap(),
            vec![Component::Ride {
                dirs: vec![(0, 1)],
                range: None
            }]
        );
    }

    #[test]
    fn lame_leaps_are_paths() {
        let horse = parse("nN").unwrap();
        let Component::Path(paths) = &horse[0] else {
            panic!("{horse:?}")
        };
        assert_eq!(paths.len(), 8);
        assert!(paths.contains(&vec![(1, 0), (2, 1)]));
        assert!(paths.contains(&vec![(0, -1), (-1, -2)]));
        let elephant = parse("nA").unwrap();
        let Component::Path(paths) = &elephant[0] else {
            panic!()
        };
        assert!(paths.contains(&vec![(1, 1), (2, 2)]));
    }

    #[test]
    fn move_only_capture_only_and_hoppers() {
        // The xiangqi cannon: moves as a rook, captures by hopping.
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.len(), 2);
        let Component::Only {
            only: Only::Moves,
            part,
        } = &cannon[0]
        else {
            panic!("{cannon:?}")
        };
        assert!(matches!(&**part, Component::Ride { range: None, dirs } if dirs.len() == 4));
        let Component::Only {
            only: Only::Captures,
            part,
        } = &cannon[1]
        else {
            panic!("{cannon:?}")
        };
        assert!(matches!(
            &**part,
            Component::Hop { landing: Landing::Beyond, dirs } if dirs.len() == 4
        ));
        // The grasshopper: eight lines, landing just past the screen.
        let grasshopper = parse("gQ").unwrap();
        let mut lines = 0;
        for c in &grasshopper {
            let Component::Hop {
                landing: Landing::Next,
                dirs,
            } = c
            else {
                panic!("{grasshopper:?}")
            };
            lines += dirs.len();
        }
        assert_eq!(lines, 8);
        // `m` and `c` together are neither: a plain knight.
        assert_eq!(parse("mcN").unwrap(), parse("N").unwrap());
        // A forward-only move, a capture-only king step.
        let piece = parse("mfWcK").unwrap();
        let Component::Only { part, .. } = &piece[0] else {
            panic!("{piece:?}")
        };
        assert_eq!(**part, Component::Leap(vec![(0, 1)]));
        assert!(describe("mRcpR").unwrap().contains("only to capture"));
        assert!(describe("gQ").unwrap().contains("just past"));
        assert!(describe("mN").unwrap().contains("no capture"));
    }

    #[test]
    fn what_is_not_read_is_refused_by_name() {
        for (text, says) in [
            ("iW", "initial"),
            ("f", "must come before an atom"),
            ("fnN", "lame leap takes no other modifier"),
            ("mnN", "lame leap takes no other modifier"),
            ("pN", "hopper"),
            ("pR3", "hopper"),
            ("pgR", "one hop modifier"),
            ("X", "no Betza atom"),
            ("", "no moves"),
            ("n", "`n` must come before"),
            ("nW", "can be lame"),
            ("W99", "1 to 15"),
            ("W0", "1 to 15"),
        ] {
            let e = parse(text).unwrap_err().0;
            assert!(e.contains(says), "{text}: {e}");
        }
        assert!(parse(&"W".repeat(65)).is_err());
        // Odd input never panics.
        for text in [
            "ñ",
            "N日本",
            "WWWW",
            "Q15",
            "K1",
            "nNnN",
            "🙂",
            "W9999999999999",
        ] {
            let _ = parse(text);
        }
    }

    /// The words for a piece's moves say each part of it, in order.
    #[test]
    fn moves_are_described_in_words() {
        assert_eq!(
            describe("BN").unwrap(),
            "any distance diagonally, as a bishop; or two squares one way and one the other, jumping, as a knight"
        );
        assert_eq!(
            describe("K").unwrap(),
            "one square in any direction, as a king"
        );
        assert_eq!(
            describe("R4").unwrap(),
            "up to 4 squares along ranks and files"
        );
        assert_eq!(
            describe("NN").unwrap(),
            "two squares one way and one the other, jumping, repeated in a line (a knightrider)"
        );
        assert_eq!(
            describe("nN").unwrap(),
            "two squares one way and one the other, jumping, as a knight, but blocked by a piece on the way"
        );
        assert_eq!(
            describe("FfW").unwrap(),
            "one square diagonally, as a ferz; or one square along a rank or file, as a wazir, forward only"
        );
        assert!(describe("iR").is_err());
        assert!(describe("").is_err());
    }
}
