//! Games as PGN, written so that other programs read them where they know
//! the game, and read back by us for every game.
//!
//! Our move notation is SAN with each game's own forms; two of them are
//! written differently in PGN, where parentheses open a variation and a
//! movetext token starts with a letter: a Black Holes drop `(He1)` is
//! written in the drop form `H@e1`, and Suicide Void Chess's placement of
//! the first void, `@e5`, as `V@e5`. Programs of reprogrammed Super Chess
//! pieces go in `WhiteProgram`/`BlackProgram` tags, so the game replays.

use std::fmt::Write as _;
use voidmate_rules::{variants, GameKind, Position, Program, SharedRules};

/// The `Variant` tag: the name PGN readers know where there is one
/// (python-chess, lichess), our title otherwise.
pub fn variant_tag(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Standard => "Standard",
        GameKind::Antichess => "Antichess",
        GameKind::Void
        | GameKind::SuicideVoid
        | GameKind::SuicideVoidPromotionWins
        | GameKind::Chess99
        | GameKind::BlackHoles
        | GameKind::Super16 => kind.title(),
        // Fairy-Stockfish's tools know a fairy game by its name there,
        // which a definition keeps.
        GameKind::Defined(_) => kind.name(),
    }
}

/// The game a `Variant` tag names (ours, or a reader's name), any case.
pub fn kind_of_tag(tag: &str) -> Option<GameKind> {
    let tag = tag.trim();
    GameKind::ALL
        .iter()
        .copied()
        .find(|k| variant_tag(*k).eq_ignore_ascii_case(tag) || k.title().eq_ignore_ascii_case(tag))
        .or_else(|| match tag.to_ascii_lowercase().as_str() {
            "chess" | "normal" | "classical" | "from position" => Some(GameKind::Standard),
            "giveaway" | "anti" | "anti-chess" => Some(GameKind::Antichess),
            _ => GameKind::from_name(tag),
        })
}

/// One of our SAN moves as a PGN movetext token.
pub fn token(san: &str) -> String {
    if let Some(inner) = san.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        // `(He1)`: a drop.
        let mut chars = inner.chars();
        if let Some(letter) = chars.next() {
            return format!("{letter}@{}", chars.as_str());
        }
    }
    match san.strip_prefix('@') {
        Some(square) => format!("V@{square}"),
        None => san.to_string(),
    }
}

/// A PGN movetext token as our move reader takes it.
pub fn untoken(token: &str) -> String {
    match token.strip_prefix("V@") {
        Some(square) => format!("@{square}"),
        None => token.to_string(),
    }
}

/// What a PGN text says: its tags in order and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The movetext of `sans` from `start`, numbered, ending with `result`.
pub fn movetext(start: &Position, sans: &[String], result: &str) -> String {
    movetext_annotated(start, sans, result, &[])
}

/// What a move's PGN carries besides itself: a mark (`?!`, `?`, `??`) and a
/// comment (`[%eval 0.35]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotation {
    pub mark: Option<&'static str>,
    pub comment: Option<String>,
}

/// [`movetext`] with each move's annotation (`notes[i]` for move `i`; fewer
/// notes than moves leave the rest bare). After a comment Black's move
/// states its number again (`3... Nf6`), as PGN readers expect.
pub fn movetext_annotated(
    start: &Position,
    sans: &[String],
    result: &str,
    notes: &[Annotation],
) -> String {
    let mut number = start.board().fullmove_number();
    let mut white_to_move = start.turn() == voidmate_rules::Color::White;
    let mut out = String::new();
    let mut after_comment = false;
    for (i, san) in sans.iter().enumerate() {
        if white_to_move {
            let _ = write!(out, "{number}. ");
        } else if i == 0 || after_comment {
            let _ = write!(out, "{number}... ");
        }
        out.push_str(&token(san));
        let note = notes.get(i);
        if let Some(mark) = note.and_then(|n| n.mark) {
            out.push_str(mark);
        }
        out.push(' ');
        after_comment = false;
        if let Some(comment) = note.and_then(|n| n.comment.as_deref()) {
            let _ = write!(out, "{{ {comment} }} ");
            after_comment = true;
        }
        // As the PGN standard counts: a number for each White move, up by
        // one after each Black move (Suicide Void Chess's placement of the
        // void, Black's, is `1... V@e5`, and White's first move `2. e4`),
        // so that no number repeats.
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    out.push_str(result);
    out
}

/// Writes a PGN: `tags` (the Seven Tag Roster and any others, in order),
/// then the movetext.
pub fn write(tags: &[(&str, String)], movetext: &str) -> String {
    let mut s = String::new();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{name} \"{value}\"]");
    }
    s.push('\n');
    s.push_str(movetext);
    s
}

