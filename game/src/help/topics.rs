//! The rules explained per game and topic, in our own words, with a
//! diagram where a picture says it better: the topics `rules` names, and
//! part of what answers a question in a player's words.

use voidmate_rules::GameKind;

/// A position to draw beside a rules answer.
#[derive(Debug)]
pub struct Diagram {
    pub fen: &'static str,
    /// Mark this piece's moves.
    pub select: Option<&'static str>,
    pub caption: &'static str,
}

#[derive(Debug)]
pub struct Topic {
    pub variant: GameKind,
    pub key: &'static str,
    pub title: &'static str,
    /// Words that point to this topic in a free-form question.
    pub keywords: &'static [&'static str],
    pub text: &'static str,
    pub diagram: Option<Diagram>,
}

/// The topics of `kind`'s rules, the first its overview. One arm per game,
/// so a new game does not compile until it has its help; the
/// promotion-wins option shares Suicide Void Chess's ([`GameKind::base`]).
fn topics_for(kind: GameKind) -> &'static [Topic] {
    match kind.base() {
        GameKind::Standard => STANDARD,
        GameKind::Void => VOID,
        GameKind::Antichess => ANTICHESS,
        GameKind::SuicideVoid | GameKind::SuicideVoidPromotionWins => SUICIDE_VOID,
        GameKind::Chess99 => CHESS99,
        GameKind::BlackHoles => BLACK_HOLES,
        GameKind::Super16 => SUPER16,
        // A game read from a file has its help from its file (`defined`).
        GameKind::Defined(_) => &[],
    }
}

/// Every topic of every game (each once).
pub fn all_topics() -> impl Iterator<Item = &'static Topic> {
    GameKind::ALL
        .into_iter()
        .filter(|k| k.base() == *k)
        .flat_map(topics_for)
}

