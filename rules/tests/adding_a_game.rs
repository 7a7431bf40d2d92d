//! `docs/adding-a-game.md` stays true: every per-game table in the
//! workspace is either a `ByKind` (sized by the list of games, so a new
//! game does not compile until it has its value) or an exhaustive `match`
//! over `GameKind` that the guide names. No table is indexed by hand, and no
//! per-game match hides a game behind `_`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every Rust source of the workspace's crates (their `src`, `tests`,
/// `benches` and `examples`), with its text; a source file's unit tests
/// (`#[cfg(test)]` onwards) are left out: they assert, they are not tables.
fn sources() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for krate in ["rules", "engine", "render", "game", "bot"] {
        for part in ["src", "tests", "benches", "examples"] {
            let mut stack = vec![workspace().join(krate).join(part)];
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries {
                    let path = entry.unwrap().path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|e| e == "rs") {
                        let text = std::fs::read_to_string(&path).unwrap();
                        let text = match (part, text.find("#[cfg(test)]")) {
                            ("src", Some(at)) => text[..at].to_string(),
                            _ => text,
                        };
                        let rel = path.strip_prefix(workspace()).unwrap().to_path_buf();
                        out.push((rel, text));
                    }
                }
            }
        }
    }
    out
}

/// Where a line stands: the function it is in, or, for a trait's method
/// (`from`, `fmt`), the type the trait is implemented for.
fn owner(lines: &[&str], at: usize) -> String {
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for i in (0..=at).rev() {
        let l = lines[i].trim_start();
        let Some(pos) = l.find("fn ") else { continue };
        let before = &l[..pos];
        if !before.is_empty() && !before.ends_with(' ') {
            continue;
        }
        let name = word(&l[pos + 3..]);
        if name.is_empty() {
            continue;
        }
        if !["from", "fmt", "try_from", "default"].contains(&name.as_str()) {
            return name;
        }
        for j in (0..i).rev() {
            let l = lines[j].trim_start();
            if let Some(rest) = l.strip_prefix("impl") {
                if let Some(f) = rest.find(" for ") {
                    return word(&rest[f + 5..]);
                }
            }
        }
        return name;
    }
    String::new()
}

/// The per-game matches: owner -> (file, the games its patterns name, a
/// `_` arm among them).
fn per_game_matches() -> BTreeMap<String, (PathBuf, usize, bool)> {
    let mut out: BTreeMap<String, (PathBuf, usize, bool)> = BTreeMap::new();
    for (path, text) in sources() {
        let code: Vec<String> = text
            .lines()
            .map(|l| match l.find("//") {
                Some(at) => l[..at].to_string(),
                None => l.to_string(),
            })
            .collect();
        let lines: Vec<&str> = code.iter().map(String::as_str).collect();
        // A pattern line: `GameKind::X`, `| GameKind::X`, `Some(GameKind::X)`
        // at its start, and its arm's `=>` on it or a following line of the
        // same pattern.
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].trim_start().trim_start_matches("| ");
            let starts = t.starts_with("GameKind::") || t.starts_with("Some(GameKind::");
            if !starts {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < lines.len() && !lines[j].contains("=>") {
                let next = lines.get(j + 1).map_or("", |l| l.trim_start());
                if !next.starts_with('|') {
                    break;
                }
                j += 1;
            }
            if lines.get(j).is_some_and(|l| l.contains("=>")) {
                let named = (i..=j)
                    .map(|k| lines[k].matches("GameKind::").count())
                    .sum::<usize>();
                let entry = out
                    .entry(owner(&lines, i))
                    .or_insert((path.clone(), 0, false));
                entry.1 += named;
                // A `_` arm in the same match: the next arms down to the
                // match's end at this arm's indent.
                let indent = lines[i].len() - lines[i].trim_start().len();
                for l in &lines[j + 1..] {
                    let lt = l.trim_start();
                    let li = l.len() - lt.len();
                    if li < indent && !lt.is_empty() {
                        break;
                    }
                    if li == indent && (lt.starts_with("_ =>") || lt.starts_with("None | _")) {
                        entry.2 = true;
                    }
                }
            }
            i = j + 1;
        }
    }
    // One arm alone is a test of one game, not a table.
    out.retain(|_, (_, named, _)| *named >= 2);
    out
}

#[test]
fn the_guide_names_every_per_game_match() {
    let guide = std::fs::read_to_string(workspace().join("docs/adding-a-game.md")).unwrap();
    let matches = per_game_matches();
    assert!(
        matches.contains_key("name") && matches.contains_key("coefficient"),
        "the reader found too little: {matches:?}"
    );
    let mut missing = Vec::new();
    let mut wildcards = Vec::new();
    for (owner, (path, _, wildcard)) in &matches {
        // Named alone (`coefficient`) or with its type or module
        // (`Weights::start`).
        let named = guide.contains(&format!("`{owner}`")) || guide.contains(&format!("::{owner}`"));
        if !named {
            missing.push(format!("`{owner}` ({})", path.display()));
        }
        if *wildcard {
            wildcards.push(format!("`{owner}` ({})", path.display()));
        }
    }
    assert!(
        missing.is_empty(),
        "per-game matches the guide does not name:\n{}",
        missing.join("\n")
    );
    assert!(
        wildcards.is_empty(),
        "per-game matches with a `_` arm (a new game would pass unseen):\n{}",
        wildcards.join("\n")
    );
}

#[test]
fn no_table_is_indexed_by_hand() {
    let mut wrong = Vec::new();
    for (path, text) in sources() {
        if path.ends_with("rules/src/game.rs") || path.ends_with("tests/adding_a_game.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let sized = code.contains("GameKind::COUNT") && !code.contains("ByKind");
            let indexed = code.contains("kind.index()") || code.contains("k.index() +");
            if sized || indexed {
                wrong.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "tables sized or indexed by hand (use a ByKind):\n{}",
        wrong.join("\n")
    );
}
