//! The board as four taught corners: where every square's centre is, and whether the four
//! points can be a board at all.
//!
//! An operator teaches the centres of the four corner squares; every other centre is a
//! bilinear blend of them. Bilinear rather than affine so that a board slightly skewed in the
//! camera-less world of a jogged arm (corners taught a millimetre off, a table not quite level)
//! still puts each corner exactly where it was taught, and the error spreads evenly in between.
//!
//! The checks catch the mistakes an operator makes with a jog pad: a corner taught twice, two
//! corners recorded under each other's names, or the whole board taught as seen from the far
//! side (mirrored), which would make the robot play on the wrong squares without any error.

use thiserror::Error;

use super::point::Point;
use super::square::BoardSquare;

/// Closest two adjacent square centres may be, mm: below this no piece fits on a square, so a
/// smaller board means two corners were taught on (nearly) the same spot.
const MIN_PITCH_MM: f64 = 10.0;

/// How far the fourth corner may lie from where the other three put it, as a share of the
/// shorter edge: about a square's width on an 8x8 board, far more than teaching errors.
const CLOSURE_TOLERANCE: f64 = 0.1;

/// Smallest sine of the angle between the board's edges at a1: below it the corners are
/// nearly on one line.
const MIN_EDGE_SINE: f64 = 0.5;

/// Which corner of the board, as seen by White.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corner {
    /// a1: White's left.
    NearLeft,
    /// h1 on 8x8: White's right.
    NearRight,
    /// a8 on 8x8: the far corner on White's left.
    FarLeft,
    /// h8 on 8x8: the far corner on White's right.
    FarRight,
}

impl Corner {
    /// The four corners in the order the file and the wizard list them.
    pub const ALL: [Corner; 4] = [
        Corner::NearLeft,
        Corner::NearRight,
        Corner::FarLeft,
        Corner::FarRight,
    ];

    /// The corner square on a board with `side` squares along an edge.
    pub fn square(self, side: usize) -> BoardSquare {
        let last = (side - 1) as u8;
        match self {
            Corner::NearLeft => BoardSquare::new(0, 0),
            Corner::NearRight => BoardSquare::new(0, last),
            Corner::FarLeft => BoardSquare::new(last, 0),
            Corner::FarRight => BoardSquare::new(last, last),
        }
    }

    /// Where the operator finds it.
    pub const fn description(self) -> &'static str {
        match self {
            Corner::NearLeft => "White's left corner",
            Corner::NearRight => "White's right corner",
            Corner::FarLeft => "the far corner on White's left",
            Corner::FarRight => "the far corner on White's right",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// A board's shape that cannot be right.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BoardShapeError {
    /// Two corners are too close together for the board's size.
    #[error(
        "corners {first} and {second} are only {distance:.1} mm apart, too close for the \
         {side}x{side} board (at least {minimum:.0} mm between the corner squares' centres): \
         one of them was probably recorded on the wrong spot; re-teach {first} and {second} on \
         the centres of their squares"
    )]
    TooSmall {
        /// Board side.
        side: usize,
        /// One corner's name.
        first: BoardSquare,
        /// The other corner's name.
        second: BoardSquare,
        /// Their distance seen from above, mm.
        distance: f64,
        /// The least distance for this board, mm.
        minimum: f64,
    },
    /// Three corners lie almost on one line.
    #[error(
        "corners {a1}, {right} and {far} lie almost on one line ({angle:.0} deg between the \
         board's edges at {a1}): re-teach them on the centres of the corner squares"
    )]
    Collinear {
        /// The near-left corner's name.
        a1: BoardSquare,
        /// The near-right corner's name.
        right: BoardSquare,
        /// The far-left corner's name.
        far: BoardSquare,
        /// Angle between the two edges at a1, degrees.
        angle: f64,
    },
    /// Two corners were recorded under each other's names.
    #[error(
        "corners {first} and {second} look swapped: the four points form a board only with \
         {first} and {second} exchanged; re-teach {first} at {first_place} and {second} at \
         {second_place}"
    )]
    Swapped {
        /// One corner's name.
        first: BoardSquare,
        /// Where it is.
        first_place: &'static str,
        /// The other corner's name.
        second: BoardSquare,
        /// Where that one is.
        second_place: &'static str,
    },
    /// The four points are no parallelogram and no single swap makes one.
    #[error(
        "the corners do not form a board: {far_right} is {distance:.1} mm from where {a1}, \
         {right} and {far} put it; re-teach the four corners on the centres of their squares"
    )]
    NotABoard {
        /// The near-left corner's name.
        a1: BoardSquare,
        /// The near-right corner's name.
        right: BoardSquare,
        /// The far-left corner's name.
        far: BoardSquare,
        /// The far-right corner's name.
        far_right: BoardSquare,
        /// How far off it is, mm.
        distance: f64,
    },
    /// The board was taught as seen from the other side: its squares would be mirrored.
    #[error(
        "the board is mirrored: going from {a1} to {right} to {far} turns clockwise seen from \
         above, so the corners were taught as seen from the wrong side; {a1} must be \
         {a1_place}, {right} {right_place} and {far} {far_place} (a1 is always a dark square \
         on White's left): swap {a1} with {right} and {far} with {far_right}, or re-teach them"
    )]
    Mirrored {
        /// The near-left corner's name.
        a1: BoardSquare,
        /// Where it is.
        a1_place: &'static str,
        /// The near-right corner's name.
        right: BoardSquare,
        /// Where it is.
        right_place: &'static str,
        /// The far-left corner's name.
        far: BoardSquare,
        /// Where it is.
        far_place: &'static str,
        /// The far-right corner's name.
        far_right: BoardSquare,
    },
}

