//! The rack beside the board: a calibrated grid of slots, each holding one piece, where
//! captured pieces wait so that the arm can pick them up again to set up the next game.
//!
//! An operator jogs the tool onto a man standing in three slots of the grid, as for the board's
//! corners: the first slot (row 1, column 1), the last slot of the first row, and the first
//! slot of the last row; every other slot is interpolated. Three points rather than a corner and
//! a pitch because a rack is rarely square to the arm's axes, and jogging to a slot is what the
//! wizard already does well. The checks catch what would knock pieces over or lose them: slots
//! closer together than a piece is wide, a slot on the board, a grid with no slots.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::board::{BoardCorners, Corner};
use super::point::Point;
use super::square::BoardSquare;

/// Most slots a rack may have: more than every piece of a 12x12 game, fewer than a mistyped
/// row count would make.
pub const MAX_SLOTS: usize = 128;

/// The rack as written in the calibration file's `[rack]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RackSection {
    /// Rows of slots.
    pub rows: usize,
    /// Slots in each row.
    pub columns: usize,
    /// Slot 1 (row 1, column 1), the tool touching the top of a man standing in it.
    pub first: Point,
    /// The last slot of row 1, taught the same way; needed when `columns` > 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_end: Option<Point>,
    /// The first slot of the last row, taught the same way; needed when `rows` > 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_row: Option<Point>,
}

/// Why a rack is refused. Each message names the `[rack]` setting at fault and the fix.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum RackError {
    /// No slot at all, or more than [`MAX_SLOTS`].
    #[error(
        "[rack] rows = {rows} and columns = {columns} make {slots} slots: a rack needs 1 to \
         {MAX_SLOTS}; count the rack's rows and slots per row again",
        slots = rows * columns
    )]
    Size {
        /// Rows in the file.
        rows: usize,
        /// Columns in the file.
        columns: usize,
    },
    /// A point the grid needs was not taught.
    #[error(
        "[rack] has {count} {what} but no `{key}`: jog the tool onto the top of a man in {slot} \
         and record it as `{key} = {{ x = ..., y = ..., z = ... }}`"
    )]
    Missing {
        /// The key that is missing (`row_end` or `last_row`).
        key: &'static str,
        /// How many rows or columns the file has.
        count: usize,
        /// `columns` or `rows`.
        what: &'static str,
        /// Which slot to teach.
        slot: &'static str,
    },
    /// Two neighbouring slots are closer than a piece is wide.
    #[error(
        "[rack] slots {first} and {second} are only {distance:.1} mm apart, less than a piece's \
         diameter of {diameter:.1} mm ({diameter_source}): the pieces would not fit; teach \
         `{key}` again farther from `first`, or lower `{count_key}`"
    )]
    TooClose {
        /// One slot's name.
        first: SlotName,
        /// Its neighbour's.
        second: SlotName,
        /// Their distance seen from above, mm.
        distance: f64,
        /// A piece's diameter, mm.
        diameter: f64,
        /// Where the diameter comes from.
        diameter_source: &'static str,
        /// The taught point that sets this spacing.
        key: &'static str,
        /// The count that sets it too.
        count_key: &'static str,
    },
    /// A slot lies on the board, where its piece would stand on or beside a square.
    #[error(
        "[rack] slot {slot} at {point} lies on the board, over square {square}: move the rack \
         off the board, clear of its edge by half a piece, and teach `first`, `row_end` and \
         `last_row` again"
    )]
    OnBoard {
        /// The slot.
        slot: SlotName,
        /// Where it is.
        point: Point,
        /// The nearest square.
        square: BoardSquare,
    },
}

/// A slot's number and place for messages: `slot 14 (row 2, column 4)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotName {
    /// Index from 0, row by row.
    pub index: usize,
    /// Columns per row.
    pub columns: usize,
}

impl std::fmt::Display for SlotName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (row {}, column {})",
            self.index + 1,
            self.index / self.columns + 1,
            self.index % self.columns + 1
        )
    }
}

/// A checked rack: where each slot is, the tool touching the top of a man standing in it.
#[derive(Debug, Clone, PartialEq)]
pub struct RackGrid {
    section: RackSection,
    slots: Vec<Point>,
}

