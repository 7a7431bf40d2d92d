//! Reading a variants file: TOML, one table per game, every error named
//! with its file, line and field.

use super::{Stalemate, MAX_PIECES, SPARE_ROLES};
use crate::betza;
use crate::movement::{king, Component, Movement};
use crate::variant::{CastlingDef, Definition, RoleDef};
use crate::{BoardSize, GameKind, Role};
use std::fmt;
use toml::de::{DeTable, DeValue};
use toml::{Table, Value};

/// What is wrong in a definition, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    pub file: String,
    /// 1 for the first line.
    pub line: usize,
    /// The game and field: `capablanca.pieces.A`.
    pub field: String,
    pub message: String,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.file, self.line, self.field, self.message
        )
    }
}

/// One piece of a definition, as read.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    pub letter: char,
    /// Its name for people: `archbishop`.
    pub name: String,
    /// Its moves as written: Betza, or `pawn`.
    pub moves: String,
    pub royal: bool,
    pub role: Role,
    /// The built-in drawing it is shown with (`art = "archbishop"`), if
    /// the file names one; otherwise a chess piece's own drawing where it
    /// is one, else its letter in a disc ([`Spec::art_of`]).
    pub art: Option<Role>,
    /// May land on and pass over voids (`crosses_void`, the Minister).
    pub crosses_void: bool,
    /// Never lost to an unstable tile, and heals the tile it lands on
    /// (`heals`, the Minister).
    pub heals: bool,
    /// Its moves in our own form, in words (`leaps`, `paths`, `walk`, and
    /// whether it crosses or heals voids), for help.
    pub own_words: Vec<String>,
    components: Vec<Component>,
}

/// A flag win: the side whose `piece` reaches one of its squares wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    pub piece: char,
    /// White's squares, Black's.
    pub squares: [Vec<crate::Square>; 2],
}

/// A game as its file defines it, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub name: String,
    pub title: String,
    pub description: String,
    /// The file and the line of its table.
    pub file: String,
    pub line: usize,
    pub files: u8,
    pub ranks: u8,
    pub start: String,
    pub pieces: Vec<PieceSpec>,
    /// Letters a pawn may become, in the order offered.
    pub promotion: Vec<char>,
    /// The piece a pawn becomes when its player names none
    /// (`promotion_default = "Q"`); `None`: the player must name one.
    pub promotion_default: Option<char>,
    /// King's file, rooks' files, king's and rooks' files after (king side
    /// first).
    pub castling: Option<CastlingDef>,
    pub double_step: bool,
    pub stalemate: Stalemate,
    /// Moves by each side without a capture or pawn move that draw (0: no
    /// such rule).
    pub move_rule: u16,
    /// The rank, from each side's own first (1), where pawns promote
    /// (`None`: the last).
    pub promotion_rank: Option<u8>,
    /// The rank (each side's own counting) pawns double-step from (`None`:
    /// the second).
    pub double_step_rank: Option<u8>,
    /// The first rank of a zone where promoting is a choice, short of the
    /// last rank.
    pub promotion_zone: Option<u8>,
    /// Pawns become only pieces their side has lost.
    pub promotion_limited: bool,
    /// Letters of which a side must keep one: losing the last of any
    /// loses (extinction).
    pub extinction: Vec<char>,
    /// A piece whose arrival on its side's squares wins.
    pub flag: Option<Flag>,
    /// Captures are compulsory (giveaway).
    pub captures_forced: bool,
    /// A side left with its royal piece alone loses, unless its move bares
    /// the other's too (Shatranj, Courier).
    pub bare_king: bool,
    /// Void Chess's tile layer is on (`tiles = "void"`): captures leave
    /// unstable tiles that turn void.
    pub void_tiles: bool,
    /// The built-in game whose code decides what the format cannot say
    /// (`rules = "void"`): see [`HOOKS`].
    pub hook: Option<GameKind>,
    /// The table as read, its parent's fields merged in: what a game that
    /// inherits from this one starts from.
    pub table: Table,
    /// [`Spec::hash`], worked out from the rest.
    hash: String,
}

/// How a piece of a defined game is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Art {
    /// With this role's drawing.
    Drawing(Role),
    /// As its letter in a disc.
    Letter(char),
}

impl Spec {
    /// How the piece of `role` is drawn: the drawing its file names; a
    /// chess piece's own where it is that piece by letter (and the royal
    /// piece as a king); else its letter in a disc, so that no fairy piece
    /// is shown as another game's piece.
    pub fn art_of(&self, role: Role) -> Option<Art> {
        let p = self.pieces.iter().find(|p| p.role == role)?;
        if let Some(art) = p.art {
            return Some(Art::Drawing(art));
        }
        let own = matches!(
            (p.letter, p.role),
            ('P', Role::Pawn)
                | ('N', Role::Knight)
                | ('B', Role::Bishop)
                | ('R', Role::Rook)
                | ('Q', Role::Queen)
                | (_, Role::King)
        );
        Some(if own {
            Art::Drawing(p.role)
        } else {
            Art::Letter(p.letter)
        })
    }