/// The four taught corners of a board with `side` squares along an edge, checked to form one.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardCorners {
    side: usize,
    points: [Point; 4],
}

impl BoardCorners {
    /// The board through these corner centres (indexed as [`Corner::ALL`]), if they can be one.
    pub fn new(side: usize, points: [Point; 4]) -> Result<BoardCorners, BoardShapeError> {
        let board = BoardCorners { side, points };
        board.check_size()?;
        board.check_edges_apart()?;
        board.check_closure()?;
        board.check_orientation()?;
        Ok(board)
    }

    /// Squares along an edge.
    pub const fn side(&self) -> usize {
        self.side
    }

    /// The taught centre of a corner square.
    pub const fn corner(&self, corner: Corner) -> Point {
        self.points[corner.index()]
    }

    /// The centre of any square, blended from the corners; a square off the board is
    /// extrapolated, which is how the wizard can point beyond the board.
    pub fn centre(&self, square: BoardSquare) -> Point {
        let last = (self.side - 1) as f64;
        let along_row = f64::from(square.col) / last;
        let along_file = f64::from(square.row) / last;
        let near = self
            .corner(Corner::NearLeft)
            .lerp(self.corner(Corner::NearRight), along_row);
        let far = self
            .corner(Corner::FarLeft)
            .lerp(self.corner(Corner::FarRight), along_row);
        near.lerp(far, along_file)
    }

    /// The distance between neighbouring squares' centres along the shorter edge, seen from
    /// above, mm: the widest a piece can be.
    pub fn square_pitch(&self) -> f64 {
        let last = (self.side - 1) as f64;
        let origin = self.corner(Corner::NearLeft);
        let along_row = origin.horizontal_distance(self.corner(Corner::NearRight));
        let along_file = origin.horizontal_distance(self.corner(Corner::FarLeft));
        along_row.min(along_file) / last
    }

    fn name(&self, corner: Corner) -> BoardSquare {
        corner.square(self.side)
    }

    fn check_size(&self) -> Result<(), BoardShapeError> {
        let minimum = MIN_PITCH_MM * (self.side - 1) as f64;
        for (first, second) in [
            (Corner::NearLeft, Corner::NearRight),
            (Corner::NearLeft, Corner::FarLeft),
            (Corner::NearRight, Corner::FarRight),
            (Corner::FarLeft, Corner::FarRight),
            (Corner::NearLeft, Corner::FarRight),
            (Corner::NearRight, Corner::FarLeft),
        ] {
            let distance = self.corner(first).horizontal_distance(self.corner(second));
            if distance < minimum {
                return Err(BoardShapeError::TooSmall {
                    side: self.side,
                    first: self.name(first),
                    second: self.name(second),
                    distance,
                    minimum,
                });
            }
        }
        Ok(())
    }