const VOID: &[Topic] = &[
    Topic {
        variant: GameKind::Void,
        key: "setup",
        title: "Void Chess: board and set-up",
        keywords: &["setup", "set-up", "start", "board", "9x9", "begin", "overview", "basics"],
        text: "Void Chess is played on a 9x9 board, files a to i. Each side has nine pawns and, from the a-file: \
               rook, knight, bishop, queen, king, bishop, Minister, knight, rook. Everything you know from chess \
               still holds; the new parts are the Minister and a floor that breaks under captures.",
        diagram: Some(Diagram {
            fen: "rnbqkbmnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKBMNR w KQkq - 0 1",
            select: None,
            caption: "The starting position",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "minister",
        title: "The Minister",
        keywords: &["minister", "m", "move", "moves", "walk", "step", "steps", "two", "reach", "jump", "over", "blocked"],
        text: "The Minister takes one or two king steps. The first step goes to any neighbouring square that is \
               empty or void, or captures an enemy there (a capture ends its move). After a free first step it \
               may take a second step in any direction, except back to where it started. On an open board that \
               reaches all 24 squares of the 5x5 block around it. It never jumps over a piece: one on its \
               first square stops it there.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/9/4M4/9/9/9/4K4 w - - 0 1",
            select: Some("e5"),
            caption: "Every square the Minister can reach",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "minister-blocked",
        title: "When the Minister is hemmed in",
        keywords: &["minister", "blocked", "surrounded", "opening", "gap", "hemmed", "stuck", "diagonal", "orthogonal"],
        text: "The Minister needs a free neighbouring square to walk through. Surrounded by its own pieces it \
               cannot move at all. One straight gap gives it 4 moves; one diagonal gap gives 6, because the \
               second step can turn.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/3NN4/3NMN3/3NNN3/9/9/4K4 w - - 0 1",
            select: Some("e5"),
            caption: "One diagonal gap: six moves",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "healing",
        title: "The Minister heals and crosses voids",
        keywords: &["minister", "heal", "heals", "healing", "cross", "crosses", "crossing", "immune", "repair", "fix", "close", "closes", "destroyed", "safe"],
        text: "The Minister is the only piece that may step onto a void or walk across one. The square it lands \
               on becomes normal again: a void closes, an unstable tile calms down, and its own captures leave \
               no unstable tile. Squares it only passes over stay as they are. Tiles never destroy a Minister.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/3N1N3/3NMN3/3NNN3/9/9/4K4 w - - 0 1 void:e6",
            select: Some("e5"),
            caption: "Through the void on e6, or onto it",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "unstable",
        title: "Captures make unstable tiles",
        keywords: &["capture", "captures", "unstable", "red", "glow", "tile", "tiles", "destroyed", "destroy", "collapse", "become", "becomes", "made", "create", "appear"],
        text: "Every capture (except a Minister's) leaves the square unstable, owned by the side that captured. \
               When that side makes its next move, the tile collapses into a void. A piece still standing on it \
               falls in and is lost; a piece that moved away is safe. Capturing on an unstable tile hands it to \
               the new capturer. The picture marks unstable tiles with a red glow, stripes, and a badge in the \
               owner's colour.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/9/R8/9/9/9/4K4 b - - 0 1 unstable:a5w1",
            select: None,
            caption: "White's rook just captured on a5",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "voids",
        title: "Void tiles",
        keywords: &["void", "voids", "hole", "holes", "block", "blocks", "jump", "knight", "permanent", "forever", "through", "pass", "bishop", "rook", "slide", "cross"],
        text: "A void is a hole in the board and stays one unless a Minister lands on it. No other piece may land \
               on a void or pass along one: rooks, bishops, queens and pawns are stopped by it, and a knight may \
               jump over it but not onto it.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/9/9/9/9/9/R3K4 w - - 0 1 void:a4",
            select: Some("a1"),
            caption: "The void on a4 stops the rook",
        }),
    },
    Topic {
        variant: GameKind::Void,
        key: "king",
        title: "The king and the void",
        keywords: &["king", "kings", "lost", "trapped", "escape", "must", "unstable", "forced", "other", "instead", "different", "standing"],
        text: "If your king starts your turn on an unstable tile, you must move the king. If it has no move, it \
               falls into the void and you lose, unless it is also in check, in which case it is simply \
               checkmate.",
        diagram: None,
    },
    Topic {
        variant: GameKind::Void,
        key: "castling",
        title: "Castling in Void Chess",
        keywords: &["castle", "castling", "o-o", "0-0"],
        text: "Castle as in chess: the king moves two squares towards a rook and the rook jumps over it. Short: \
               king e1 to g1, rook i1 to f1. Long: king e1 to c1, rook a1 to d1. The squares between must be \
               empty (a void is not empty), and the king may not be in check or cross an attacked square. \
               So you never castle through an unstable tile: it holds the capturing piece until it collapses, \
               and then it is a void.",
        diagram: None,
    },
    Topic {
        variant: GameKind::Void,
        key: "promotion",
        title: "Promotion",
        keywords: &["promote", "promotion", "promoting", "queen", "last", "rank", "back", "again", "new"],
        text: "A pawn reaching the far rank becomes a queen, rook, bishop, knight or Minister: write `e9=M` for a \
               Minister. Promoting to a Minister heals the square the pawn lands on.",
        diagram: None,
    },
    Topic {
        variant: GameKind::Void,
        key: "endings",
        title: "How a game of Void Chess ends",
        keywords: &["end", "ends", "win", "lose", "loss", "draw", "draws", "checkmate", "stalemate", "repetition", "fifty", "50", "fortress", "siege", "result"],
        text: "You win by checkmate, or when the enemy king is lost to the void. It is a draw by stalemate, \
               threefold repetition (tiles count), 50 moves without a capture, pawn move or loss to the void, \
               bare kings, or a void fortress: a king walled in by voids that no enemy piece can ever reach, \
               with no Minister on the board and no pawn able to promote. With a Minister about, a small \
               walled-in fortress that stays unbroken for 20 full moves is a draw too.",
        diagram: None,
    },
];

const STANDARD: &[Topic] = &[
    Topic {
        variant: GameKind::Standard,
        key: "setup",
        title: "Standard chess",
        keywords: &["standard", "chess", "setup", "start", "normal", "orthodox"],
        text: "Standard chess as FIDE plays it, on 8x8. Draws by threefold repetition and the 50-move rule are \
               automatic here; a promotion must name its piece (`e8=Q`).",
        diagram: Some(Diagram {
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            select: None,
            caption: "The starting position",
        }),
    },
];

const ANTICHESS: &[Topic] = &[
    Topic {
        variant: GameKind::Antichess,
        key: "rules",
        title: "Antichess (giveaway chess)",
        keywords: &["antichess", "giveaway", "losing", "rules", "capture", "compulsory", "win", "king"],
        text: "The aim is turned around: get rid of all your pieces, or run out of moves, and you win. \
               Whenever you can capture, you must (pick any capture you like). The king is just another \
               piece: no check, no castling, it can be taken, and a pawn may promote to one.",
        diagram: None,
    },
];

