//! How pieces move, described as data.
//!
//! A variant lists each role of its roster with a [`Movement`]: a few
//! components, each one of the classic families of fairy-chess pieces. The
//! engine turns them into generation and attack tables once per variant.

/// A (file, rank) displacement, from the mover's point of view for White;
/// pawns mirror it for Black.
pub type Vector = (i8, i8);

/// One way a piece moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Component {
    /// Jumps straight to each target, whatever stands between (knight, king).
    Leap(Vec<Vector>),
    /// Slides along each direction over empty squares, up to `range` squares
    /// (`None`: to the edge), capturing the first enemy it meets (rook, bishop).
    Ride {
        dirs: Vec<Vector>,
        range: Option<u8>,
    },
    /// A lame two-step walker (the Minister): one step to any of `steps`; if
    /// that square was free it may take a second step from `steps` to any
    /// square but its origin. A capture ends the move.
    TwoStep { steps: Vec<Vector> },
    /// The orthodox pawn: one step forward to an empty square (two from its
    /// starting rank), captures one step diagonally forward, en passant, and
    /// promotion on the last rank.
    Pawn,
    /// Fixed lame paths (Super Chess's Archbishop): each path is a list of
    /// steps; every square before the last must be empty, and the last may
    /// hold an enemy to capture.
    Path(Vec<Vec<Vector>>),
    /// A hopper (Betza's `p` and `g`): along each direction it passes over
    /// empty squares to the first piece of either side, the screen, and
    /// jumps it; `landing` says where it may come down.
    Hop { dirs: Vec<Vector>, landing: Landing },
    /// A part of a piece's moves that only moves or only captures (Betza's
    /// `m` and `c`; the xiangqi cannon is `mR` with `cpR`). The part is a
    /// leap, a ride or a hop.
    Only { only: Only, part: Box<Component> },
}

/// Where a hopper comes down past its screen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Landing {
    /// On any empty square beyond the screen, up to and including the first
    /// enemy, which it captures (Betza's `p`, the cannon's way).
    Beyond,
    /// On the square just past the screen only: empty, or an enemy to
    /// capture (Betza's `g`, the grasshopper).
    Next,
}

/// Which half of a move a part of a piece may make.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Only {
    /// To an empty square only (`m`).
    Moves,
    /// Onto an enemy only (`c`).
    Captures,
}

/// A role's whole movement and its relation to the tile layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    pub components: Vec<Component>,
    /// May land on and pass over void tiles (the Minister).
    pub crosses_void: bool,
    /// Never destroyed by an unstable tile, and heals the tile it lands on.
    pub heals: bool,
}

impl Movement {
    pub fn of(components: Vec<Component>) -> Movement {
        Movement {
            components,
            crosses_void: false,
            heals: false,
        }
    }
}

pub const ORTHOGONAL: [Vector; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [Vector; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub const KNIGHT: [Vector; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The eight king steps.
pub fn king_steps() -> Vec<Vector> {
    ORTHOGONAL.iter().chain(DIAGONAL.iter()).copied().collect()
}

pub fn knight() -> Movement {
    Movement::of(vec![Component::Leap(KNIGHT.to_vec())])
}

pub fn bishop() -> Movement {
    Movement::of(vec![Component::Ride {
        dirs: DIAGONAL.to_vec(),
        range: None,
    }])
}

pub fn rook() -> Movement {
    Movement::of(vec![Component::Ride {
        dirs: ORTHOGONAL.to_vec(),
        range: None,
    }])
}

pub fn queen() -> Movement {
    Movement::of(vec![Component::Ride {
        dirs: king_steps(),
        range: None,
    }])
}

pub fn king() -> Movement {
    Movement::of(vec![Component::Leap(king_steps())])
}

pub fn pawn() -> Movement {
    Movement::of(vec![Component::Pawn])
}

/// The Void Chess Minister: a two-step king walker that crosses and heals voids.
pub fn minister() -> Movement {
    Movement {
        components: vec![Component::TwoStep {
            steps: king_steps(),
        }],
        crosses_void: true,
        heals: true,
    }
}
