//! The game core's modules keep the layers `docs/architecture.md` draws:
//! every module is in one layer, and imports and calls (the core's own
//! methods, `impl Core` and `impl Ctx`, included) only modules of lower
//! layers. The table is read from the page itself, so the page stays true.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The layers as the page's table says: module -> layer.
fn layers() -> BTreeMap<String, u32> {
    let page = std::fs::read_to_string(root().join("../docs/architecture.md"))
        .expect("docs/architecture.md is there");
    let mut out = BTreeMap::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(layer), Some(modules)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let Ok(layer) = layer.parse::<u32>() else {
            continue;
        };
        for module in modules.split(',') {
            let name = module.trim().trim_matches('`').to_string();
            assert!(
                out.insert(name.clone(), layer).is_none(),
                "`{name}` is in two layers of the table"
            );
        }
    }
    assert!(out.len() > 10, "the table of layers was not found");
    out
}

/// Every source file of `game/src`, by its top-level module (`store` for
/// `store/games.rs`), with its text before any `#[cfg(test)]` and without
/// comments.
fn modules() -> BTreeMap<String, Vec<(PathBuf, String)>> {
    let src = root().join("src");
    let mut out: BTreeMap<String, Vec<(PathBuf, String)>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel.components().next().unwrap().as_os_str();
            let module = first.to_string_lossy().trim_end_matches(".rs").to_string();
            if module == "lib" || module == "tests" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(at) => &text[..at],
                None => &text[..],
            };
            let code: String = code
                .lines()
                .map(|l| match l.find("//") {
                    Some(at) => &l[..at],
                    None => l,
                })
                .collect::<Vec<_>>()
                .join("\n");
            out.entry(module)
                .or_default()
                .push((rel.to_path_buf(), code));
        }
    }
    out
}

/// The names that follow `crate::` in `code` (in paths and in `use crate::{a, b}`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The names at the group's top level (`{store::{self, Tx}, lease}`).
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.insert(first_word(group[start..i].trim()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(first_word(group[start..i].trim()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(first_word(rest));
        }
    }
    out.remove("");
    out
}

fn first_word(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The methods each module defines on `Core` or `Ctx`.
fn methods(modules: &BTreeMap<String, Vec<(PathBuf, String)>>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (module, files) in modules {
        for (_, code) in files {
            let mut depth_at_impl = None;
            let mut depth = 0i32;
            for line in code.lines() {
                let t = line.trim_start();
                if depth_at_impl.is_none()
                    && (t.starts_with("impl Core {")
                        || t.starts_with("impl Ctx<'_> {")
                        || t.starts_with("impl<'a> Ctx<'a> {"))
                {
                    depth_at_impl = Some(depth);
                } else if let Some(d) = depth_at_impl {
                    if depth == d + 1 {
                        for prefix in [
                            "pub fn ",
                            "pub(crate) fn ",
                            "fn ",
                            "pub async fn ",
                            "pub(crate) async fn ",
                            "async fn ",
                        ] {
                            if let Some(name) = t.strip_prefix(prefix) {
                                out.insert(first_word(name), module.clone());
                            }
                        }
                    }
                }
                depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
                if depth_at_impl.is_some_and(|d| depth <= d) {
                    depth_at_impl = None;
                }
            }
        }
    }
    out
}

/// The methods `code` calls on the core or a context (`self.x(`,
/// `cx.x(`, `cx.core.x(`, `core.x(`).
fn calls(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for receiver in [
        "self.",
        "cx.",
        "cx.core.",
        "self.core.",
        "core.",
        "self.cx.",
    ] {
        let mut rest = code;
        while let Some(at) = rest.find(receiver) {
            let before = rest[..at].chars().last();
            rest = &rest[at + receiver.len()..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let name = first_word(rest);
            if rest[name.len()..].starts_with('(') {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn every_module_reaches_only_below_its_layer() {
    let layers = layers();
    let modules = modules();
    let defined: BTreeSet<&String> = modules.keys().collect();
    let listed: BTreeSet<&String> = layers.keys().collect();
    assert_eq!(
        defined, listed,
        "the modules of game/src and the table of docs/architecture.md differ"
    );
    let methods = methods(&modules);
    let mut wrong = Vec::new();
    for (module, files) in &modules {
        let mine = layers[module];
        for (path, code) in files {
            for used in crate_paths(code) {
                match layers.get(&used) {
                    Some(&theirs) if used != *module && theirs >= mine => wrong.push(format!(
                        "{} (layer {mine}) imports `{used}` (layer {theirs})",
                        path.display()
                    )),
                    _ => {}
                }
            }
            for call in calls(code) {
                let Some(owner) = methods.get(&call) else {
                    continue;
                };
                let theirs = layers[owner];
                if owner != module && theirs >= mine {
                    wrong.push(format!(
                        "{} (layer {mine}) calls `{call}` of `{owner}` (layer {theirs})",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that point up:\n{}",
        wrong.join("\n")
    );
}

/// The checks above see what they are meant to: an import and a method
/// call are both found, and a comment is not code.
#[test]
fn the_reader_finds_imports_and_calls() {
    let code = "use crate::{store::{self, Tx}, lease};\n let x = crate::core::Core::open();\n self.owed_before(1);\n cx.core.deadline(a);\n self.pruned_at.load(x);";
    let paths = crate_paths(code);
    assert_eq!(
        paths,
        ["core", "lease", "store"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    let called = calls(code);
    assert!(called.contains("owed_before") && called.contains("deadline"));
    assert!(
        !called.contains("load"),
        "a field's method is not the core's"
    );
}

/// No file of the core is over 600 lines before its tests: a module that
/// grows past that holds more than one concept, and is split.
#[test]
fn no_core_file_is_over_600_lines() {
    let mut long = Vec::new();
    for files in modules().values() {
        for (path, code) in files {
            let lines = code.lines().count();
            if lines > 600 {
                long.push(format!("{} ({lines} lines)", path.display()));
            }
        }
    }
    assert!(long.is_empty(), "too long: {}", long.join(", "));
}
