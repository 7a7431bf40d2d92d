//! Our own moves, written beside Betza in a piece's table: what Betza
//! cannot say and our games need.
//!
//! - `leaps = ["4,0", "4,1"]`: leaps of any length, each as files and ranks
//!   with all its mirror images (Super Chess's Prince and Super Knight
//!   leap four squares, which no Betza atom does).
//! - `paths = ["3F W"]`: lame paths of several legs. Each leg is an atom with
//!   an optional count of steps in one line (`3F`: three diagonal steps);
//!   every way of turning between legs is a path, and every square before
//!   the last must be empty (Super Chess's Archbishop: three squares
//!   diagonally, then one straight).
//! - `walk = "K"`: a two-step walker (the Minister): one step of the atom,
//!   then, if that square was free, a second from it to any square but the
//!   start; a capture ends the move.

use crate::betza;
use crate::movement::{Component, Vector};

/// The most paths one piece's `paths` may make.
pub const MAX_PATHS: usize = 128;
/// The most steps in one path.
pub const MAX_STEPS: usize = 8;
/// The most leaps one piece's `leaps` may name.
pub const MAX_LEAPS: usize = 16;

/// `leaps`: each `"F,R"` with all its mirror images.
pub fn leaps(items: &[&str]) -> Result<Component, String> {
    if items.is_empty() || items.len() > MAX_LEAPS {
        return Err(format!("1 to {MAX_LEAPS} leaps, like [\"4,0\", \"4,1\"]"));
    }
    let mut out: Vec<Vector> = Vec::new();
    for item in items {
        let parsed = item.split_once(',').and_then(|(f, r)| {
            let f = f.trim().parse::<i8>().ok()?;
            let r = r.trim().parse::<i8>().ok()?;
            ((f, r) != (0, 0) && f.abs() <= 15 && r.abs() <= 15).then_some((f, r))
        });
        let Some(leap) = parsed else {
            return Err(format!(
                "`{item}`: a leap is files and ranks, each -15 to 15 and not both 0, like \"4,1\""
            ));
        };
        for v in betza::directions(leap) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    Ok(Component::Leap(out))
}

/// The single-step directions of one atom letter (`W`, `F`, `K`, ...).
fn atom_steps(letter: &str) -> Result<Vec<Vector>, String> {
    match betza::parse(letter).as_deref() {
        Ok([Component::Leap(vs)]) => Ok(vs.clone()),
        _ => Err(format!(
            "`{letter}`: a leg is one atom (W F D N A H C Z G, or K), with a count before it"
        )),
    }
}

/// `paths`: each string's legs, every way of turning between them.
pub fn paths(items: &[&str]) -> Result<Component, String> {
    if items.is_empty() {
        return Err("at least one path, like \"3F W\"".into());
    }
    let mut out: Vec<Vec<Vector>> = Vec::new();
    for item in items {
        let mut legs: Vec<(usize, Vec<Vector>)> = Vec::new();
        for leg in item.split_whitespace() {
            let digits: String = leg.chars().take_while(char::is_ascii_digit).collect();
            let count = if digits.is_empty() {
                1
            } else {
                match digits.parse::<usize>() {
                    Ok(n) if (1..=MAX_STEPS).contains(&n) => n,
                    _ => return Err(format!("`{leg}`: a leg of 1 to {MAX_STEPS} steps")),
                }
            };
            legs.push((count, atom_steps(&leg[digits.len()..])?));
        }
        let steps: usize = legs.iter().map(|(n, _)| n).sum();
        if legs.is_empty() || steps > MAX_STEPS {
            return Err(format!(
                "`{item}`: a path is 1 to {MAX_STEPS} steps in legs, like \"3F W\""
            ));
        }
        let mut made: Vec<Vec<Vector>> = vec![Vec::new()];
        for (count, dirs) in &legs {
            let mut next = Vec::new();
            for path in &made {
                for &d in dirs {
                    let mut p = path.clone();
                    p.extend(std::iter::repeat_n(d, *count));
                    next.push(p);
                }
            }
            made = next;
            if made.len() + out.len() > MAX_PATHS {
                return Err(format!("too many paths: at most {MAX_PATHS} for a piece"));
            }
        }
        for p in made {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    Ok(Component::Path(out))
}

/// `walk`: a two-step walker over the atom's steps.
pub fn walk(text: &str) -> Result<Component, String> {
    let steps = atom_steps(text.trim())?;
    if steps.iter().any(|&(f, r)| f.abs() > 1 || r.abs() > 1) {
        return Err(format!(
            "`{text}`: a walker steps one square at a time: `W`, `F` or `K`"
        ));
    }
    Ok(Component::TwoStep { steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{DIAGONAL, ORTHOGONAL};

    #[test]
    fn super_chess_archbishop_is_three_diagonal_steps_then_one_straight() {
        let Component::Path(paths) = paths(&["3F W"]).unwrap() else {
            panic!()
        };
        assert_eq!(paths.len(), 16);
        for d in DIAGONAL {
            for o in ORTHOGONAL {
                assert!(paths.contains(&vec![d, d, d, o]));
            }
        }
    }

    #[test]
    fn long_leaps_take_every_mirror_image() {
        let Component::Leap(vs) = leaps(&["4,1"]).unwrap() else {
            panic!()
        };
        assert_eq!(vs.len(), 8);
        assert!(vs.contains(&(-1, -4)));
        let Component::Leap(vs) = leaps(&["4,0", "4,4"]).unwrap() else {
            panic!()
        };
        assert_eq!(vs.len(), 8);
    }

    #[test]
    fn the_minister_walks_two_king_steps() {
        let Component::TwoStep { steps } = walk("K").unwrap() else {
            panic!()
        };
        assert_eq!(steps.len(), 8);
    }

    #[test]
    fn bad_legs_are_refused_by_name() {
        for (result, says) in [
            (leaps(&["0,0"]), "not both 0"),
            (leaps(&["4"]), "files and ranks"),
            (leaps(&["99,1"]), "-15 to 15"),
            (leaps(&[]), "1 to 16"),
            (paths(&["3X"]), "one atom"),
            (paths(&["9W"]), "1 to 8 steps"),
            (paths(&["4W 4W 1W"]), "1 to 8 steps"),
            (paths(&[""]), "1 to 8 steps"),
            (paths(&["K K K"]), "too many paths"),
            (paths(&["日本"]), "one atom"),
            (walk("N"), "one square"),
            (walk("R"), "one atom"),
        ] {
            let e = result.unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }
}
