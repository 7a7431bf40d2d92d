//! Variants files: the configuration's `[variants] paths` read at start,
//! and the `voidmate variants` commands (`check`, `show`, `list`).
//!
//! The rules engine reads and checks a file ([`voidmate_rules::defined`]);
//! here files are found (a path, or a pattern such as `variants/*.toml`,
//! read with the `glob` crate), read with a size limit, and what was loaded
//! or refused is said.

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use voidmate_rules::defined::{self, DefinitionError, MAX_FILE_BYTES};

/// The `[variants]` section: files of games defined by this server.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VariantsSection {
    /// Files or patterns (`variants/*.toml`), relative to where the bot runs.
    pub paths: Vec<String>,
    /// Files whose games are played in some communities only.
    pub only: Vec<OnlyIn>,
}

/// `[[variants.only]]`: files (paths or patterns) whose games are offered
/// in the communities named only: a Discord server `discord:ID`, a Matrix
/// room `matrix:!room:server`, `console`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlyIn {
    pub paths: Vec<String>,
    pub communities: Vec<String>,
}

/// What loading files gave: the games added, each with its file, and the
/// files refused, each with its errors.
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: Vec<(String, PathBuf)>,
    pub refused: Vec<(PathBuf, Vec<String>)>,
}

/// The files a path or pattern names, in order.
fn files(pattern: &str) -> Result<Vec<PathBuf>> {
    if !pattern.contains(['*', '?', '[']) {
        return Ok(vec![PathBuf::from(pattern)]);
    }
    let mut out: Vec<PathBuf> = glob::glob(pattern)
        .with_context(|| format!("`{pattern}` is not a file pattern"))?
        .filter_map(Result::ok)
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    Ok(out)
}

