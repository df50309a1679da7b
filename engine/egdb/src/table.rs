//! [`Table`]: one material's values in memory, and their file.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use rules::{Position, Variant};

use crate::file::{self, Fault, HEADER_LEN, MAGIC, TableError};
use crate::index::{Index, Pieces, position_of};
use crate::{Material, Wdl};

/// The values of every position of one material, two bits each.
#[derive(Debug, Clone)]
pub struct Table {
    variant: Variant,
    material: Material,
    index: Index,
    len: u64,
    bits: Vec<u8>,
}

const fn code(value: Wdl) -> u8 {
    match value {
        Wdl::Win => 1,
        Wdl::Draw => 2,
        Wdl::Loss => 3,
    }
}

impl Table {
    /// A table from one value per position number.
    pub(crate) fn from_values(
        variant: Variant,
        material: Material,
        values: impl ExactSizeIterator<Item = Wdl>,
    ) -> Table {
        let index = Index::new(material);
        let len = values.len() as u64;
        debug_assert_eq!(len, index.size());
        let mut bits = vec![0u8; len.div_ceil(4) as usize];
        for (i, v) in values.enumerate() {
            bits[i / 4] |= code(v) << (2 * (i % 4));
        }
        Table {
            variant,
            material,
            index,
            len,
            bits,
        }
    }

    /// The material whose positions it holds.
    pub const fn material(&self) -> Material {
        self.material
    }

    /// The variant whose rules it was built under.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of positions.
    pub const fn len(&self) -> u64 {
        self.len
    }

    /// Whether it holds no position (never, for a material with pieces on both sides).
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of position number `i` (below [`Table::len`]).
    pub fn get(&self, i: u64) -> Wdl {
        match (self.bits[(i / 4) as usize] >> (2 * (i % 4))) & 3 {
            1 => Wdl::Win,
            2 => Wdl::Draw,
            // Loads refuse the code 0, and tables are built with all three others.
            _ => Wdl::Loss,
        }
    }

    /// The position of number `i` (below [`Table::len`]), White to move: with its value
    /// from [`Table::get`], a way to list a table's wins or check it against the rules.
    pub fn position(&self, i: u64) -> Position {
        position_of(self.variant, &self.index.pieces(i))
            .expect("every number of a perfect index is a legal position")
    }

    pub(crate) fn value_of(&self, pieces: &Pieces) -> Wdl {
        self.get(self.index.index(pieces))
    }

    /// How many positions are won, drawn and lost for the side to move.
    pub fn counts(&self) -> (u64, u64, u64) {
        let mut counts = [0u64; 4];
        for i in 0..self.len {
            counts[((self.bits[(i / 4) as usize] >> (2 * (i % 4))) & 3) as usize] += 1;
        }
        (counts[1], counts[2], counts[3])
    }

    /// Size of its file in bytes.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + self.bits.len() as u64
    }

    /// Writes the table to `path` (through a temporary file renamed into place, so a
    /// build cut short never leaves a half-written table under the final name).
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        let fail = |fault: Fault| TableError {
            path: path.to_owned(),
            fault,
        };
        let code = file::variant_code(self.variant)
            .ok_or_else(|| fail(Fault::UnsupportedVariant(self.variant)))?;
        let prefix = file::header_prefix(code, self.material, self.len);
        let sum = file::checksum([&prefix[..], &self.bits[..]]);
        let tmp = path.with_extension("egdb.part");
        let write = || -> std::io::Result<()> {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(&prefix)?;
            f.write_all(&sum.to_le_bytes())?;
            f.write_all(&self.bits)?;
            f.sync_all()?;
            fs::rename(&tmp, path)
        };
        write().map_err(|e| fail(Fault::Io(e)))
    }

    /// Reads and verifies the table of `material` from `path`: magic, version, variant,
    /// material, size, checksum and every value's bits.
    pub fn load(path: &Path, variant: Variant, material: Material) -> Result<Table, TableError> {
        let fail = |fault: Fault| TableError {
            path: path.to_owned(),
            fault,
        };
        let expected_code =
            file::variant_code(variant).ok_or_else(|| fail(Fault::UnsupportedVariant(variant)))?;
        let bytes = fs::read(path).map_err(|e| fail(Fault::Io(e)))?;
        if bytes.len() < HEADER_LEN {
            return Err(fail(Fault::TooShort {
                len: bytes.len() as u64,
                need: HEADER_LEN as u64,
            }));
        }
        if bytes[..8] != MAGIC {
            return Err(fail(Fault::BadMagic));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != file::FORMAT_VERSION {
            return Err(fail(Fault::UnsupportedVersion {
                found: version,
                supported: file::FORMAT_VERSION,
            }));
        }
        let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let need = HEADER_LEN as u64 + len.div_ceil(4);
        let have = bytes.len() as u64;
        if have < need {
            return Err(fail(Fault::TooShort { len: have, need }));
        }
        if have > need {
            return Err(fail(Fault::TooLong { len: have, need }));
        }
        let stored_sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let computed = file::checksum([&bytes[..24], &bytes[HEADER_LEN..]]);
        if stored_sum != computed {
            return Err(fail(Fault::Checksum {
                stored: stored_sum,
                computed,
            }));
        }
        if bytes[10] != expected_code {
            return Err(fail(Fault::WrongVariant {
                found: bytes[10],
                expected: expected_code,
            }));
        }
        let found = Material::new(bytes[11], bytes[12], bytes[13], bytes[14]);
        if found != material || bytes[15] != 0 {
            return Err(fail(Fault::WrongMaterial {
                found,
                expected: material,
            }));
        }
        let index = Index::new(material);
        if len != index.size() {
            return Err(fail(Fault::WrongSize {
                found: len,
                expected: index.size(),
            }));
        }
        let bits = bytes[HEADER_LEN..].to_vec();
        if let Some(position) = first_bad_value(&bits, len) {
            return Err(fail(Fault::BadValue { position }));
        }
        Ok(Table {
            variant,
            material,
            index,
            len,
            bits,
        })
    }
}

/// The first position whose two bits are 0, or the first padding position not 0.
fn first_bad_value(bits: &[u8], len: u64) -> Option<u64> {
    for (byte_no, &b) in bits.iter().enumerate() {
        for slot in 0..4u64 {
            let i = byte_no as u64 * 4 + slot;
            let v = (b >> (2 * slot)) & 3;
            if (i < len) == (v == 0) {
                return Some(i);
            }
        }
    }
    None
}
