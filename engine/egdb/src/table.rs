//! [`Table`]: one material's values in memory, and their file.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use rules::{Position, Variant};

use crate::file::{self, DISTANCE_MAGIC, Fault, HEADER_LEN, MAGIC, TableError};
use crate::index::{Index, Pieces, position_of};
use crate::{Material, Wdl};

/// The stored distance meaning "255 plies or more": one byte a position keeps 5 pieces' files
/// small, and no material of up to 5 pieces needs it (the build reports the longest).
pub const SATURATED: u8 = 255;

/// The values of every position of one material, two bits each, and when built or loaded
/// with them, the distances to the end of the game, a byte each.
#[derive(Debug, Clone)]
pub struct Table {
    variant: Variant,
    material: Material,
    index: Index,
    len: u64,
    bits: Vec<u8>,
    distances: Option<Vec<u8>>,
    saturated: bool,
}

const fn code(value: Wdl) -> u8 {
    match value {
        Wdl::Win => 1,
        Wdl::Draw => 2,
        Wdl::Loss => 3,
    }
}

impl Table {
    /// A table from one value and one distance (plies, saturated at [`SATURATED`]) per
    /// position number.
    pub(crate) fn from_values(
        variant: Variant,
        material: Material,
        values: impl ExactSizeIterator<Item = Wdl>,
        distances: Vec<u8>,
    ) -> Table {
        let index = Index::new(material);
        let len = values.len() as u64;
        debug_assert_eq!(len, index.size());
        let mut bits = vec![0u8; len.div_ceil(4) as usize];
        for (i, v) in values.enumerate() {
            bits[i / 4] |= code(v) << (2 * (i % 4));
        }
        debug_assert_eq!(distances.len() as u64, len);
        let saturated = distances.contains(&SATURATED);
        Table {
            variant,
            material,
            index,
            len,
            bits,
            distances: Some(distances),
            saturated,
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

    /// The plies from position number `i` to the end of the game with perfect play (the
    /// winner's shortest, the loser's longest; 0 for a draw, [`SATURATED`] for "255 or
    /// more"), or `None` when the table was loaded without its distance file.
    pub fn distance(&self, i: u64) -> Option<u8> {
        self.distances.as_ref().map(|d| d[i as usize])
    }

    pub(crate) fn distance_of(&self, pieces: &Pieces) -> Option<u8> {
        self.distance(self.index.index(pieces))
    }

    /// Whether it holds distances.
    pub const fn has_distances(&self) -> bool {
        self.distances.is_some()
    }

    /// Whether some distance is [`SATURATED`] (the file's flag): then that distance is only a
    /// lower bound.
    pub const fn saturated(&self) -> bool {
        self.saturated
    }

    /// The longest distance held (0 without distances).
    pub fn max_distance(&self) -> u8 {
        self.distances
            .as_ref()
            .and_then(|d| d.iter().copied().max())
            .unwrap_or(0)
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

    /// Size of its distance file in bytes (0 without distances).
    pub fn distance_file_len(&self) -> u64 {
        self.distances
            .as_ref()
            .map_or(0, |d| HEADER_LEN as u64 + d.len() as u64)
    }

    /// Writes the table to `path` (through a temporary file renamed into place, so a
    /// build cut short never leaves a half-written table under the final name).
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        self.write(path, MAGIC, file::FORMAT_VERSION, 0, &self.bits)
    }

    /// Writes its distances to `path` the same way; an error `Io(InvalidInput)` when it
    /// holds none.
    pub fn save_distances(&self, path: &Path) -> Result<(), TableError> {
        let Some(distances) = &self.distances else {
            return Err(TableError {
                path: path.to_owned(),
                fault: Fault::Io(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "the table holds no distances",
                )),
            });
        };
        let flags = u8::from(self.saturated);
        self.write(
            path,
            DISTANCE_MAGIC,
            file::DISTANCE_FORMAT_VERSION,
            flags,
            distances,
        )
    }

    fn write(
        &self,
        path: &Path,
        magic: [u8; 8],
        version: u16,
        flags: u8,
        payload: &[u8],
    ) -> Result<(), TableError> {
        let fail = |fault: Fault| TableError {
            path: path.to_owned(),
            fault,
        };
        let code = file::variant_code(self.variant)
            .ok_or_else(|| fail(Fault::UnsupportedVariant(self.variant)))?;
        let prefix = file::header_prefix(magic, version, code, self.material, flags, self.len);
        let sum = file::checksum([&prefix[..], payload]);
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".part");
        let tmp = std::path::PathBuf::from(tmp);
        let write = || -> std::io::Result<()> {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(&prefix)?;
            f.write_all(&sum.to_le_bytes())?;
            f.write_all(payload)?;
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
        let checked = read_checked(
            path,
            variant,
            material,
            MAGIC,
            file::FORMAT_VERSION,
            |len| len.div_ceil(4),
        )?;
        if checked.flags != 0 {
            return Err(fail(Fault::BadFlags(checked.flags)));
        }
        let bits = checked.payload;
        if let Some(position) = first_bad_value(&bits, checked.len) {
            return Err(fail(Fault::BadValue { position }));
        }
        Ok(Table {
            variant,
            material,
            index: Index::new(material),
            len: checked.len,
            bits,
            distances: None,
            saturated: false,
        })
    }

    /// Reads and verifies this table's distance file from `path` and keeps its distances:
    /// the same header checks as [`Table::load`] under the distance magic and version, and
    /// every distance against its value ([`Fault::BadDistance`]), so that a distance file of
    /// another build is refused even when its checksum is sound.
    pub fn load_distances(&mut self, path: &Path) -> Result<(), TableError> {
        let fail = |fault: Fault| TableError {
            path: path.to_owned(),
            fault,
        };
        let checked = read_checked(
            path,
            self.variant,
            self.material,
            DISTANCE_MAGIC,
            file::DISTANCE_FORMAT_VERSION,
            |len| len,
        )?;
        if checked.flags > 1 {
            return Err(fail(Fault::BadFlags(checked.flags)));
        }
        let saturated = checked.flags == 1;
        for (i, &d) in checked.payload.iter().enumerate() {
            let value = self.get(i as u64);
            let fits = match value {
                Wdl::Draw => d == 0,
                _ if d == SATURATED => saturated,
                Wdl::Win => d % 2 == 1,
                Wdl::Loss => d % 2 == 0,
            };
            if !fits {
                return Err(fail(Fault::BadDistance {
                    position: i as u64,
                    distance: d,
                    value,
                }));
            }
        }
        self.distances = Some(checked.payload);
        self.saturated = saturated;
        Ok(())
    }
}

/// A file's contents after the header checks common to values and distances.
struct Checked {
    payload: Vec<u8>,
    flags: u8,
    len: u64,
}

/// Reads `path` and checks, in order: its length against the header, the magic, the
/// version, the checksum, the variant, the material and the position count.
fn read_checked(
    path: &Path,
    variant: Variant,
    material: Material,
    magic: [u8; 8],
    version_read: u16,
    payload_len: fn(u64) -> u64,
) -> Result<Checked, TableError> {
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
    if bytes[..8] != magic {
        return Err(fail(Fault::BadMagic));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != version_read {
        return Err(fail(Fault::UnsupportedVersion {
            found: version,
            supported: version_read,
        }));
    }
    let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let need = (HEADER_LEN as u64).saturating_add(payload_len(len));
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
    if found != material {
        return Err(fail(Fault::WrongMaterial {
            found,
            expected: material,
        }));
    }
    let size = Index::new(material).size();
    if len != size {
        return Err(fail(Fault::WrongSize {
            found: len,
            expected: size,
        }));
    }
    Ok(Checked {
        flags: bytes[15],
        payload: bytes[HEADER_LEN..].to_vec(),
        len,
    })
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