/// A file's text, refused past the size a definitions file may have.
fn text_of(path: &Path) -> Result<String> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_FILE_BYTES as u64 {
        bail!(
            "{}: too long for a variants file (at most {} KiB)",
            path.display(),
            MAX_FILE_BYTES / 1024
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Loads every file `section` names: a valid file's games are added, a
/// refused file is named with its errors (the others still load). The
/// games of a `[[variants.only]]` file are offered in its communities only.
pub fn load(section: &VariantsSection) -> Loaded {
    let mut loaded = Loaded::default();
    let everywhere = section.paths.iter().map(|p| (p, None));
    let only = section.only.iter().flat_map(|o| {
        o.paths
            .iter()
            .map(move |p| (p, Some(o.communities.clone())))
    });
    for (pattern, communities) in everywhere.chain(only) {
        let paths = match files(pattern) {
            Ok(p) => p,
            Err(e) => {
                loaded
                    .refused
                    .push((PathBuf::from(pattern), vec![e.to_string()]));
                continue;
            }
        };
        for path in paths {
            let result = text_of(&path)
                .map_err(|e| vec![e.to_string()])
                .and_then(|text| {
                    defined::load(&path.display().to_string(), &text)
                        .map_err(|errs| errs.iter().map(DefinitionError::to_string).collect())
                });
            match result {
                Ok(games) => {
                    for r in &games {
                        defined::offer_in(r.name(), communities.clone());
                    }
                    loaded
                        .games
                        .extend(games.iter().map(|r| (r.name().to_string(), path.clone())))
                }
                Err(errors) => loaded.refused.push((path, errors)),
            }
        }
    }
    loaded
}

impl Loaded {
    /// What `health` says of the variants files: how many games they gave,
    /// and each refused file with its first error.
    pub fn health_detail(&self) -> String {
        let mut out = format!("{} games from files", self.games.len());
        for (path, errors) in &self.refused {
            out.push_str(&format!(
                "; refused {}: {}",
                path.display(),
                errors.first().map(String::as_str).unwrap_or("unreadable")
            ));
        }
        out
    }
}

/// Loads `section`'s files and says in the log what was loaded and what
/// was refused (the bot starts with the valid ones).
pub fn load_and_log(section: &VariantsSection) -> Loaded {
    let loaded = load(section);
    for (game, path) in &loaded.games {
        tracing::info!(game, file = %path.display(), "variant loaded");
    }
    for (path, errors) in &loaded.refused {
        tracing::warn!(
            file = %path.display(),
            "variants file refused: {}",
            errors.join("; ")
        );
    }
    loaded
}

/// `voidmate variants check FILE...`: every error of every file, with its
/// file, line and field; the games of the valid ones.
pub fn check(paths: &[PathBuf]) -> Result<String> {
    let mut out = Vec::new();
    let mut bad = 0;
    for path in paths {
        let shown = path.display().to_string();
        let text = match text_of(path) {
            Ok(t) => t,
            Err(e) => {
                bad += 1;
                out.push(format!("{e:#}"));
                continue;
            }
        };
        let parent = |name: &str| {
            defined::named(name)
                .or_else(|| defined::twin(name))
                .and_then(defined::spec_of)
                .map(|s| s.table.clone())
        };
        match defined::read(&shown, &text, &parent) {
            Ok(specs) => {
                let names: Vec<String> = specs
                    .iter()
                    .map(|s| format!("{} ({})", s.name, s.title))
                    .collect();
                out.push(format!("{shown}: ok: {}", names.join(", ")));
            }
            Err(errors) => {
                bad += 1;
                out.extend(errors.iter().map(DefinitionError::to_string));
            }
        }
    }
    if bad > 0 {
        bail!("{}\n{bad} of {} files refused", out.join("\n"), paths.len());
    }
    Ok(out.join("\n"))
}

/// `voidmate variants show NAME`: the game as the bot reads it.
pub fn show(name: &str, extra: &[PathBuf]) -> Result<String> {
    load_files(extra)?;
    let rules = voidmate_rules::variants::by_name(name)
        .or_else(|| defined::twin(name))
        .with_context(|| format!("no game `{name}`; `voidmate variants list` names them"))?;
    let Some(spec) =
        defined::spec_of(rules).or_else(|| defined::twin(rules.name()).and_then(defined::spec_of))
    else {
        bail!("`{name}` is a built-in game with no file");
    };
    let mut lines = vec![format!(
        "{} ({}), from {} line {}",
        spec.title, spec.name, spec.file, spec.line
    )];
    if !spec.description.is_empty() {
        lines.push(spec.description.clone());
    }
    lines.push(format!("board: {}x{}", spec.files, spec.ranks));
    lines.push(format!("start: {}", spec.start));
    lines.push("pieces:".to_string());
    for p in &spec.pieces {
        lines.push(format!(
            "  {}  {}: {}{}",
            p.letter,
            p.name,
            p.moves,
            if p.royal { " (royal)" } else { "" }
        ));
    }
    let promotion: String = spec.promotion.iter().collect();
    lines.push(format!(
        "pawns: {}, promote to {}",
        if spec.double_step {
            "double step from their first rank"
        } else {
            "no double step"
        },
        if promotion.is_empty() {
            "nothing"
        } else {
            &promotion
        }
    ));
    lines.push(match &spec.castling {
        None => "castling: none".to_string(),
        Some(c) => {
            let f = |x: u8| char::from(b'a' + x);
            format!(
                "castling: on rank {}, king from {} to {} (rook {} to {}) or {} (rook {} to {})",
                c.rank + 1,
                f(c.king_file),
                f(c.king_to[0]),
                f(c.rook_from[0]),
                f(c.rook_to[0]),
                f(c.king_to[1]),
                f(c.rook_from[1]),
                f(c.rook_to[1])
            )
        }
    });
    lines.push(format!(
        "stalemate: {} for the side with no move; {}",
        match spec.stalemate {
            defined::Stalemate::Draw => "a draw",
            defined::Stalemate::Loss => "a loss",
            defined::Stalemate::Win => "a win",
        },
        if spec.move_rule == 0 {
            "no move rule".to_string()
        } else {
            format!("{}-move rule", spec.move_rule)
        }
    ));
    Ok(lines.join("\n"))
}

/// `voidmate variants list`: every game, built in or from a file.
pub fn list(extra: &[PathBuf]) -> Result<String> {
    load_files(extra)?;
    let mut lines: Vec<String> = voidmate_rules::variants::all()
        .map(|r| format!("{}  {} (built in)", r.name(), r.title()))
        .collect();
    for r in defined::all() {
        let file = defined::spec_of(r).map_or(String::new(), |s| s.file.clone());
        lines.push(format!("{}  {} ({file})", r.name(), r.title()));
    }
    Ok(lines.join("\n"))
}

/// Loads `paths` for a command (`--variants-file`): any error refuses the
/// command, naming it.
pub fn load_files(paths: &[PathBuf]) -> Result<()> {
    for path in paths {
        let text = text_of(path)?;
        if let Err(errors) = defined::load(&path.display().to_string(), &text) {
            let words: Vec<String> = errors.iter().map(DefinitionError::to_string).collect();
            bail!("{}", words.join("\n"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use voidmate_rules::GameKind;

    /// `[[variants.only]]` offers a file's games in its communities only,
    /// `paths` everywhere; a refused file is named in `health`'s words
    /// with its first error, and the others still load.
    #[test]
    fn files_for_some_communities_and_refused_files() {
        let dir = tempfile::tempdir().unwrap();
        let open = dir.path().join("open.toml");
        let club = dir.path().join("club.toml");
        let bad = dir.path().join("bad.toml");
        std::fs::write(
            &open,
            "[open-chess]\ninherits = \"standard\"\ntitle = \"Open Chess\"\n",
        )
        .unwrap();
        std::fs::write(
            &club,
            "[members-chess]\ninherits = \"standard\"\ntitle = \"Members Chess\"\n",
        )
        .unwrap();
        std::fs::write(&bad, "[broken]\nboard = \"3x3\"\n").unwrap();
        let config = format!(
            "paths = [{:?}, {:?}]\n\n[[only]]\npaths = [{:?}]\ncommunities = [\"discord:42\", \"matrix:!club:example.org\"]\n",
            open.to_str().unwrap(),
            bad.to_str().unwrap(),
            club.to_str().unwrap()
        );
        let section: VariantsSection = toml::from_str(&config).unwrap();
        let loaded = load(&section);
        let names: Vec<&str> = loaded.games.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(names, ["open-chess", "members-chess"]);
        let health = loaded.health_detail();
        assert!(
            health.starts_with("2 games from files; refused "),
            "{health}"
        );
        assert!(
            health.contains("bad.toml:1: broken: `title` is missing"),
            "{health}"
        );
        let members = GameKind::from_name("members-chess").unwrap();
        assert!(members.playable_in(Some("discord:guild:42")));
        assert!(members.playable_in(Some("!club:example.org")));
        assert!(!members.playable_in(Some("discord:guild:43")));
        assert!(!members.playable_in(Some("console")));
        assert!(!members.playable_in(None));
        let open = GameKind::from_name("open-chess").unwrap();
        assert!(open.playable_in(Some("console")) && open.playable_in(None));
        // A typo in the section is refused by name.
        assert!(
            toml::from_str::<VariantsSection>("[[only]]\npath = []\ncommunities = []\n").is_err()
        );
    }
}