/// Why a PGN does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError(pub String);

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads one game's tags and moves (comments, NAGs, variations and move
/// numbers are skipped).
pub fn read(text: &str) -> Result<Record, PgnError> {
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| PgnError(format!("a tag without a value: {line}")))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| PgnError(format!("a tag value without quotes: {line}")))?;
            tags.push((
                name.to_string(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
        } else if !line.starts_with('%') {
            body.push_str(line);
            body.push('\n');
        }
    }
    let mut moves = Vec::new();
    let mut result = "*".to_string();
    let (mut comment, mut variation) = (false, 0usize);
    for raw in body.split_whitespace() {
        let mut word = raw;
        if comment {
            if let Some(end) = word.find('}') {
                comment = false;
                word = &word[end + 1..];
            } else {
                continue;
            }
        }
        if let Some(start) = word.find('{') {
            comment = !word[start..].contains('}');
            word = &word[..start];
        }
        variation += word.matches('(').count();
        let closes = word.matches(')').count();
        if variation > 0 {
            variation = variation.saturating_sub(closes);
            continue;
        }
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = word.to_string();
            continue;
        }
        let word = word.trim_end_matches(['!', '?']);
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if word.is_empty() || word.starts_with('$') {
            continue;
        }
        moves.push(word.to_string());
    }
    Ok(Record {
        tags,
        moves,
        result,
    })
}

