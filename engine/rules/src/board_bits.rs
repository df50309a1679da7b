//! The integer a move generator works in: `u64` where the board's padded layout fits (8x8 and
//! 10x10), `u128` only for 12x12.
//!
//! A `Bitboard` holds a `u128` so that one type serves every board, but on x86-64 each `u128`
//! shift, mask and test takes two registers and several instructions. The generator runs in
//! the narrowest integer its board fits, and converts at its edges; the learned evaluation's
//! incremental update (`evalnet`) compares positions in it too.

use std::ops::{BitAnd, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned integer holding a set of squares in the padded layout (see `geometry`).
pub trait BoardBits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// The squares of `bits`, which must all lie below this type's width.
    fn narrow(bits: u128) -> Self;
    /// The same squares as a `Bitboard`'s integer.
    fn widen(self) -> u128;
    /// Index of the lowest square.
    fn lowest_index(self) -> u32;
    /// Just the lowest square.
    #[must_use]
    fn lowest(self) -> Self;
    /// How many squares.
    fn count(self) -> u32;
}

/// The same implementation for each integer: the standard library's operations under the
/// trait's names.
macro_rules! board_bits {
    ($($int:ty),*) => {$(
        impl BoardBits for $int {
            const ZERO: Self = 0;
            #[inline]
            fn narrow(bits: u128) -> Self {
                debug_assert!(
                    u128::from(<$int>::MAX) >= bits,
                    "a board wider than {}",
                    stringify!($int)
                );
                bits as $int
            }
            #[inline]
            fn widen(self) -> u128 {
                u128::from(self)
            }
            #[inline]
            fn lowest_index(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
        }
    )*};
}

board_bits!(u64, u128);