impl RackGrid {
    /// The rack the file describes, checked against the board and the pieces' width.
    /// `diameter` is a piece's diameter in mm and `diameter_source` says where it comes from.
    pub fn new(
        section: RackSection,
        board: &BoardCorners,
        diameter: f64,
        diameter_source: &'static str,
    ) -> Result<RackGrid, RackError> {
        let (rows, columns) = (section.rows, section.columns);
        if rows == 0 || columns == 0 || rows * columns > MAX_SLOTS {
            return Err(RackError::Size { rows, columns });
        }
        let row_end = match (columns, section.row_end) {
            (1, _) => section.first,
            (_, Some(point)) => point,
            (_, None) => {
                return Err(RackError::Missing {
                    key: "row_end",
                    count: columns,
                    what: "columns",
                    slot: "the last slot of the first row",
                });
            }
        };
        let last_row = match (rows, section.last_row) {
            (1, _) => section.first,
            (_, Some(point)) => point,
            (_, None) => {
                return Err(RackError::Missing {
                    key: "last_row",
                    count: rows,
                    what: "rows",
                    slot: "the first slot of the last row",
                });
            }
        };
        let first = section.first;
        let mut slots = Vec::with_capacity(rows * columns);
        for row in 0..rows {
            for column in 0..columns {
                let along = |count: usize, at: usize| {
                    if count > 1 {
                        at as f64 / (count - 1) as f64
                    } else {
                        0.0
                    }
                };
                let (u, v) = (along(columns, column), along(rows, row));
                slots.push(Point::new(
                    first.x + (row_end.x - first.x) * u + (last_row.x - first.x) * v,
                    first.y + (row_end.y - first.y) * u + (last_row.y - first.y) * v,
                    first.z + (row_end.z - first.z) * u + (last_row.z - first.z) * v,
                ));
            }
        }
        let grid = RackGrid { section, slots };
        grid.check_spacing(diameter, diameter_source)?;
        grid.check_off_board(board, diameter)?;
        Ok(grid)
    }

    /// The file form.
    pub fn section(&self) -> &RackSection {
        &self.section
    }

    /// Every slot, row by row from slot 1.
    pub fn slots(&self) -> &[Point] {
        &self.slots
    }

    /// Slots in the rack.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the rack has no slot (never true of a checked rack).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// A slot's name for messages.
    pub const fn name(&self, index: usize) -> SlotName {
        SlotName {
            index,
            columns: self.section.columns,
        }
    }

    /// Neighbouring slots along a row and along a column must be a piece apart; the closest
    /// pair of any slots must be too (a skewed grid brings diagonal neighbours closer).
    fn check_spacing(&self, diameter: f64, diameter_source: &'static str) -> Result<(), RackError> {
        let columns = self.section.columns;
        let too_close = |a: usize, b: usize, key: &'static str, count_key: &'static str| {
            let distance = self.slots[a].horizontal_distance(self.slots[b]);
            (distance < diameter).then_some(RackError::TooClose {
                first: self.name(a),
                second: self.name(b),
                distance,
                diameter,
                diameter_source,
                key,
                count_key,
            })
        };
        if columns > 1
            && let Some(error) = too_close(0, 1, "row_end", "columns")
        {
            return Err(error);
        }
        if self.section.rows > 1
            && let Some(error) = too_close(0, columns, "last_row", "rows")
        {
            return Err(error);
        }
        for a in 0..self.slots.len() {
            for b in a + 1..self.slots.len() {
                if let Some(error) = too_close(a, b, "last_row", "rows") {
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    /// Every slot, with half a piece around it, must lie outside the board's edge (half a
    /// square beyond the outer squares' centres).
    fn check_off_board(&self, board: &BoardCorners, diameter: f64) -> Result<(), RackError> {
        let side = board.side();
        let last = (side - 1) as f64;
        let origin = board.corner(Corner::NearLeft);
        let right = board.corner(Corner::NearRight);
        let far = board.corner(Corner::FarLeft);
        // One square along a row and along a file, seen from above.
        let (ax, ay) = ((right.x - origin.x) / last, (right.y - origin.y) / last);
        let (bx, by) = ((far.x - origin.x) / last, (far.y - origin.y) / last);
        let determinant = ax * by - ay * bx;
        let pitch = ax.hypot(ay).min(bx.hypot(by));
        let margin = 0.5 + diameter / 2.0 / pitch;
        for (index, slot) in self.slots.iter().enumerate() {
            let (dx, dy) = (slot.x - origin.x, slot.y - origin.y);
            let col = (dx * by - dy * bx) / determinant;
            let row = (ax * dy - ay * dx) / determinant;
            let inside = |at: f64| at > -margin && at < last + margin;
            if inside(col) && inside(row) {
                let nearest = |at: f64| at.round().clamp(0.0, last) as u8;
                let (mut row, col) = (nearest(row), nearest(col));
                if (row + col) % 2 == 1 {
                    row = if row == 0 { 1 } else { row - 1 };
                }
                return Err(RackError::OnBoard {
                    slot: self.name(index),
                    point: *slot,
                    square: BoardSquare::new(row, col),
                });
            }
        }
        Ok(())
    }
}