    /// The definition as one self-contained table (its parent's fields
    /// merged in): what a game stores to keep its rules.
    pub fn canonical(&self) -> String {
        let mut doc = Table::new();
        doc.insert(self.name.clone(), Value::Table(self.table.clone()));
        toml::to_string(&doc).unwrap_or_default()
    }

    /// The definition's identity: the first 16 hex digits of the SHA-256
    /// of [`Spec::canonical`]. Two files that define the same game the same
    /// way give one hash, whatever their layout or comments. Worked out once,
    /// when the definition is read (a game and a challenge store it).
    pub fn hash(&self) -> String {
        self.hash.clone()
    }

    fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(self.canonical().as_bytes());
        digest[..8].iter().fold(String::new(), |mut out, b| {
            use std::fmt::Write as _;
            let _ = write!(out, "{b:02x}");
            out
        })
    }

    /// The rules' [`Definition`] (its words kept for the life of the
    /// process: a game's rules are).
    pub(super) fn definition(&self) -> Definition {
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let role_of = |letter: char| {
            self.pieces
                .iter()
                .find(|p| p.letter == letter)
                .map(|p| p.role)
        };
        Definition {
            name: leak(&self.name),
            title: leak(&self.title),
            size: BoardSize::new(self.files, self.ranks).expect("checked"),
            roster: self
                .pieces
                .iter()
                .map(|p| RoleDef {
                    role: p.role,
                    letter: p.letter,
                    movement: Movement {
                        components: p.components.clone(),
                        crosses_void: p.crosses_void,
                        heals: p.heals,
                    },
                })
                .collect(),
            start_fen: leak(&self.start),
            promotion: self.promotion.iter().filter_map(|&l| role_of(l)).collect(),
            castling: self.castling.clone(),
            royal: self.pieces.iter().find(|p| p.royal).map(|p| p.role),
        }
    }
}

/// The games whose code a definition may switch on by name (`rules =
/// "void"`), for what the format cannot say: each decides everything its
/// game's code decides beyond the board, the start, the pieces' moves,
/// promotion and castling (`docs/variants.md` lists what).
pub const HOOKS: [GameKind; 6] = [
    GameKind::Void,
    GameKind::SuicideVoid,
    GameKind::SuicideVoidPromotionWins,
    GameKind::Chess99,
    GameKind::BlackHoles,
    GameKind::Super16,
];

/// The fields a game with a hook may have besides it: the rest are the
/// hook's to decide.
const HOOKED_FIELDS: [&str; 9] = [
    "title",
    "description",
    "inherits",
    "board",
    "start",
    "pieces",
    "promotion",
    "castling",
    "rules",
];

/// A piece table's fields.
const PIECE_FIELDS: [&str; 9] = [
    "moves",
    "name",
    "royal",
    "art",
    "leaps",
    "paths",
    "walk",
    "crosses_void",
    "heals",
];

/// The fields a game's table may have.
const FIELDS: [&str; 19] = [
    "promotion_default",
    "rules",
    "tiles",
    "title",
    "description",
    "inherits",
    "board",
    "start",
    "pieces",
    "promotion",
    "castling",
    "double_step",
    "stalemate",
    "move_rule",
    "promotion_rank",
    "double_step_rank",
    "promotion_zone",
    "promotion_limited",
    "win",
];

/// The longest description, in characters.
const MAX_DESCRIPTION: usize = 500;
/// The longest title and piece name, in characters.
const MAX_TITLE: usize = 40;
/// The most games one file may define.
const MAX_GAMES: usize = 64;
/// The largest move rule, in moves.
const MAX_MOVE_RULE: i64 = 1000;
/// The longest file read, in bytes.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// Where each key of the text stands: the line of `game.field.key`.
struct Lines<'a> {
    text: &'a str,
    doc: Option<DeTable<'a>>,
}

impl Lines<'_> {
    fn line_at(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// The line of the deepest key of `path` found (the game's table at
    /// least); 1 if not even that.
    fn of(&self, path: &[&str]) -> usize {
        let Some(mut table) = self.doc.as_ref() else {
            return 1;
        };
        let mut line = 1;
        for key in path {
            let Some((k, v)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == *key) else {
                break;
            };
            line = self.line_at(k.span().start);
            match v.get_ref() {
                DeValue::Table(t) => table = t,
                _ => break,
            }
        }
        line
    }
}

