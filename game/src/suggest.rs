//! Suggestions as a player types (autocomplete): the legal moves of their
//! game, and their games by number or opponent. Hints only: what is picked
//! is checked again when it is played. Read from what is stored, never
//! replayed: every keystroke asks.

use crate::contract::PlayerId;
use crate::core::Core;
use crate::isolate;
use crate::load::stored_position;
use crate::store;
use voidmate_rules::GameKind;

impl Core {
    /// Legal moves, in SAN, of `author`'s game in `channel` where it is
    /// their move, keeping those that start with `typed` (ignoring case; a
    /// coordinate prefix such as `g1` works too), at most `limit`. For
    /// autocompletion: a hint only, every move is checked again when played.
    pub async fn suggest_moves(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        isolate::isolated(self.suggestions(channel, author, typed, limit))
            .await
            .unwrap_or_else(|why| {
                tracing::error!(channel, author = %author, typed, "move suggestions panicked: {why}");
                Vec::new()
            })
    }

    async fn suggestions(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        let Ok(mut tx) = self.store.read().await else {
            return Vec::new();
        };
        let Ok(games) = store::active_games(&mut tx, channel).await else {
            return Vec::new();
        };
        let typed = typed.trim().to_ascii_lowercase();
        // Complete moves only: a pick is played as it is. Moves that differ
        // only in where the void goes (`exd5@e2`, `exd5@e3`) share a group,
        // and the groups take turns, so every capture shows within `limit`.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        // Every keystroke asks: read the stored position, never a replay.
        for rec in games.into_iter().flatten() {
            let Ok(pos) = stored_position(&rec) else {
                continue;
            };
            if &rec.player(pos.turn()).id != author {
                continue;
            }
            for mv in pos.legal_moves().iter() {
                let san = pos.san(mv);
                if !(san.to_ascii_lowercase().starts_with(&typed)
                    || pos.coordinate(mv).starts_with(&typed))
                {
                    continue;
                }
                let group = match san.find('@').filter(|&i| i > 0) {
                    Some(at) => san[..at].to_string(),
                    None => san.clone(),
                };
                match groups.iter_mut().find(|(g, _)| *g == group) {
                    Some((_, moves)) if !moves.contains(&san) => moves.push(san),
                    Some(_) => {}
                    None => groups.push((group, vec![san])),
                }
            }
        }
        round_robin(&groups, limit)
    }
}

impl Core {
    /// Legal moves, in SAN, of `author`'s open puzzle in `channel` (else
    /// the channel's daily puzzle, if unsolved) that start with `typed`,
    /// at most `limit`: the solution among every other legal move, so the
    /// list gives nothing away.
    pub async fn suggest_puzzle_moves(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        isolate::isolated(self.puzzle_suggestions(channel, author, typed, limit))
            .await
            .unwrap_or_default()
    }

