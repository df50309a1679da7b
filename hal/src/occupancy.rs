//! What the Hall sensors under the board report: which dark squares hold a piece.
//!
//! Sensors see magnets, not pieces, so a scan is one bit per dark square with no colour or rank.
//! Squares are numbered as the engine's dense index (`rules::Geometry::square`): 0 is a1, White's
//! left corner, counting along each row away from White. Keeping the same numbering means the
//! hardware layer needs no knowledge of the rules to hand a scan to move recognition.

use thiserror::Error;

/// The boards a sensor array can cover, named by their number of dark squares (the sensor count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardSize {
    /// 8x8: Russian, Brazilian, pool, English, Italian draughts.
    Squares32,
    /// 10x10: International draughts.
    Squares50,
    /// 12x12: Canadian draughts.
    Squares72,
}

impl BoardSize {
    /// Every supported size, smallest first.
    pub const ALL: [BoardSize; 3] = [
        BoardSize::Squares32,
        BoardSize::Squares50,
        BoardSize::Squares72,
    ];

    /// Number of dark squares, which is also the number of sensors and bits in a scan.
    pub const fn square_count(self) -> usize {
        match self {
            BoardSize::Squares32 => 32,
            BoardSize::Squares50 => 50,
            BoardSize::Squares72 => 72,
        }
    }

    /// Squares along one edge of the board.
    pub const fn side(self) -> usize {
        match self {
            BoardSize::Squares32 => 8,
            BoardSize::Squares50 => 10,
            BoardSize::Squares72 => 12,
        }
    }

    /// The size with this many dark squares, if it is one of the supported boards.
    pub const fn from_square_count(count: usize) -> Option<BoardSize> {
        match count {
            32 => Some(BoardSize::Squares32),
            50 => Some(BoardSize::Squares50),
            72 => Some(BoardSize::Squares72),
            _ => None,
        }
    }

    /// The bits of a scan that stand for squares of this board.
    const fn mask(self) -> u128 {
        (1u128 << self.square_count()) - 1
    }
}

/// A scan names a square the board does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("square {square} is not on a board of {} squares", size.square_count())]
pub struct SquareOutOfRange {
    /// The board the scan is for.
    pub size: BoardSize,
    /// The first offending square index.
    pub square: usize,
}

/// One reading of every sensor of a board: bit `i` is set when dark square `i` holds a piece.
///
/// Bits above the board's square count are always clear, so two scans of the same board compare
/// equal exactly when every sensor agrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Occupancy {
    size: BoardSize,
    bits: u128,
}

impl Occupancy {
    /// A scan of an empty board.
    pub const fn empty(size: BoardSize) -> Occupancy {
        Occupancy { size, bits: 0 }
    }

    /// A scan from its bits (bit `i` = square `i`). Fails if a bit beyond the board is set,
    /// which would mean a sensor that does not exist.
    pub fn from_bits(size: BoardSize, bits: u128) -> Result<Occupancy, SquareOutOfRange> {
        let outside = bits & !size.mask();
        if outside == 0 {
            Ok(Occupancy { size, bits })
        } else {
            Err(SquareOutOfRange {
                size,
                square: outside.trailing_zeros() as usize,
            })
        }
    }

    /// A scan with exactly the given squares occupied.
    pub fn from_squares(
        size: BoardSize,
        squares: impl IntoIterator<Item = usize>,
    ) -> Result<Occupancy, SquareOutOfRange> {
        let mut occupancy = Occupancy::empty(size);
        for square in squares {
            occupancy.set(square, true)?;
        }
        Ok(occupancy)
    }

    /// The board this scan covers.
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The raw bits: bit `i` is square `i`.
    pub const fn bits(&self) -> u128 {
        self.bits
    }

    /// Whether square `square` holds a piece; squares off the board are empty.
    pub const fn is_occupied(&self, square: usize) -> bool {
        square < self.size.square_count() && self.bits & (1 << square) != 0
    }

    /// Marks a square as occupied or empty.
    pub fn set(&mut self, square: usize, occupied: bool) -> Result<(), SquareOutOfRange> {
        if square >= self.size.square_count() {
            return Err(SquareOutOfRange {
                size: self.size,
                square,
            });
        }
        if occupied {
            self.bits |= 1 << square;
        } else {
            self.bits &= !(1 << square);
        }
        Ok(())
    }

    /// Number of occupied squares.
    pub const fn count(&self) -> u32 {
        self.bits.count_ones()
    }

    /// The occupied squares, lowest index first.
    pub fn occupied(&self) -> impl Iterator<Item = usize> + use<> {
        let bits = self.bits;
        (0..self.size.square_count()).filter(move |&square| bits & (1 << square) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_trip_through_their_square_count() {
        for size in BoardSize::ALL {
            assert_eq!(
                BoardSize::from_square_count(size.square_count()),
                Some(size)
            );
            assert_eq!(size.side() * size.side() / 2, size.square_count());
        }
        assert_eq!(BoardSize::from_square_count(64), None);
    }

    #[test]
    fn bits_beyond_the_board_are_refused() {
        let error = Occupancy::from_bits(BoardSize::Squares50, 1 << 50 | 1 << 70).unwrap_err();
        assert_eq!(error.square, 50);
        assert!(Occupancy::from_bits(BoardSize::Squares72, (1 << 72) - 1).is_ok());
        assert!(Occupancy::from_bits(BoardSize::Squares72, 1 << 72).is_err());
    }

    #[test]
    fn squares_are_set_read_and_listed() {
        let mut scan = Occupancy::from_squares(BoardSize::Squares32, [0, 5, 31]).unwrap();
        assert!(scan.is_occupied(5));
        assert!(!scan.is_occupied(6));
        assert!(!scan.is_occupied(200));
        scan.set(5, false).unwrap();
        assert_eq!(scan.occupied().collect::<Vec<_>>(), [0, 31]);
        assert_eq!(scan.count(), 2);
        assert_eq!(scan.bits(), 1 | 1 << 31);
        assert_eq!(
            scan.set(32, true),
            Err(SquareOutOfRange {
                size: BoardSize::Squares32,
                square: 32
            })
        );
    }
}
