//! The table file: a 32-byte header and the values, two bits a position.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `CKBEGDB\0` |
//! | 8..10 | format version, little-endian ([`FORMAT_VERSION`]) |
//! | 10 | variant code (1 = Russian) |
//! | 11..15 | material: own men, own kings, opponent's men, opponent's kings |
//! | 15 | zero |
//! | 16..24 | number of positions, little-endian |
//! | 24..32 | FNV-1a 64 checksum of bytes 0..24 and of the values, little-endian |
//! | 32.. | values: position `i` in bits `2(i mod 4)` of byte `i / 4`; 1 win, 2 draw, 3 loss |
//!
//! Distances (format [`DISTANCE_FORMAT_VERSION`]) lie beside the values in a second file per
//! material, `<variant>_<material>.dtw`, with the same header but the magic `CKBDTW\0\0`, byte
//! 15 a flag (1 when some distance is saturated) and one byte a position: the plies to the
//! end of the game with perfect play, 0 for a draw, 255 for "255 or more".
//!
//! FNV-1a changes its result for any change of one byte (each step is a bijection of the
//! running hash), so a flipped byte anywhere is always caught.

use std::io;
use std::path::PathBuf;

use rules::Variant;

use crate::Material;

/// The version of the file format this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// The version of the distance file format this crate writes and reads.
pub const DISTANCE_FORMAT_VERSION: u16 = 1;
/// The first bytes of every table file.
pub(crate) const MAGIC: [u8; 8] = *b"CKBEGDB\0";
/// The first bytes of every distance file: another magic, so that a value file can never be
/// read as distances or the other way round.
pub(crate) const DISTANCE_MAGIC: [u8; 8] = *b"CKBDTW\0\0";
/// Bytes before the values.
pub(crate) const HEADER_LEN: usize = 32;

/// A table file that cannot be used, and why.
#[derive(Debug, thiserror::Error)]
#[error("endgame table {}: {fault}", path.display())]
pub struct TableError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub fault: Fault,
}

/// What is wrong with a table file.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// It could not be read or written.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// It ends before its header or its values do.
    #[error("the file is {len} bytes, {need} expected")]
    TooShort {
        /// Bytes found.
        len: u64,
        /// Bytes the header asks for.
        need: u64,
    },
    /// It is longer than its header says.
    #[error("the file is {len} bytes, {need} expected: trailing bytes")]
    TooLong {
        /// Bytes found.
        len: u64,
        /// Bytes the header asks for.
        need: u64,
    },
    /// It does not start with the magic bytes: not a table file.
    #[error("not an endgame table (bad magic bytes)")]
    BadMagic,
    /// It was written in a format version this build does not read.
    #[error("format version {found}, this build reads version {supported}")]
    UnsupportedVersion {
        /// The file's version.
        found: u16,
        /// The version read here.
        supported: u16,
    },
    /// It holds another variant's table.
    #[error("variant code {found}, expected {expected}")]
    WrongVariant {
        /// The file's variant code.
        found: u8,
        /// The code of the variant asked for.
        expected: u8,
    },
    /// It holds another material's table.
    #[error("material {found}, expected {expected}")]
    WrongMaterial {
        /// The file's material.
        found: Material,
        /// The material asked for.
        expected: Material,
    },
    /// Its position count is not that of its material's index.
    #[error("{found} positions, the material has {expected}")]
    WrongSize {
        /// The header's count.
        found: u64,
        /// The index's count.
        expected: u64,
    },
    /// The checksum does not match the contents: a corrupt file.
    #[error(
        "checksum {computed:#018x} of the contents, {stored:#018x} stored: the file is corrupt"
    )]
    Checksum {
        /// The header's checksum.
        stored: u64,
        /// The contents'.
        computed: u64,
    },
    /// A value is not win, draw or loss, or the padding after the last value is not zero.
    #[error("invalid value bits at position {position}")]
    BadValue {
        /// The first position at fault.
        position: u64,
    },
    /// A distance does not fit its position's value: a win's is odd (the winner makes the
    /// last move), a loss's even, a draw's 0, and 255 ("255 or more") only where the header's
    /// saturation flag is set.
    #[error("distance {distance} at position {position} does not fit its value {value}")]
    BadDistance {
        /// The first position at fault.
        position: u64,
        /// Its stored distance.
        distance: u8,
        /// Its value in the table of values.
        value: crate::Wdl,
    },
    /// The header's flag byte is neither 0 nor 1.
    #[error("flag byte {0}, expected 0 or 1")]
    BadFlags(u8),
    /// The variant has no tables (yet).
    #[error("no endgame tables for {0}")]
    UnsupportedVariant(Variant),
}

/// The variant's code in the header.
pub(crate) fn variant_code(variant: Variant) -> Option<u8> {
    match variant {
        Variant::Russian => Some(1),
        _ => None,
    }
}

/// FNV-1a 64 over several byte strings in order.
pub(crate) fn checksum<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The header's first 24 bytes (all but the checksum): `magic` and `version` tell a value
/// file from a distance file, `flags` is byte 15.
pub(crate) fn header_prefix(
    magic: [u8; 8],
    version: u16,
    variant_code: u8,
    material: Material,
    flags: u8,
    len: u64,
) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[..8].copy_from_slice(&magic);
    h[8..10].copy_from_slice(&version.to_le_bytes());
    h[10] = variant_code;
    h[11] = material.own_men;
    h[12] = material.own_kings;
    h[13] = material.opp_men;
    h[14] = material.opp_kings;
    h[15] = flags;
    h[16..24].copy_from_slice(&len.to_le_bytes());
    h
}
