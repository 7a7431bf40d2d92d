//! What a piece is ([`Role`]) and a piece of a side ([`Piece`]).

use crate::Color;
use std::fmt;

/// The kind of a piece, whichever side owns it. How a role moves is not fixed
/// here: each variant describes its roster (see [`crate::movement`]), so the
/// same role may be defined differently by two games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    /// Void Chess: steps once or twice (a lame two-step), crosses and heals voids.
    Minister = 6,
    /// Chess 99: knight + bishop.
    Paladin = 7,
    Prince = 8,
    Princess = 9,
    Archbishop = 10,
    SuperKnight = 11,
    Fortress = 12,
    Programmable = 13,
    /// Black Holes' hole.
    Hole = 14,
}

impl Role {
    pub const ALL: [Role; 15] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Minister,
        Role::Paladin,
        Role::Prince,
        Role::Princess,
        Role::Archbishop,
        Role::SuperKnight,
        Role::Fortress,
        Role::Programmable,
        Role::Hole,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub(crate) const fn bit(self) -> u16 {
        1 << self as u16
    }

    #[inline]
    pub(crate) fn from_index(i: u8) -> Role {
        Role::ALL[i as usize]
    }

    /// The English name, lower case: "knight", "minister".
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Minister => "minister",
            Role::Paladin => "paladin",
            Role::Prince => "prince",
            Role::Princess => "princess",
            Role::Archbishop => "archbishop",
            Role::SuperKnight => "super knight",
            Role::Fortress => "fortress",
            Role::Programmable => "programmable piece",
            Role::Hole => "hole",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role and the side it belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