    /// Edge vectors at a1 seen from above: towards the near-right and the far-left corner.
    fn edges(points: &[Point; 4]) -> ((f64, f64), (f64, f64)) {
        let origin = points[Corner::NearLeft.index()];
        let right = points[Corner::NearRight.index()];
        let far = points[Corner::FarLeft.index()];
        (
            (right.x - origin.x, right.y - origin.y),
            (far.x - origin.x, far.y - origin.y),
        )
    }

    /// The z component of (a1 -> right) x (a1 -> far): positive when the board, seen from
    /// above, runs counter-clockwise from its right edge to its far edge, as a board seen from
    /// White's side does.
    fn turn(points: &[Point; 4]) -> f64 {
        let (right, far) = BoardCorners::edges(points);
        right.0 * far.1 - right.1 * far.0
    }

    fn check_edges_apart(&self) -> Result<(), BoardShapeError> {
        let (right, far) = BoardCorners::edges(&self.points);
        let lengths = right.0.hypot(right.1) * far.0.hypot(far.1);
        let sine = BoardCorners::turn(&self.points).abs() / lengths;
        if sine < MIN_EDGE_SINE {
            let cosine = (right.0 * far.0 + right.1 * far.1) / lengths;
            return Err(BoardShapeError::Collinear {
                a1: self.name(Corner::NearLeft),
                right: self.name(Corner::NearRight),
                far: self.name(Corner::FarLeft),
                angle: cosine.clamp(-1.0, 1.0).acos().to_degrees(),
            });
        }
        Ok(())
    }

    /// How far the far-right corner lies from where the other three put it, and how far it may.
    fn closure_error(points: &[Point; 4]) -> (f64, f64) {
        let predicted_x = points[1].x + points[2].x - points[0].x;
        let predicted_y = points[1].y + points[2].y - points[0].y;
        let (right, far) = BoardCorners::edges(points);
        let shorter = right.0.hypot(right.1).min(far.0.hypot(far.1));
        let off = (points[3].x - predicted_x).hypot(points[3].y - predicted_y);
        (off, CLOSURE_TOLERANCE * shorter)
    }

    fn check_closure(&self) -> Result<(), BoardShapeError> {
        let (off, tolerance) = BoardCorners::closure_error(&self.points);
        if off <= tolerance {
            return Ok(());
        }
        for (i, first) in Corner::ALL.into_iter().enumerate() {
            for second in Corner::ALL.into_iter().skip(i + 1) {
                let mut swapped = self.points;
                swapped.swap(first.index(), second.index());
                let (off, tolerance) = BoardCorners::closure_error(&swapped);
                if off <= tolerance && BoardCorners::turn(&swapped) > 0.0 {
                    return Err(BoardShapeError::Swapped {
                        first: self.name(first),
                        first_place: first.description(),
                        second: self.name(second),
                        second_place: second.description(),
                    });
                }
            }
        }
        Err(BoardShapeError::NotABoard {
            a1: self.name(Corner::NearLeft),
            right: self.name(Corner::NearRight),
            far: self.name(Corner::FarLeft),
            far_right: self.name(Corner::FarRight),
            distance: off,
        })
    }

    fn check_orientation(&self) -> Result<(), BoardShapeError> {
        if BoardCorners::turn(&self.points) > 0.0 {
            return Ok(());
        }
        Err(BoardShapeError::Mirrored {
            a1: self.name(Corner::NearLeft),
            a1_place: Corner::NearLeft.description(),
            right: self.name(Corner::NearRight),
            right_place: Corner::NearRight.description(),
            far: self.name(Corner::FarLeft),
            far_place: Corner::FarLeft.description(),
            far_right: self.name(Corner::FarRight),
        })
    }
}