    async fn puzzle_suggestions(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<String> {
        let Ok(mut tx) = self.store.read().await else {
            return Vec::new();
        };
        let (puzzle, progress) = match store::open_attempt(&mut tx, author, channel).await {
            Ok(Some(a)) => (a.puzzle, a.progress),
            Ok(None) => match store::latest_daily(&mut tx, channel).await {
                Ok(Some(d)) if !d.solved => (d.puzzle, d.progress),
                _ => return Vec::new(),
            },
            Err(_) => return Vec::new(),
        };
        let Ok(line) = crate::solving::Line::of(&puzzle) else {
            return Vec::new();
        };
        let Some(pos) = line.positions.get(progress) else {
            return Vec::new();
        };
        let typed = typed.trim().to_ascii_lowercase();
        let groups: Vec<(String, Vec<String>)> = pos
            .legal_moves()
            .iter()
            .filter(|mv| {
                pos.san(mv).to_ascii_lowercase().starts_with(&typed)
                    || pos.coordinate(mv).starts_with(&typed)
            })
            .map(|mv| (pos.san(mv), vec![pos.san(mv)]))
            .collect();
        round_robin(&groups, limit)
    }
}

/// Up to `limit` moves, the groups taking turns.
fn round_robin(groups: &[(String, Vec<String>)], limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut round = 0;
    while out.len() < limit {
        let mut any = false;
        for (_, moves) in groups {
            if let Some(m) = moves.get(round) {
                any = true;
                if out.len() < limit {
                    out.push(m.clone());
                }
            }
        }
        if !any {
            break;
        }
        round += 1;
    }
    out
}

impl Core {
    /// The author's latest games in `channel` whose number or opponent
    /// matches what is typed, newest first: a label (`#12 vs bob, Void
    /// Chess, ended`) and the number, for a game option's autocomplete.
    pub async fn suggest_games(
        &self,
        channel: &str,
        author: &PlayerId,
        typed: &str,
        limit: usize,
    ) -> Vec<(String, i64)> {
        let found = isolate::isolated(async {
            let mut tx = self.store.read().await?;
            let rows = store::recent_games_of(&mut tx, channel, author, 100).await?;
            Ok::<_, sqlx::Error>(rows)
        })
        .await;
        let rows = match found {
            Ok(Ok(rows)) => rows,
            Ok(Err(e)) => {
                tracing::warn!(channel, "cannot suggest games: {e}");
                return Vec::new();
            }
            Err(why) => {
                tracing::error!(channel, "game suggestions panicked: {why}");
                return Vec::new();
            }
        };
        let typed = typed.trim().trim_start_matches('#').to_lowercase();
        rows.into_iter()
            .filter_map(Result::ok)
            .filter_map(|rec| {
                let side = rec.color_of(author)?;
                let opponent = rec.player(!side);
                let label = format!(
                    "#{} vs {}, {}, {}",
                    rec.id,
                    opponent,
                    rec.kind.title(),
                    if rec.is_active() {
                        "in progress"
                    } else {
                        "ended"
                    }
                );
                let wanted = typed.is_empty()
                    || rec.id.to_string().starts_with(&typed)
                    || opponent.name.to_lowercase().contains(&typed);
                // Discord takes names of at most 100 characters.
                wanted.then(|| (label.chars().take(100).collect(), rec.id))
            })
            .take(limit)
            .collect()
    }
}

/// Games for a chat's game choice: those played in `community` whose name
/// or title holds `partial` (any case), as (title, name), at most `max`,
/// the games whose name starts with it first.
pub fn game_names(community: Option<&str>, partial: &str, max: usize) -> Vec<(String, String)> {
    let partial = partial.trim().to_lowercase();
    let mut games: Vec<(bool, GameKind)> = GameKind::every_in(community)
        .into_iter()
        .filter(|k| {
            k.name().contains(partial.as_str())
                || k.title().to_lowercase().contains(partial.as_str())
        })
        .map(|k| {
            let starts = k.name().starts_with(partial.as_str())
                || k.title().to_lowercase().starts_with(partial.as_str());
            (!starts, k)
        })
        .collect();
    // Stable: the built-in games in their order, then the files'.
    games.sort_by_key(|(later, _)| *later);
    games
        .into_iter()
        .take(max)
        .map(|(_, k)| (k.title().to_string(), k.name().to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game is offered under its title with its name as the value,
    /// and the value names that game back; a game from the shipped files
    /// (Capablanca) is offered beside the built-in ones; what nothing
    /// matches offers nothing.
    #[test]
    fn every_game_is_offered_under_its_title() {
        let all = game_names(Some("discord:guild:1"), "", 100);
        assert_eq!(all.len(), GameKind::every().len());
        for kind in GameKind::every() {
            let (title, name) = all
                .iter()
                .find(|(_, n)| n == kind.name())
                .unwrap_or_else(|| panic!("{kind} is not offered"));
            assert_eq!(title, kind.title());
            assert_eq!(GameKind::from_name(name), Some(kind));
        }
        let capa = game_names(None, "capa", 25);
        assert_eq!(
            capa,
            [("Capablanca Chess".to_string(), "capablanca".to_string())]
        );
        // A title's word, any case; those starting with it first.
        let void = game_names(None, "VOID", 25);
        assert_eq!(void[0].1, "void");
        assert!(void.iter().any(|(_, n)| n == "suicide-void"));
        assert!(game_names(None, "xiangqi", 25).is_empty());
        assert_eq!(game_names(None, "", 3).len(), 3);
    }

    /// What a player types into the game choice never panics: empty,
    /// multi-byte and oversized text offer at most the limit, and text that
    /// is in no game's name offers nothing.
    #[test]
    fn any_typed_game_name_is_read_safely() {
        assert_eq!(
            game_names(None, "", 25).len(),
            GameKind::every().len().min(25)
        );
        for typed in [
            "ヴォイド",
            "🐴",
            "\u{0}",
            &"é".repeat(100_000),
            &"void".repeat(10_000),
        ] {
            assert!(
                game_names(Some("discord:guild:1"), typed, 25).is_empty(),
                "{typed:.20}"
            );
        }
        assert_eq!(game_names(None, "  VoId  ", 25)[0].1, "void");
    }
}
