//! Board geometry: where the dark squares of an 8x8, 10x10 or 12x12 board sit in the padded
//! bit layout, and how to step along diagonals.

use crate::color::Color;
use crate::square::{Bitboard, Square};

/// Largest board side supported (Canadian draughts).
pub const MAX_SIDE: usize = 12;
/// Largest number of dark squares on a supported board.
pub const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE / 2;

/// One of the four diagonal directions, seen from White's side of the board.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward higher rows and lower files.
    UpLeft,
    /// Toward higher rows and higher files.
    UpRight,
    /// Toward lower rows and lower files.
    DownLeft,
    /// Toward lower rows and higher files.
    DownRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The two directions in which men of `color` move.
    pub const fn forward(color: Color) -> [Direction; 2] {
        match color {
            Color::White => [Direction::UpLeft, Direction::UpRight],
            Color::Black => [Direction::DownLeft, Direction::DownRight],
        }
    }

    /// Row and column change of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::UpLeft => (1, -1),
            Direction::UpRight => (1, 1),
            Direction::DownLeft => (-1, -1),
            Direction::DownRight => (-1, 1),
        }
    }

    /// The direction of a step from one square to another on the same diagonal.
    pub fn between(from: (usize, usize), to: (usize, usize)) -> Option<Direction> {
        let dr = to.0 as i32 - from.0 as i32;
        let dc = to.1 as i32 - from.1 as i32;
        if dr == 0 || dr.abs() != dc.abs() {
            return None;
        }
        Some(match (dr > 0, dc > 0) {
            (true, false) => Direction::UpLeft,
            (true, true) => Direction::UpRight,
            (false, false) => Direction::DownLeft,
            (false, true) => Direction::DownRight,
        })
    }
}

/// The dark squares of a square board with a dark square in White's left corner (a1).
///
/// Variants whose board is turned (Italian) use the same geometry and mirror only their notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    side: u8,
    all: Bitboard,
    rows: [Bitboard; MAX_SIDE],
    dense_to_bit: [u8; MAX_SQUARES],
}

/// The 8x8 board: 32 dark squares.
pub static BOARD_8X8: Geometry = Geometry::new(8);
/// The 10x10 board: 50 dark squares.
pub static BOARD_10X10: Geometry = Geometry::new(10);
/// The 12x12 board: 72 dark squares.
pub static BOARD_12X12: Geometry = Geometry::new(12);

/// First bit of row `row` in the padded layout of a board with `width` dark squares a row.
const fn row_base(width: u32, row: u32) -> u32 {
    row * width + row.div_ceil(2)
}

impl Geometry {
    const fn new(side: u8) -> Geometry {
        assert!(side.is_multiple_of(2) && side as usize <= MAX_SIDE);
        let width = side as u32 / 2;
        let mut all = 0u128;
        let mut rows = [Bitboard::EMPTY; MAX_SIDE];
        let mut dense_to_bit = [0u8; MAX_SQUARES];
        let mut row = 0;
        while row < side as u32 {
            let mut row_bits = 0u128;
            let mut k = 0;
            while k < width {
                let bit = row_base(width, row) + k;
                row_bits |= 1 << bit;
                dense_to_bit[(row * width + k) as usize] = bit as u8;
                k += 1;
            }
            rows[row as usize] = Bitboard(row_bits);
            all |= row_bits;
            row += 1;
        }
        Geometry {
            side,
            all: Bitboard(all),
            rows,
            dense_to_bit,
        }
    }