const SUICIDE_VOID: &[Topic] = &[
    Topic {
        variant: GameKind::SuicideVoid,
        key: "rules",
        title: "Suicide Void Chess",
        keywords: &["suicide", "rules", "overview", "basics", "win", "goal", "aim", "compulsory", "king", "check", "checkmate", "royal", "taken"],
        text: "Giveaway chess with a hole in the board. Lose all your pieces, or be left without a move, and \
               you win. A capture is compulsory when one is possible (any capture will do). The king is an \
               ordinary piece: no check, no castling, and pawns may promote to a king. Repetition three \
               times, or 50 moves without a capture or pawn move, is a draw.",
        diagram: None,
    },
    Topic {
        variant: GameKind::SuicideVoid,
        key: "void",
        title: "The void square",
        keywords: &["void", "place", "placing", "placement", "start", "first", "setup", "coin", "land", "jump", "knight", "pass", "put", "puts"],
        text: "The game opens with Black putting the void on any empty square: write `@e5`. Then White \
               makes the first real move. No piece may stop on the void, and only a knight may get past \
               it: a rook, bishop, queen or a pawn's double step is blocked by it, as by a wall.",
        diagram: Some(Diagram {
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 void:d4",
            select: None,
            caption: "The void placed on d4",
        }),
    },
    Topic {
        variant: GameKind::SuicideVoid,
        key: "capture",
        title: "Captures move the void",
        keywords: &["capture", "captures", "take", "move", "moves", "relocate", "after", "at", "notation"],
        text: "Whoever captures also moves the void, in the same move, to another empty square: write the \
               capture, then `@` and the square, like `Bxe5@d4` (or `f1e5@d4`). The square the capturing \
               piece left counts as empty. Whether you must capture is decided with the void where it \
               stands before your move.",
        diagram: Some(Diagram {
            fen: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2 void:e5",
            select: Some("e4"),
            caption: "White must take on d5, then moves the void",
        }),
    },
    Topic {
        variant: GameKind::SuicideVoid,
        key: "promotion-wins",
        title: "The promotion-wins option",
        keywords: &["promotion", "promote", "wins", "option", "last", "rank", "pw"],
        text: "Chosen at the challenge (`challenge @bob suicide-void promotion-wins`): a pawn that reaches \
               its last rank wins the game at once. One exception: if that pawn's move captures the \
               opponent's very last piece, the capture counts first, and the opponent, now without \
               pieces, wins.",
        diagram: None,
    },
];

