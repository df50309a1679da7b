//! Where the simulated world's things lie under an arm: the board's squares, the rack, the
//! trophy bin and the reserve of spare kings. Both simulated arms (the virtual Dobot and the
//! board controller's own arm) move pieces by these places, so the layout is a module of its
//! own that neither arm owns.

use crate::device::Pose;
use crate::occupancy::BoardSize;

/// Where the board, the trophy bin and the reserve of spare pieces are under the arm.
///
/// Squares are the engine's dense index, as in [`Occupancy`](crate::Occupancy): square 0 is
/// a1, counting the dark squares along each rank from file a. Files run towards the arm's right
/// (-y) and ranks away from the arm (+x), as for a robot sitting at White's side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimBoardLayout {
    /// The board.
    pub size: BoardSize,
    /// The tool pose at the centre of a1 touching a piece: its z is the board height.
    pub a1: Pose,
    /// Distance between the centres of neighbouring squares, mm.
    pub pitch: f32,
    /// How far from a square's centre (in x and y) the cup may be and still grip or place.
    pub tolerance: f32,
    /// How far above the board height the cup may be and still grip a piece.
    pub z_tolerance: f32,
    /// How high above the board a released piece may fall and still land on its square.
    pub drop_height: f32,
    /// Centre of the trophy bin where captured pieces go.
    pub bin: Pose,
    /// Radius of the bin, mm.
    pub bin_radius: f32,
    /// Centre of the reserve of spare pieces (kings for promotion).
    pub reserve: Pose,
    /// Radius of the reserve, mm.
    pub reserve_radius: f32,
    /// The rack of slots beside the board, if it has one.
    pub rack: Option<SimRack>,
}

/// A rack beside the simulated board: a grid of slots, each holding one piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimRack {
    /// Rows of slots.
    pub rows: usize,
    /// Slots in a row.
    pub columns: usize,
    /// The tool pose touching a man in slot 0 (row 1, column 1); its z is the rack's height.
    pub first: Pose,
    /// From one slot to the next in a row (x, y), mm.
    pub along_row: (f32, f32),
    /// From one row to the next (x, y), mm.
    pub between_rows: (f32, f32),
}

impl SimRack {
    /// Slots in the rack.
    pub const fn len(&self) -> usize {
        self.rows * self.columns
    }

    /// Whether the rack has no slot.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tool pose touching a man in `slot` (row by row from 0).
    pub fn slot_pose(&self, slot: usize) -> Option<Pose> {
        if slot >= self.len() {
            return None;
        }
        let (row, col) = ((slot / self.columns) as f32, (slot % self.columns) as f32);
        Some(Pose {
            x: self.first.x + col * self.along_row.0 + row * self.between_rows.0,
            y: self.first.y + col * self.along_row.1 + row * self.between_rows.1,
            ..self.first
        })
    }
}

impl SimBoardLayout {
    /// A board of `size` with a1 at `a1` and squares `pitch` apart; the bin lies left of the
    /// board (+y) and the reserve right of it, each two squares off the edge.
    pub fn new(size: BoardSize, a1: Pose, pitch: f32) -> SimBoardLayout {
        let side = size.side() as f32;
        let middle = a1.x + (side - 1.0) / 2.0 * pitch;
        SimBoardLayout {
            size,
            a1,
            pitch,
            tolerance: pitch * 0.2,
            z_tolerance: 5.0,
            drop_height: 30.0,
            bin: Pose {
                x: middle,
                y: a1.y + 2.0 * pitch,
                ..a1
            },
            bin_radius: pitch,
            reserve: Pose {
                x: middle,
                y: a1.y - (side + 1.0) * pitch,
                ..a1
            },
            reserve_radius: pitch,
            rack: None,
        }
    }

    /// The same board with `rack` beside it, and the trophy bin moved to `bin` (out of the
    /// rack's way).
    #[must_use]
    pub fn with_rack(self, rack: SimRack, bin: Pose) -> SimBoardLayout {
        SimBoardLayout {
            rack: Some(rack),
            bin,
            ..self
        }
    }

    /// The rack slot whose centre is within [`SimBoardLayout::tolerance`] of `pose` in x and y.
    pub fn rack_slot_under(&self, pose: Pose) -> Option<usize> {
        let rack = self.rack?;
        (0..rack.len()).find(|&slot| {
            rack.slot_pose(slot)
                .is_some_and(|centre| within(pose, centre, self.tolerance))
        })
    }

    /// The tool pose that touches the piece on `square`, if the board has that square.
    pub fn square_pose(&self, square: usize) -> Option<Pose> {
        if square >= self.size.square_count() {
            return None;
        }
        let width = self.size.side() / 2;
        let (row, k) = (square / width, square % width);
        let col = 2 * k + row % 2;
        Some(Pose {
            x: self.a1.x + row as f32 * self.pitch,
            y: self.a1.y - col as f32 * self.pitch,
            ..self.a1
        })
    }

    /// The square whose centre is within [`SimBoardLayout::tolerance`] of `pose` in x and y
    /// (any height), if any.
    pub fn square_under(&self, pose: Pose) -> Option<usize> {
        let side = self.size.side() as f32;
        let row = ((pose.x - self.a1.x) / self.pitch).round();
        let col = ((self.a1.y - pose.y) / self.pitch).round();
        if !(0.0..side).contains(&row) || !(0.0..side).contains(&col) {
            return None;
        }
        let (row, col) = (row as usize, col as usize);
        if (row + col) % 2 != 0 {
            return None;
        }
        let square = row * (self.size.side() / 2) + col / 2;
        let centre = self.square_pose(square)?;
        within(pose, centre, self.tolerance).then_some(square)
    }

    /// Whether `pose` is over the trophy bin.
    pub fn over_bin(&self, pose: Pose) -> bool {
        within(pose, self.bin, self.bin_radius)
    }

    /// Whether `pose` is over the reserve.
    pub fn over_reserve(&self, pose: Pose) -> bool {
        within(pose, self.reserve, self.reserve_radius)
    }
}

/// Whether `pose` is within `radius` of `centre` in x and y.
fn within(pose: Pose, centre: Pose, radius: f32) -> bool {
    (pose.x - centre.x).hypot(pose.y - centre.y) <= radius
}