/// Replays a record by its tags (`Variant`, `FEN`, programs): the position
/// after every move, or why a move or tag does not fit.
pub fn replay(record: &Record) -> Result<Position, PgnError> {
    let kind = match record.tag("Variant") {
        None => GameKind::Standard,
        Some(v) => kind_of_tag(v).ok_or_else(|| PgnError(format!("unknown variant `{v}`")))?,
    };
    let base = kind.rules();
    let program = |tag: &str| match record.tag(tag) {
        None => Ok(Program::none()),
        Some(t) => Program::parse(base, t).map_err(|e| PgnError(format!("the {tag} tag: {e}"))),
    };
    let rules: SharedRules =
        variants::programmed(base, &program("WhiteProgram")?, &program("BlackProgram")?)
            .map_err(|e| PgnError(format!("the programs: {e}")))?;
    let mut pos = match record.tag("FEN") {
        Some(fen) => {
            Position::from_fen(rules, fen).map_err(|e| PgnError(format!("the FEN tag: {e}")))?
        }
        None => Position::new(rules),
    };
    for (i, token) in record.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&untoken(token))
            .map_err(|e| PgnError(format!("move {} `{token}`: {e}", i + 1)))?;
        pos.play_unchecked(&mv);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_pgn_forms_and_read_back() {
        assert_eq!(token("(He1)"), "H@e1");
        assert_eq!(token("@e5"), "V@e5");
        assert_eq!(token("exd5@e3"), "exd5@e3");
        assert_eq!(token("Nf3"), "Nf3");
        assert_eq!(untoken("V@e5"), "@e5");
        assert_eq!(untoken("H@e1"), "H@e1");
    }

    #[test]
    fn comments_variations_and_numbers_are_skipped() {
        let r = read(
            "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3!? $1 Nc6 1-0",
        )
        .unwrap();
        assert_eq!(r.moves, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(r.result, "1-0");
        assert_eq!(r.tag("White"), Some("a \"b\""));
    }

    /// A game of random legal moves (the same every run).
    fn random_game(rules: SharedRules, plies: usize, seed: u64) -> (Position, Vec<String>) {
        let start = Position::new(rules);
        let mut pos = start.clone();
        let mut sans = Vec::new();
        let mut state = seed;
        while sans.len() < plies && pos.outcome().is_none() {
            let moves = pos.legal_moves();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(state >> 33) as usize % moves.len()];
            sans.push(pos.san(&mv));
            pos.play_unchecked(&mv);
        }
        (pos, sans)
    }

    fn export(
        kind: GameKind,
        programs: &[(&str, &str)],
        sans: &[String],
        start: &Position,
    ) -> String {
        let mut tags = vec![
            ("Event", "test".to_string()),
            ("White", "alice".to_string()),
            ("Black", "bob".to_string()),
            ("Result", "*".to_string()),
            ("Variant", variant_tag(kind).to_string()),
        ];
        for (tag, p) in programs {
            tags.push((tag, p.to_string()));
        }
        write(&tags, &movetext(start, sans, "*"))
    }

    /// Every game, exported and read back by our own reader, ends where it
    /// ended; a reprogrammed Super Chess game replays through its tags.
    #[test]
    fn every_game_reads_back_to_the_same_position() {
        for kind in GameKind::ALL {
            let (end, sans) = random_game(
                kind.rules().into(),
                80,
                7 + kind.name().bytes().map(u64::from).sum::<u64>(),
            );
            let text = export(kind, &[], &sans, &Position::new(kind.rules()));
            let moves = text.split_once("\n\n").unwrap().1;
            assert!(
                !moves.contains('('),
                "{kind:?}: no parentheses in movetext\n{text}"
            );
            let back =
                replay(&read(&text).unwrap()).unwrap_or_else(|e| panic!("{kind:?}: {e}\n{text}"));
            assert_eq!(back.fen(), end.fen(), "{kind:?}\n{text}");
        }
        let base = variants::super16();
        let (w, b) = ("N: jump 3,1 1,3; B: slide 1,2", "R: step 2,0 0,2 0,-2");
        let rules = variants::programmed(
            base,
            &Program::parse(base, w).unwrap(),
            &Program::parse(base, b).unwrap(),
        )
        .unwrap();
        let (end, sans) = random_game(rules.clone(), 80, 99);
        let tags = [("WhiteProgram", w), ("BlackProgram", b)];
        let text = export(GameKind::Super16, &tags, &sans, &Position::new(rules));
        let back = replay(&read(&text).unwrap()).unwrap();
        assert_eq!(back.fen(), end.fen());
        // Without the programs the same moves do not replay.
        let bare = export(GameKind::Super16, &[], &sans, &Position::new(base));
        assert!(replay(&read(&bare).unwrap()).is_err());
    }

    /// The drop and void forms are what readers of drops expect.
    #[test]
    fn drops_and_void_placements_use_the_drop_form() {
        for (kind, wanted) in [(GameKind::BlackHoles, "H@"), (GameKind::SuicideVoid, "V@")] {
            let found = (0..40u64).any(|seed| {
                let (_, sans) = random_game(kind.rules().into(), 30, seed);
                movetext(&Position::new(kind.rules()), &sans, "*").contains(wanted)
            });
            assert!(found, "{kind:?} writes {wanted}");
        }
    }

    /// Standard chess and antichess read in python-chess, an independent
    /// PGN reader, to the same position (`scripts/pgn-read.sh`, which
    /// installs it on first use).
    #[test]
    #[cfg_attr(
        not(voidmate_readers),
        ignore = "python-chess is not installed: `bash scripts/pgn-read.sh install` (or `scripts/test.sh`) runs this"
    )]
    fn an_external_reader_reads_standard_and_antichess() {
        let script =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/pgn-read.sh");
        let dir = tempfile::tempdir().unwrap();
        for (kind, seed, variant) in [
            (GameKind::Standard, 3, "chess"),
            (GameKind::Antichess, 5, "antichess"),
        ] {
            let (end, sans) = random_game(kind.rules().into(), 120, seed);
            let text = export(kind, &[], &sans, &Position::new(kind.rules()));
            let file = dir.path().join("game.pgn");
            std::fs::write(&file, &text).unwrap();
            let out = std::process::Command::new("bash")
                .arg(&script)
                .arg(&file)
                .output()
                .expect("bash runs");
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{kind:?}: {}\n{text}",
                String::from_utf8_lossy(&out.stderr)
            );
            let (read_variant, fen) = said.trim().split_once(' ').unwrap();
            assert_eq!(read_variant, variant, "{said}");
            // Board, side to move, castling and en passant: our FEN's first
            // four fields (the clocks are counted alike but need not be).
            let four = |f: &str| f.split(' ').take(4).collect::<Vec<_>>().join(" ");
            assert_eq!(four(fen), four(&end.fen()), "{kind:?}\n{text}");
        }
    }

    /// Damaged or hostile PGN is refused in words, never a panic.
    #[test]
    fn odd_pgn_is_refused_without_panicking() {
        let long = "1. e4 ".repeat(5000);
        for text in [
            "",
            "[Variant \"日本\"]\n\n1. e4",
            "[Event]\n",
            "[FEN \"♞♞♞\"]\n1. e4",
            "1. 日本語 ♞ é@e5 V@ H@ (",
            "{ unclosed comment 1. e4",
            long.as_str(),
        ] {
            if let Ok(record) = read(text) {
                let _ = replay(&record);
            }
        }
        assert!(read("[Event]\n").is_err());
        assert!(replay(&read("[Variant \"日本\"]\n\n1. e4").unwrap()).is_err());
    }

    #[test]
    fn every_game_names_its_variant_both_ways() {
        for kind in GameKind::ALL {
            assert_eq!(kind_of_tag(variant_tag(kind)), Some(kind));
            assert_eq!(kind_of_tag(kind.title()), Some(kind));
        }
        assert_eq!(kind_of_tag("standard"), Some(GameKind::Standard));
        assert_eq!(kind_of_tag("Giveaway"), Some(GameKind::Antichess));
        // The names other programs read (python-chess, lichess), as they
        // spell them; and no two games share a tag.
        assert_eq!(variant_tag(GameKind::Standard), "Standard");
        assert_eq!(variant_tag(GameKind::Antichess), "Antichess");
        let mut tags: Vec<&str> = GameKind::ALL.iter().map(|k| variant_tag(*k)).collect();
        tags.sort();
        tags.dedup();
        assert_eq!(tags.len(), GameKind::COUNT);
    }
}