const CHESS99: &[Topic] = &[
    Topic {
        variant: GameKind::Chess99,
        key: "rules",
        title: "Chess 99",
        keywords: &["99", "chess99", "rules", "overview", "basics", "setup", "goal", "aim", "win", "capture", "king", "leave", "illegal"],
        text: "Chess 99 is played on 9x9 with a new piece, the paladin (written A), which moves as a knight \
               and as a bishop. The queens stand to the left of their kings and do not face each other. The \
               goal is to capture the enemy king, not to mate it: you may leave your own king attacked, at \
               your own risk.",
        diagram: Some(Diagram {
            fen: "rnbakqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w - - 0 1",
            select: None,
            caption: "The starting position",
        }),
    },
    Topic {
        variant: GameKind::Chess99,
        key: "paladin",
        title: "The paladin",
        keywords: &["paladin", "a", "piece", "pieces", "knight", "bishop", "leap", "slide"],
        text: "The paladin (letter A) combines two pieces you know: it leaps like a knight and slides along \
               diagonals like a bishop. Each side has one: White's starts on f1, beside its king, and Black's on \
               d9, beside its king too (the queens stand on the other side, so they do not face each other).",
        diagram: Some(Diagram {
            fen: "4k4/9/9/9/4A4/9/9/9/4K4 w - - 0 1",
            select: Some("e5"),
            caption: "Where a paladin can go",
        }),
    },
    Topic {
        variant: GameKind::Chess99,
        key: "pawns",
        title: "Chess 99 pawns and en passant",
        keywords: &["pawn", "pawns", "double", "two", "passant", "en", "step"],
        text: "A pawn may advance one or two empty squares on any move, not only its first. After a \
               two-square advance, on the very next move, any enemy piece that could capture on the square \
               the pawn passed may take it there: the piece lands on that square and the pawn is removed.",
        diagram: Some(Diagram {
            fen: "4k4/9/9/3pN4/9/9/9/9/4K4 w - d7 0 2",
            select: Some("e6"),
            caption: "The knight may take the d-pawn on d7",
        }),
    },
    Topic {
        variant: GameKind::Chess99,
        key: "castling",
        title: "Castling in Chess 99",
        keywords: &["castle", "castling", "swap", "king", "rook", "queen"],
        text: "The king castles with any piece of yours right next to it on your first rank (they swap \
               places), or with your queen or a rook further along that rank when only empty squares lie \
               between: the king steps one square towards it and that piece takes the king's square. As \
               often as you like, in check or into check. Write it with the partner's square: `O-h1` (or \
               `e1h1`).",
        diagram: Some(Diagram {
            fen: "4k4/9/9/9/9/9/9/9/R3K3R w - - 0 1",
            select: Some("e1"),
            caption: "Castling with either rook across empty squares",
        }),
    },
    Topic {
        variant: GameKind::Chess99,
        key: "promotion",
        title: "Delayed promotion",
        keywords: &["promotion", "promote", "last", "rank", "knight", "bishop", "delayed"],
        text: "A pawn that reaches the last rank stays a pawn for now. On any later turn you may turn it into \
               a knight or a bishop and move that new piece at once, in the same move: write `e9=Nd7` (or \
               in coordinates `e9d7n`).",
        diagram: None,
    },
    Topic {
        variant: GameKind::Chess99,
        key: "draws",
        title: "How Chess 99 games end",
        keywords: &["draw", "draws", "end", "claim", "99", "pyrrhic", "stalemate", "repetition", "check", "king", "capture", "attacked", "win", "material", "lone", "bare"],
        text: "Capturing the king wins, except when your own king stands attacked after that capture, or \
               when your king is all you have left (a Pyrrhic victory): both are draws. There is no \
               stalemate, repetition or 50-move rule, and no draw for lack of material: a lone king plays on. \
               With both kings attacked the player to move may \
               `claim` a draw; once the opponent has made 99 moves, the player to move may claim with a \
               move (`claim Ke2`), which stands if that move leaves the claimer's king safe.",
        diagram: None,
    },
];

const BLACK_HOLES: &[Topic] = &[
    Topic {
        variant: GameKind::BlackHoles,
        key: "rules",
        title: "Black Holes",
        keywords: &["holes", "rules", "overview", "basics", "setup", "board", "5x8"],
        text: "Chess on a 5x8 board (files a to e) plus holes, which carry pieces across the board. \
               Everything else is as in chess: checkmate wins; stalemate, threefold repetition and the \
               50-move rule draw; castling is long only (king e1 to c1, rook to d1). Knights may be written \
               S as on the original page.",
        diagram: Some(Diagram {
            fen: "rnbqk/ppppp/5/5/5/5/PPPPP/RNBQK w Qq - 0 1",
            select: None,
            caption: "The starting position",
        }),
    },
    Topic {
        variant: GameKind::BlackHoles,
        key: "hole",
        title: "The hole",
        keywords: &["hole", "holes", "move", "moves", "drop", "dropping", "place", "capture", "captured"],
        text: "Instead of moving, you may drop a new hole of yours on any empty square of your first rank: \
               write `(He1)` or `H@e1`. You may have any number of holes. A hole steps like a king, but \
               only to an empty square: it never captures by a normal move, and no normal move can \
               capture it. A pawn may promote to a hole. A dropped hole can block a check along your \
               first rank.",
        diagram: None,
    },
    Topic {
        variant: GameKind::BlackHoles,
        key: "relativistic",
        title: "Relativistic moves",
        keywords: &["relativistic", "through", "transport", "enter", "leave", "white", "teleport", "move", "moves"],
        text: "Any piece but the king may make a normal move into a hole of its own side (the black hole), \
               come out of any of your holes (the white hole; it may be the same one, but a moving hole \
               cannot come out of itself), and continue in the same direction as far as it likes over \
               empty squares, in steps of its own move (a knight leaps on like a nightrider). It stops on an \
               empty square or captures whatever stands there, your own pieces and holes of either side \
               included, but never your own king. A pawn that entered straight may not capture; one that \
               entered diagonally must (en passant too). Write start, black hole, white hole, end: \
               `Ra1-b1-a4xb4`. These threats count as check.",
        diagram: Some(Diagram {
            fen: "rn1qk/p1ppp/Bphh1/3hH/HP3/3N1/PBPPP/RH1QK w - - 0 1",
            select: Some("b2"),
            caption: "The bishop on b2 goes through e5 and out of b1 or a4",
        }),
    },
];