/// Reads every game of `text` (from `file`), checked; `parent` gives the
/// table of a game already loaded that one may inherit from. Either every
/// game, or every error found.
pub fn read(
    file: &str,
    text: &str,
    parent: &dyn Fn(&str) -> Option<Table>,
) -> Result<Vec<Spec>, Vec<DefinitionError>> {
    let fail = |line: usize, field: &str, message: String| DefinitionError {
        file: file.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    if text.len() > MAX_FILE_BYTES {
        return Err(vec![fail(
            1,
            "file",
            format!("too long: at most {} KiB", MAX_FILE_BYTES / 1024),
        )]);
    }
    let doc = match DeTable::parse(text) {
        Ok(doc) => doc.into_inner(),
        Err(e) => {
            let line = e.span().map_or(1, |s| {
                text[..s.start.min(text.len())].matches('\n').count() + 1
            });
            return Err(vec![fail(
                line,
                "file",
                format!("not TOML: {}", e.message()),
            )]);
        }
    };
    let lines = Lines {
        text,
        doc: Some(doc),
    };
    let tables: Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => return Err(vec![fail(1, "file", format!("not TOML: {}", e.message()))]),
    };
    if tables.len() > MAX_GAMES {
        return Err(vec![fail(
            1,
            "file",
            format!("too many games: at most {MAX_GAMES} in a file"),
        )]);
    }
    let mut specs = Vec::new();
    let mut errors = Vec::new();
    for (name, value) in &tables {
        let line = lines.of(&[name]);
        let Value::Table(own) = value else {
            errors.push(fail(
                line,
                name,
                "a game is a table: `[name]` and its fields under it".into(),
            ));
            continue;
        };
        // Its parent's fields first, then its own (pieces merged by letter).
        let merged = match own.get("inherits") {
            None => Ok(own.clone()),
            Some(Value::String(p)) => {
                let found = tables
                    .get(p)
                    .filter(|_| p != name)
                    .and_then(|t| t.as_table().cloned())
                    .or_else(|| parent(p));
                match found {
                    Some(base) => Ok(merge(&base, own)),
                    None => Err(fail(
                        lines.of(&[name, "inherits"]),
                        &format!("{name}.inherits"),
                        format!("there is no game `{p}` to inherit from (it must be in this file or loaded before)"),
                    )),
                }
            }
            Some(_) => Err(fail(
                lines.of(&[name, "inherits"]),
                &format!("{name}.inherits"),
                "the name of a game, as a string".into(),
            )),
        };
        match merged.and_then(|table| check(file, name, table, &lines)) {
            Ok(spec) => specs.push(spec),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(specs)
    } else {
        Err(errors)
    }
}

/// `own` over `base`: its fields replace the base's, its pieces are added
/// to the base's (a piece set to `false` is taken away).
fn merge(base: &Table, own: &Table) -> Table {
    let mut out = base.clone();
    out.remove("inherits");
    // An inherited promotion loses the pieces taken away.
    let removed: Vec<&String> = match own.get("pieces") {
        Some(Value::Table(add)) => add
            .iter()
            .filter(|(_, v)| matches!(v, Value::Boolean(false)))
            .map(|(k, _)| k)
            .collect(),
        _ => Vec::new(),
    };
    if let (Some(Value::String(p)), false) =
        (out.get_mut("promotion"), own.contains_key("promotion"))
    {
        p.retain(|c| !removed.iter().any(|r| r.starts_with(c)));
    }
    for (k, v) in own {
        match (k.as_str(), v, out.get_mut("pieces")) {
            ("pieces", Value::Table(add), Some(Value::Table(pieces))) => {
                for (letter, piece) in add {
                    match piece {
                        Value::Boolean(false) => {
                            pieces.remove(letter);
                        }
                        _ => {
                            pieces.insert(letter.clone(), piece.clone());
                        }
                    }
                }
            }
            ("inherits", _, _) => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// One game's table checked into a [`Spec`].
fn check(file: &str, name: &str, table: Table, lines: &Lines<'_>) -> Result<Spec, DefinitionError> {
    let err = |path: &[&str], message: String| DefinitionError {
        file: file.to_string(),
        line: lines.of(&[&[name], path].concat()),
        field: [&[name], path].concat().join("."),
        message,
    };
    let valid_name = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid_name {
        return Err(err(
            &[],
            "a game's name is 1 to 32 lower-case letters, digits or `-`".into(),
        ));
    }
    for key in table.keys() {
        if !FIELDS.contains(&key.as_str()) {
            return Err(err(
                &[key],
                format!("unknown field; a game has {}", FIELDS.join(", ")),
            ));
        }
    }
    // A hook: one of our games' code, switched on by its name.
    let hook = match table.get("rules") {
        None => None,
        Some(Value::String(h)) => match HOOKS.iter().copied().find(|k| k.name() == h.trim()) {
            Some(k) => Some(k),
            None => {
                let names: Vec<&str> = HOOKS.iter().map(|k| k.name()).collect();
                return Err(err(
                    &["rules"],
                    format!("no hook `{h}`; the hooks: {}", names.join(", ")),
                ));
            }
        },
        Some(_) => return Err(err(&["rules"], "a hook's name, like \"void\"".into())),
    };
    let hooked = hook.map(|k| crate::variants::variant_of(k).definition());
    if let (Some(k), Some(key)) = (
        hook,
        table.keys().find(|k| !HOOKED_FIELDS.contains(&k.as_str())),
    ) {
        return Err(err(
            &[key],
            format!(
                "the hook `{}` decides this; a game with a hook has {}",
                k.name(),
                HOOKED_FIELDS.join(", ")
            ),
        ));
    }
    let string = |key: &str, required: bool| -> Result<Option<String>, DefinitionError> {
        match table.get(key) {
            None if required => Err(err(&[], format!("`{key}` is missing"))),
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(err(&[key], "a string, in quotes".into())),
        }
    };
    let title = string("title", true)?.unwrap_or_default();
    if title.trim().is_empty() || title.chars().count() > MAX_TITLE {
        return Err(err(&["title"], format!("1 to {MAX_TITLE} characters")));
    }
    let description = string("description", false)?.unwrap_or_default();
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(err(
            &["description"],
            format!("at most {MAX_DESCRIPTION} characters"),
        ));
    }
    let board = string("board", true)?.unwrap_or_default();
    let size = board
        .split_once(['x', 'X'])
        .and_then(|(f, r)| Some((f.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
        .and_then(|(f, r)| BoardSize::new(f, r).map(|_| (f, r)));
    let Some((files, ranks)) = size else {
        return Err(err(
            &["board"],
            format!("`{board}`: files x ranks, from 5x5 to 16x16, like \"10x8\""),
        ));
    };
    if let (Some(k), Some(d)) = (hook, &hooked) {
        if (d.size.files(), d.size.ranks()) != (files, ranks) {
            return Err(err(
                &["board"],
                format!(
                    "the hook `{}` plays on {}x{} only",
                    k.name(),
                    d.size.files(),
                    d.size.ranks()
                ),
            ));
        }
    }
    let start = string("start", true)?.unwrap_or_default();
    if start.len() > 400 {
        return Err(err(&["start"], "a FEN of at most 400 characters".into()));
    }

    // The pieces.
    let Some(Value::Table(pieces)) = table.get("pieces") else {
        return Err(err(
            &["pieces"],
            "`[NAME.pieces]` is missing: each piece's letter and moves".into(),
        ));
    };
    if pieces.len() > MAX_PIECES {
        return Err(err(
            &["pieces"],
            format!("too many pieces: at most {MAX_PIECES}"),
        ));
    }
    let mut read_pieces: Vec<(char, String, String, bool)> = Vec::new();
    // Each piece's drawing, where its table names one.
    let mut arts: Vec<Option<Role>> = Vec::new();
    // Each piece's moves in our own form, and its relation to voids.
    let mut own_moves: Vec<OwnMoves> = Vec::new();
    for (key, value) in pieces {
        let path = ["pieces", key.as_str()];
        let mut chars = key.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(err(
                    &path,
                    "a piece is named by one upper-case letter".into(),
                ))
            }
        };
        if read_pieces.iter().any(|p| p.0 == letter) {
            return Err(err(&path, format!("the letter `{letter}` is used twice")));
        }
        let mut art = None;
        let mut own = OwnMoves::default();
        let (moves, piece_name, royal) = match value {
            Value::String(m) => (m.clone(), None, None),
            Value::Table(t) => {
                for k in t.keys() {
                    if !PIECE_FIELDS.contains(&k.as_str()) {
                        return Err(err(
                            &[&path[..], &[k]].concat(),
                            format!("unknown field; a piece has {}", PIECE_FIELDS.join(", ")),
                        ));
                    }
                }
                own = own_moves_of(t).map_err(|(k, m)| err(&[&path[..], &[k]].concat(), m))?;
                art = match t.get("art") {
                    None => None,
                    Some(Value::String(a)) => {
                        let drawn = Role::ALL
                            .into_iter()
                            .filter(|r| !matches!(r, Role::Programmable | Role::Hole))
                            .find(|r| {
                                r.name().replace(' ', "")
                                    == a.trim().to_lowercase().replace(' ', "")
                            });
                        match drawn {
                            Some(r) => Some(r),
                            None => {
                                let names: Vec<&str> = Role::ALL
                                    .into_iter()
                                    .filter(|r| !matches!(r, Role::Programmable | Role::Hole))
                                    .map(Role::name)
                                    .collect();
                                return Err(err(
                                    &[&path[..], &["art"]].concat(),
                                    format!("no drawing `{a}`; the drawings: {}", names.join(", ")),
                                ));
                            }
                        }
                    }
                    Some(_) => {
                        return Err(err(
                            &[&path[..], &["art"]].concat(),
                            "the name of a drawing, like \"archbishop\"".into(),
                        ))
                    }
                };
                let moves = match t.get("moves") {
                    Some(Value::String(m)) => m.clone(),
                    None if !own.components.is_empty() => String::new(),
                    _ => {
                        return Err(err(
                            &path,
                            "`moves` is missing: Betza, like \"BN\", or \"pawn\"".into(),
                        ))
                    }
                };
                let name = match t.get("name") {
                    None => None,
                    Some(Value::String(n))
                        if !n.trim().is_empty() && n.chars().count() <= MAX_TITLE =>
                    {
                        Some(n.clone())
                    }
                    Some(_) => {
                        return Err(err(&path, format!("`name`: 1 to {MAX_TITLE} characters")))
                    }
                };
                let royal = match t.get("royal") {
                    None => None,
                    Some(Value::Boolean(b)) => Some(*b),
                    Some(_) => return Err(err(&path, "`royal`: true or false".into())),
                };
                (moves, name, royal)
            }
            _ => {
                return Err(err(
                    &path,
                    "moves as a string (\"N\", \"pawn\", \"king\") or a table".into(),
                ))
            }
        };
        // A piece that moves as a king is royal unless said otherwise.
        let royal = royal.unwrap_or(moves == "king");
        let default_name = match moves.as_str() {
            "pawn" => "pawn".to_string(),
            "king" => "king".to_string(),
            _ => format!("piece {letter}"),
        };
        read_pieces.push((letter, moves, piece_name.unwrap_or(default_name), royal));
        arts.push(art);
        own_moves.push(own);
    }
    // How else a game is won: `win = { extinction = "Q", flag = { piece =
    // "K", white = "d4 e4 d5 e5", black = ... } }`.
    let letters: Vec<char> = read_pieces.iter().map(|p| p.0).collect();
    let known = |c: char, path: &[&str]| -> Result<char, DefinitionError> {
        if letters.contains(&c) {
            Ok(c)
        } else {
            Err(err(path, format!("`{c}` is no piece of this game")))
        }
    };
    let (mut extinction, mut flag, mut captures_forced) = (Vec::new(), None, false);
    let mut bare_king = false;
    match table.get("win") {
        None => {}
        Some(Value::Table(w)) => {
            for (k, v) in w {
                match (k.as_str(), v) {
                    ("extinction", Value::String(s)) if !s.is_empty() => {
                        for c in s.chars() {
                            extinction.push(known(c, &["win", "extinction"])?);
                        }
                    }
                    ("captures_forced", Value::Boolean(b)) => captures_forced = *b,
                    ("bare_king", Value::Boolean(b)) => bare_king = *b,
                    ("flag", Value::Table(f)) => {
                        let piece = match f.get("piece") {
                            Some(Value::String(s)) if s.chars().count() == 1 => {
                                known(s.chars().next().unwrap_or('?'), &["win", "flag", "piece"])?
                            }
                            _ => {
                                return Err(err(
                                    &["win", "flag", "piece"],
                                    "the letter of the piece that must arrive".into(),
                                ))
                            }
                        };
                        let squares = |key: &str| -> Result<Option<Vec<crate::Square>>, DefinitionError> {
                            match f.get(key) {
                                None => Ok(None),
                                Some(Value::String(s)) => {
                                    let mut out = Vec::new();
                                    for w in s.split_whitespace() {
                                        match crate::Square::parse(w).filter(|q| q.file() < files && q.rank() < ranks) {
                                            Some(q) => out.push(q),
                                            None => return Err(err(&["win", "flag", key], format!("`{w}` is not a square of this board"))),
                                        }
                                    }
                                    if out.is_empty() {
                                        return Err(err(&["win", "flag", key], "at least one square".into()));
                                    }
                                    Ok(Some(out))
                                }
                                Some(_) => Err(err(&["win", "flag", key], "squares as a string: \"d4 e4 d5 e5\"".into())),
                            }
                        };
                        let Some(white) = squares("white")? else {
                            return Err(err(&["win", "flag", "white"], "White's squares: \"d4 e4 d5 e5\"".into()));
                        };
                        let black = squares("black")?.unwrap_or_else(|| white.clone());
                        flag = Some(Flag { piece, squares: [white, black] });
                    }
                    _ => {
                        return Err(err(
                            &["win", k],
                            "a win is `extinction = \"LETTERS\"`, `flag = { piece, white, black }`, `captures_forced = true` or `bare_king = true`".into(),
                        ))
                    }
                }
            }
        }
        Some(_) => {
            return Err(err(
                &["win"],
                "a table: `win = { extinction = \"Q\" }` or `win = { flag = { piece = \"K\", white = \"d4 e4 d5 e5\" } }`".into(),
            ))
        }
    }
    // Giveaway: with captures forced, the side left without a move (or a
    // piece) wins by the stalemate rule.
    // Under a hook, each letter is that game's piece of the letter, and its
    // royal piece is royal.
    if let (Some(k), Some(d)) = (hook, &hooked) {
        for p in &mut read_pieces {
            let Some(rd) = d.roster.iter().find(|r| r.letter == p.0) else {
                let letters: String = d.roster.iter().map(|r| r.letter).collect();
                return Err(err(
                    &["pieces", &p.0.to_string()],
                    format!("the hook `{}` knows the pieces {letters} only", k.name()),
                ));
            };
            p.3 = d.royal == Some(rd.role);
        }
    }
    let other_win = !extinction.is_empty() || flag.is_some() || captures_forced || hooked.is_some();
    let royals: Vec<char> = read_pieces.iter().filter(|p| p.3).map(|p| p.0).collect();
    match royals.as_slice() {
        [_] => {}
        [] if other_win => {}
        [] => {
            return Err(err(
                &["pieces"],
                "no royal piece and no other way to win: mark one piece `royal = true` (or write its moves as \"king\")".into(),
            ))
        }
        more => {
            return Err(err(
                &["pieces"],
                format!("one royal piece only; {} are marked", more.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")),
            ))
        }
    }
    if read_pieces.iter().filter(|p| p.1 == "pawn").count() > 1 {
        return Err(err(&["pieces"], "one pawn piece only".into()));
    }

    // Castling: which letter is the rook.
    let castling_table = match table.get("castling") {
        None | Some(Value::Boolean(false)) => None,
        Some(Value::Table(t)) => Some(t.clone()),
        Some(Value::Boolean(true)) => Some(Table::new()),
        Some(_) => {
            return Err(err(
                &["castling"],
                "false, true, or a table of files".into(),
            ))
        }
    };
    let rook_letter = castling_table.as_ref().map(|t| match t.get("rook") {
        Some(Value::String(r)) => r.chars().next().unwrap_or('R'),
        _ => 'R',
    });

    // Roles: the royal is the king, a pawn the pawn, the castling partner
    // the rook, `N B R Q` their own where free, the rest the spare ones.
    let mut taken: Vec<Role> = Vec::new();
    let mut roles: Vec<Option<Role>> = vec![None; read_pieces.len()];
    for (i, p) in read_pieces.iter().enumerate() {
        let hooked_role = hooked
            .as_ref()
            .and_then(|d| d.roster.iter().find(|r| r.letter == p.0))
            .map(|r| r.role);
        let role = if hooked_role.is_some() {
            hooked_role
        } else if p.3 {
            Some(Role::King)
        } else if p.1 == "pawn" {
            Some(Role::Pawn)
        } else if Some(p.0) == rook_letter {
            Some(Role::Rook)
        } else {
            None
        };
        if let Some(r) = role {
            taken.push(r);
            roles[i] = Some(r);
        }
    }
    // `N B R Q` (and `K`) keep their own roles first, so that no other
    // letter takes them.
    for (i, p) in read_pieces.iter().enumerate() {
        let own = match p.0 {
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            // A king that is no royal piece (antichess's) stays a king,
            // where no other piece is royal.
            'K' => Some(Role::King),
            _ => None,
        }
        .filter(|r| !taken.contains(r));
        if let (None, Some(r)) = (roles[i], own) {
            taken.push(r);
            roles[i] = Some(r);
        }
    }
    for (i, _) in read_pieces.iter().enumerate() {
        if roles[i].is_some() {
            continue;
        }
        let role = SPARE_ROLES.iter().copied().find(|r| !taken.contains(r));
        let Some(role) = role else {
            return Err(err(
                &["pieces"],
                format!("too many pieces: at most {MAX_PIECES}"),
            ));
        };
        taken.push(role);
        roles[i] = Some(role);
    }
    let mut specs = Vec::new();
    for ((((letter, moves, piece_name, royal), role), art), own) in
        read_pieces.into_iter().zip(roles).zip(arts).zip(own_moves)
    {
        let path = ["pieces".to_string(), letter.to_string()];
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let mut components = match moves.as_str() {
            "pawn" => vec![Component::Pawn],
            "king" => king().components,
            // Only a hook moves such a piece (Black Holes' holes).
            "none" if hook.is_some() => Vec::new(),
            "" if !own.components.is_empty() => Vec::new(),
            betza_text => {
                betza::parse(betza_text).map_err(|e| err(&path, format!("`{betza_text}`: {e}")))?
            }
        };
        components.extend(own.components);
        if components.is_empty() && !(hook.is_some() && moves == "none") {
            return Err(err(&path, "a piece that can never move".into()));
        }
        specs.push(PieceSpec {
            letter,
            name: piece_name,
            moves,
            royal,
            role: role.expect("every piece has a role"),
            art,
            crosses_void: own.crosses_void,
            heals: own.heals,
            own_words: own.words,
            components,
        });
    }

    // Promotion.
    let promotion: Vec<char> = match table.get("promotion") {
        None => specs
            .iter()
            .filter(|p| !p.royal && p.moves != "pawn")
            .map(|p| p.letter)
            .collect(),
        Some(Value::String(s)) => {
            let mut out = Vec::new();
            for c in s.chars() {
                let ok = specs
                    .iter()
                    .any(|p| p.letter == c && !p.royal && p.moves != "pawn");
                if !ok {
                    return Err(err(
                        &["promotion"],
                        format!("`{c}` is not a piece a pawn may become here"),
                    ));
                }
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            out
        }
        Some(_) => {
            return Err(err(
                &["promotion"],
                "the letters a pawn may become, like \"QRBN\"".into(),
            ))
        }
    };

    let promotion_default = match table.get("promotion_default") {
        None => None,
        Some(Value::String(d))
            if d.chars().count() == 1 && promotion.contains(&d.chars().next().unwrap_or(' ')) =>
        {
            d.chars().next()
        }
        Some(_) => {
            return Err(err(
                &["promotion_default"],
                format!(
                    "the letter of the piece a pawn becomes when none is named, one of {}",
                    promotion.iter().collect::<String>()
                ),
            ))
        }
    };

    // Castling geometry: the king's file from the start, the rooks in the
    // corners unless said, the king to g and c unless said, each rook to
    // the square the king crossed.
    let castling = match castling_table {
        None => None,
        Some(t) => {
            let file = |key: &str, default: [u8; 2]| -> Result<[u8; 2], DefinitionError> {
                match t.get(key) {
                    None => Ok(default),
                    Some(Value::Array(a)) if a.len() == 2 => {
                        let mut out = [0u8; 2];
                        for (i, v) in a.iter().enumerate() {
                            let f = v.as_str().and_then(|s| {
                                let mut c = s.chars();
                                match (c.next(), c.next()) {
                                    (Some(c), None) if ('a'..='p').contains(&c) => {
                                        Some(c as u8 - b'a')
                                    }
                                    _ => None,
                                }
                            });
                            match f.filter(|f| *f < files) {
                                Some(f) => out[i] = f,
                                None => return Err(err(&["castling", key], "two files of this board, like [\"g\", \"c\"] (king side first)".to_string())),
                            }
                        }
                        Ok(out)
                    }
                    Some(_) => Err(err(
                        &["castling", key],
                        "two files, king side first, like [\"g\", \"c\"]".into(),
                    )),
                }
            };
            for k in t.keys() {
                if !["king_to", "rook_from", "rook_to", "rook", "rank"].contains(&k.as_str()) {
                    return Err(err(
                        &["castling", k],
                        "unknown field; castling has king_to, rook_from, rook_to, rook, rank"
                            .into(),
                    ));
                }
            }
            // The rank king and rooks castle on, from each side's own first
            // (1): Shako castles on its second.
            let rank: u8 = match t.get("rank") {
                None => 1,
                Some(Value::Integer(r)) if (1..=i64::from(ranks / 2)).contains(r) => *r as u8,
                Some(_) => {
                    return Err(err(
                        &["castling", "rank"],
                        format!("a rank of each side's own half: 1 to {}", ranks / 2),
                    ))
                }
            };
            let home: Option<&str> = start
                .split_whitespace()
                .next()
                .and_then(|b| b.split('/').nth_back(usize::from(rank - 1)));
            let king_letter = specs
                .iter()
                .find(|p| p.royal)
                .map(|p| p.letter)
                .unwrap_or('K');
            let king_file = home.and_then(|rank| {
                let mut f = 0u8;
                let mut digits = String::new();
                for c in rank.chars() {
                    if c.is_ascii_digit() {
                        digits.push(c);
                        continue;
                    }
                    f = f.saturating_add(digits.parse::<u8>().unwrap_or(0));
                    digits.clear();
                    if c == king_letter {
                        return Some(f);
                    }
                    f = f.saturating_add(1);
                }
                None
            });
            let Some(king_file) = king_file else {
                return Err(err(&["castling"], format!("castling needs the royal piece `{king_letter}` on White's rank {rank} at the start")));
            };
            if !specs.iter().any(|p| p.role == Role::Rook) {
                return Err(err(
                    &["castling"],
                    "castling needs a rook: a piece `R`, or name its letter with `rook = \"C\"`"
                        .into(),
                ));
            }
            let king_to = file("king_to", [6.min(files - 1), 2])?;
            let rook_from = file("rook_from", [files - 1, 0])?;
            let rook_to = file("rook_to", [king_to[0].saturating_sub(1), king_to[1] + 1])?;
            Some(CastlingDef {
                rank: rank - 1,
                king_file,
                rook_from,
                king_to,
                rook_to,
            })
        }
    };

    let double_step = match table.get("double_step") {
        None => true,
        Some(Value::Boolean(b)) => *b,
        Some(_) => return Err(err(&["double_step"], "true or false".into())),
    };
    let stalemate =
        match table.get("stalemate").map(|v| v.as_str()) {
            None | Some(Some("draw")) => Stalemate::Draw,
            Some(Some("loss")) => Stalemate::Loss,
            Some(Some("win")) => Stalemate::Win,
            Some(_) => return Err(err(
                &["stalemate"],
                "how a stalemate scores for the side with no move: \"draw\", \"loss\" or \"win\""
                    .into(),
            )),
        };
    let move_rule = match table.get("move_rule") {
        None => 50,
        Some(Value::Integer(n)) if (0..=MAX_MOVE_RULE).contains(n) => *n as u16,
        Some(_) => return Err(err(&["move_rule"], format!("moves without a capture or pawn move that draw, 0 to {MAX_MOVE_RULE} (0: no such rule)"))),
    };
    let rank_field = |key: &str, what: &str| -> Result<Option<u8>, DefinitionError> {
        match table.get(key) {
            None => Ok(None),
            Some(Value::Integer(n)) if (2..i64::from(ranks)).contains(n) => Ok(Some(*n as u8)),
            Some(_) => Err(err(
                &[key],
                format!(
                    "{what}, counted from each side's own first rank: 2 to {}",
                    ranks - 1
                ),
            )),
        }
    };
    let double_step_rank = rank_field("double_step_rank", "the rank pawns double-step from")?;
    let promotion_zone = rank_field("promotion_zone", "the first rank where a pawn may promote")?;
    let promotion_limited = match table.get("promotion_limited") {
        None => false,
        Some(Value::Boolean(b)) => *b,
        Some(_) => {
            return Err(err(
                &["promotion_limited"],
                "true or false: whether a pawn becomes only a piece its side has lost".into(),
            ))
        }
    };
    let void_tiles = match table.get("tiles") {
        None => false,
        Some(Value::String(t)) if t.trim() == "void" => true,
        Some(_) => {
            return Err(err(
                &["tiles"],
                "the tile layer to switch on: \"void\" (Void Chess's unstable tiles and voids)"
                    .into(),
            ))
        }
    };
    let promotion_rank = match table.get("promotion_rank") {
        None => None,
        Some(Value::Integer(n)) if (2..=i64::from(ranks)).contains(n) => Some(*n as u8),
        Some(_) => {
            return Err(err(
                &["promotion_rank"],
                format!("the rank where pawns promote, counted from each side's own first rank: 2 to {ranks}"),
            ))
        }
    };
    // A game may share a built-in game's name only as that game's own
    // shipped file (its twin).
    let builtin = GameKind::built_in_named(name).is_some();
    // By its text alone: a configuration may name the shipped files by
    // any path (`/srv/voidmate/variants/*.toml`).
    let shipped = super::SHIPPED.iter().any(|(_, t)| *t == lines.text);
    if builtin && !shipped {
        return Err(err(
            &[],
            format!("`{name}` is a built-in game; give yours another name"),
        ));
    }
    let mut spec = Spec {
        name: name.to_string(),
        title,
        description,
        file: file.to_string(),
        line: lines.of(&[name]),
        files,
        ranks,
        start: start.clone(),
        pieces: specs,
        promotion,
        promotion_default,
        castling,
        double_step,
        stalemate,
        move_rule,
        promotion_rank,
        double_step_rank,
        promotion_zone,
        promotion_limited,
        extinction,
        flag,
        captures_forced,
        bare_king,
        void_tiles,
        hook,
        table,
        hash: String::new(),
    };
    spec.hash = spec.digest();
    // The start must be a position of this game: read it under rules built
    // for the purpose (kept, as every game's rules are).
    let probe = super::build(spec.clone());
    if let Err(e) = crate::Position::from_fen(probe, &start) {
        return Err(err(
            &["start"],
            format!("`{start}` is no start for this game: {e}"),
        ));
    }
    Ok(spec)
}

/// A piece's moves in our own form, beside Betza (see [`super::legs`]).
#[derive(Default)]
struct OwnMoves {
    components: Vec<Component>,
    words: Vec<String>,
    crosses_void: bool,
    heals: bool,
}

/// Reads `leaps`, `paths`, `walk`, `crosses_void` and `heals` from a
/// piece's table; an error names its key.
fn own_moves_of(t: &Table) -> Result<OwnMoves, (&'static str, String)> {
    let strings = |key: &'static str| -> Result<Option<Vec<&str>>, (&'static str, String)> {
        match t.get(key) {
            None => Ok(None),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().ok_or((key, "a list of strings".to_string())))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err((key, "a list of strings".into())),
        }
    };
    let flag = |key: &'static str| -> Result<bool, (&'static str, String)> {
        match t.get(key) {
            None => Ok(false),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(_) => Err((key, "true or false".into())),
        }
    };
    let mut own = OwnMoves {
        crosses_void: flag("crosses_void")?,
        heals: flag("heals")?,
        ..OwnMoves::default()
    };
    if let Some(items) = strings("leaps")? {
        own.components
            .push(super::legs::leaps(&items).map_err(|e| ("leaps", e))?);
        own.words.push(format!(
            "leaps {} (files, ranks), each any way round, jumping",
            items.join(" and ")
        ));
    }
    if let Some(items) = strings("paths")? {
        own.components
            .push(super::legs::paths(&items).map_err(|e| ("paths", e))?);
        own.words.push(format!(
            "goes along {} (steps of each atom in a line, turning between them), every square before the last empty",
            items.join(" or ")
        ));
    }
    match t.get("walk") {
        None => {}
        Some(Value::String(w)) => {
            own.components
                .push(super::legs::walk(w).map_err(|e| ("walk", e))?);
            own.words.push(format!(
                "walks one or two steps of `{w}`, the second from a free square and not back to the start; a capture ends the move"
            ));
        }
        Some(_) => return Err(("walk", "an atom, like \"K\"".into())),
    }
    if own.crosses_void {
        own.words.push("crosses and lands on voids".into());
    }
    if own.heals {
        own.words
            .push("is never lost to an unstable tile and heals the tile it lands on".into());
    }
    Ok(own)
}