    /// The geometry of a board with `side` squares along an edge (8, 10 or 12).
    pub fn for_side(side: usize) -> Option<&'static Geometry> {
        match side {
            8 => Some(&BOARD_8X8),
            10 => Some(&BOARD_10X10),
            12 => Some(&BOARD_12X12),
            _ => None,
        }
    }

    /// Squares along an edge.
    pub const fn side(&self) -> usize {
        self.side as usize
    }

    /// Dark squares in a row.
    pub const fn width(&self) -> usize {
        self.side as usize / 2
    }

    /// Number of dark squares.
    pub const fn square_count(&self) -> usize {
        self.side as usize * self.side as usize / 2
    }

    /// Every dark square of the board.
    pub const fn all(&self) -> Bitboard {
        self.all
    }

    /// The dark squares of row `row` (0 = White's back rank).
    pub const fn row(&self, row: usize) -> Bitboard {
        self.rows[row]
    }

    /// The row on which men of `color` are crowned.
    pub const fn promotion_row(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.rows[self.side as usize - 1],
            Color::Black => self.rows[0],
        }
    }

    /// The square at a dense index: 0 is White's left corner, counting along each row from
    /// White's left, row by row away from White.
    pub fn square(&self, index: usize) -> Option<Square> {
        (index < self.square_count()).then(|| Square::from_bit(self.dense_to_bit[index] as u32))
    }

    /// The dense index of a square of this board (inverse of [`Geometry::square`]).
    pub const fn index(&self, sq: Square) -> usize {
        let (row, col) = self.coords(sq);
        row * self.width() + col / 2
    }

    /// The square at `row` (0 = White's back rank) and `col` (0 = White's left), if dark.
    pub fn at(&self, row: usize, col: usize) -> Option<Square> {
        (row < self.side() && col < self.side() && (row + col).is_multiple_of(2))
            .then(|| Square::from_bit(row_base(self.width() as u32, row as u32) + col as u32 / 2))
    }

    /// Row and column of a square (both from White's left corner).
    pub const fn coords(&self, sq: Square) -> (usize, usize) {
        let width = self.side as u32 / 2;
        let pair = sq.bit() / (2 * width + 1);
        let rem = sq.bit() % (2 * width + 1);
        if rem < width {
            ((2 * pair) as usize, (2 * rem) as usize)
        } else {
            (
                (2 * pair + 1) as usize,
                (2 * (rem - width - 1) + 1) as usize,
            )
        }
    }

    /// Whether the square belongs to this board.
    pub const fn contains(&self, sq: Square) -> bool {
        self.all.contains(sq)
    }

    /// Every square of the board in dense order.
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.dense_to_bit[..self.square_count()]
            .iter()
            .map(|&bit| Square::from_bit(bit as u32))
    }

    /// Moves every square of `bb` one step in `dir`, dropping those that leave the board.
    #[inline]
    pub const fn shift(&self, bb: Bitboard, dir: Direction) -> Bitboard {
        let w = self.side as u32 / 2;
        let moved = match dir {
            Direction::UpLeft => bb.0 << w,
            Direction::UpRight => bb.0 << (w + 1),
            Direction::DownLeft => bb.0 >> (w + 1),
            Direction::DownRight => bb.0 >> w,
        };
        Bitboard(moved & self.all.0)
    }

    /// The neighbour of `sq` in `dir`, if it is on the board.
    pub const fn step(&self, sq: Square, dir: Direction) -> Option<Square> {
        self.shift(Bitboard::from_square(sq), dir).first()
    }

    /// The squares strictly between two squares on one diagonal (empty if they are not on one).
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        let Some(dir) = Direction::between(self.coords(a), self.coords(b)) else {
            return Bitboard::EMPTY;
        };
        let mut out = Bitboard::EMPTY;
        let mut cur = self.step(a, dir);
        while let Some(sq) = cur {
            if sq == b {
                return out;
            }
            out = out.with(sq);
            cur = self.step(sq, dir);
        }
        Bitboard::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_index_round_trips_on_every_board() {
        for geo in [&BOARD_8X8, &BOARD_10X10, &BOARD_12X12] {
            assert_eq!(geo.squares().count(), geo.square_count());
            assert_eq!(geo.all().count() as usize, geo.square_count());
            for (i, sq) in geo.squares().enumerate() {
                assert_eq!(geo.index(sq), i);
                let (row, col) = geo.coords(sq);
                assert_eq!(geo.at(row, col), Some(sq));
            }
        }
    }

    #[test]
    fn steps_match_row_and_column_arithmetic() {
        for geo in [&BOARD_8X8, &BOARD_10X10, &BOARD_12X12] {
            for sq in geo.squares() {
                let (row, col) = geo.coords(sq);
                for dir in Direction::ALL {
                    let (dr, dc) = dir.delta();
                    let expected = usize::try_from(row as i32 + dr)
                        .ok()
                        .zip(usize::try_from(col as i32 + dc).ok())
                        .and_then(|(r, c)| geo.at(r, c));
                    assert_eq!(geo.step(sq, dir), expected, "{sq:?} {dir:?}");
                }
            }
        }
    }

    #[test]
    fn between_lists_the_diagonal_interior() {
        let geo = &BOARD_8X8;
        let a1 = geo.at(0, 0).unwrap();
        let d4 = geo.at(3, 3).unwrap();
        let inner: Vec<_> = geo
            .between(a1, d4)
            .into_iter()
            .map(|s| geo.coords(s))
            .collect();
        assert_eq!(inner, vec![(1, 1), (2, 2)]);
        assert!(geo.between(a1, geo.at(0, 2).unwrap()).is_empty());
    }
}