const SUPER16: &[Topic] = &[
    Topic {
        variant: GameKind::Super16,
        key: "rules",
        title: "Super Chess 16x16",
        keywords: &["super", "16x16", "rules", "overview", "setup", "board", "pieces"],
        text: "A 16x16 board, files a to p. Besides the chess pieces each side has a Prince (I), a Princess \
               (S), two Archbishops (H), two Super Knights (U), three Fortresses (F) and a Programmable Piece \
               (G), and sixteen Super Pawns that may advance one or two squares on any move. Checkmate wins; \
               stalemate, threefold repetition and bare kings draw; after 100 moves each without a capture \
               or pawn move a player may `claim` a draw. Player 1 moves first; who that is, and whether the \
               pieces are reprogrammed (default, symmetric or private), is chosen at the challenge.",
        diagram: Some(Diagram {
            fen: "rnbhusqkigbhunfr/5f3f6/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/5F3F6/RNBHUSQKIGBHUNFR w KQkq - 0 1",
            select: None,
            caption: "The starting position",
        }),
    },
    Topic {
        variant: GameKind::Super16,
        key: "pieces",
        title: "Super Chess pieces",
        keywords: &["prince", "princess", "archbishop", "knight", "programmable", "move", "moves", "piece"],
        text: "Each piece with its letter (as in moves and FEN). King K, Queen Q, Rook R, Bishop B and \
               Knight N move as in chess. Super Pawn (P): one or two empty squares forward on every move, \
               capturing one square diagonally forward. Prince (I): up to four squares in any direction, jumping over anything. Princess (S): up to \
               four squares in any direction, sliding (she stops at a blocker). Archbishop (H): three squares \
               diagonally, then one square up, down, left or right; every square on the way must be empty. \
               Super Knight (U): three squares straight, then one diagonally, jumping (so it also moves like \
               a knight). Fortress (F): one square any way. Programmable Piece (G), unprogrammed: one square \
               straight. Losing a prince, princess or any piece but the king does not end the game.",
        diagram: Some(Diagram {
            fen: "k15/16/16/16/16/16/16/16/7H8/16/16/16/16/16/16/15K w - - 0 1",
            select: Some("h8"),
            caption: "Where an Archbishop can go",
        }),
    },
    Topic {
        variant: GameKind::Super16,
        key: "fortress",
        title: "Fortress protection and castling",
        keywords: &["fortress", "protect", "protection", "shelter", "castle", "castling", "destruction", "mutual", "point", "purpose", "useful"],
        text: "A piece standing next to a Fortress of its own side may be captured by an enemy King, Queen, \
               Prince or Princess as usual; any other capturer is removed together with its victim. Castling \
               is as in chess (`O-O`, `O-O-O`); the set-up puts a Fortress in front of each square the king \
               castles to, so a castled king always has one beside it.",
        diagram: None,
    },
    Topic {
        variant: GameKind::Super16,
        key: "programs",
        title: "Reprogramming Super Chess pieces",
        keywords: &["program", "programs", "reprogram", "programmable", "symmetric", "private", "vector", "vectors", "mode"],
        text: "A challenge picks a mode. Default: every piece moves as described. Symmetric: the challenger \
               writes one roster with `program`, and accepting agrees to it; both sides use it. Private: after \
               the challenge is accepted each player sends their own program to me in a direct message; the game \
               starts when both are in, and neither is ever shown to the other. A program gives pieces new \
               vectors, `rank,file` from the owner's side: `N: jump 2,1 1,2; R: slide 1,0 0,1`. A step goes \
               exactly there along a clear straight line; a slide repeats the vector over empty squares; a jump \
               ignores what stands between. Every vector may capture. A programmed pawn still promotes.",
        diagram: None,
    },
];

/// The topics of a variant, for a `rules VARIANT` listing.
pub fn topics_of(variant: GameKind) -> Vec<&'static Topic> {
    topics_for(variant).iter().collect()
}
