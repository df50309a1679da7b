//! Where everything the arm touches is: the calibration file and its validation.
//!
//! An exhibition operator teaches a handful of points with the jog keys (four board corners,
//! the trophy bin, three slots of the rack, the spare kings, a park pose) in about five
//! minutes; every square centre is interpolated from the corners ([`BoardCorners`]), and a
//! square whose piece sits off-centre can be corrected by an override. The file is TOML so an operator can read and fix it by hand.
//!
//! Validation happens on load, before the arm moves: a calibration that would send the arm to
//! the wrong squares, out of reach, or through standing pieces is refused with a message that
//! names the point at fault and what to do about it. A robot that only finds out mid-game at an
//! exhibition has already knocked the pieces over.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::board::{BoardCorners, BoardShapeError, Corner};
use super::kinematics::{ArmModel, Unreachable};
use super::motion::MotionModel;
use super::plan::hops;
use super::point::Point;
use super::rack::{RackError, RackGrid, RackSection};
use super::square::BoardSquare;

pub use super::piece::PieceKind;

/// The version of the file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Most spots out of reach a message details one by one before it only names the rest.
const LISTED_POINTS: usize = 8;

/// A calibration as written in the file, not yet checked: what the wizard fills in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalibrationFile {
    /// Format version, [`FORMAT_VERSION`].
    pub version: u32,
    /// The arm and, where they differ from the defaults, its dimensions and joint limits.
    #[serde(default)]
    pub arm: ArmModel,
    /// The board's size and taught corners.
    pub board: BoardSection,
    /// How tall the pieces are.
    #[serde(default)]
    pub pieces: PieceHeights,
    /// The height the arm travels at.
    pub travel: Travel,
    /// Where the arm rests between moves, out of the visitor's way.
    pub park: Point,
    /// Drop points over the trophy bin; the planner picks the one nearest its route. Pieces
    /// dropped there are gone for the arm: with a rack they are used only when it is full.
    #[serde(default)]
    pub bins: Vec<Point>,
    /// The rack of slots where captured pieces wait to be picked up again. Files written
    /// before the rack existed have none: the robot then drops captures into the bins and
    /// cannot set up the board by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<RackSection>,
    /// Spare kings, used in this order; each point is the tool touching the king's top.
    #[serde(default)]
    pub king_reserve: Vec<Point>,
    /// Speed figures for time estimates.
    #[serde(default)]
    pub motion: MotionModel,
}

/// The board part of the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSection {
    /// Squares along an edge: 8, 10 or 12.
    pub side: usize,
    /// The four corner squares' centres by name (`a1`, `h1`, `a8`, `h8` on 8x8), each with the
    /// tool touching the top of a man standing there.
    #[serde(default)]
    pub corners: BTreeMap<String, Point>,
    /// Squares whose centre was taught on its own, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, Point>,
}

/// Heights of the pieces, mm: how much higher the tool grips a king, and how high a carried
/// piece must pass over standing ones.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PieceHeights {
    /// A man.
    pub man_mm: f64,
    /// A king (usually two men stacked, or a taller piece).
    pub king_mm: f64,
    /// A piece's diameter, which the rack's slots must leave room for; when it is not given,
    /// a piece is taken to be as wide as the board's squares are apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diameter_mm: Option<f64>,
}

impl Default for PieceHeights {
    fn default() -> PieceHeights {
        PieceHeights {
            man_mm: 5.0,
            king_mm: 10.0,
            diameter_mm: None,
        }
    }
}

impl PieceHeights {
    /// How much higher than a man's top the tool meets a piece of this kind.
    pub fn grip_offset(&self, kind: PieceKind) -> f64 {
        match kind {
            PieceKind::Man => 0.0,
            PieceKind::King => self.king_mm - self.man_mm,
        }
    }
}

/// The travel height.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Travel {
    /// Tool height while crossing the board, mm in the base frame.
    pub safe_z: f64,
    /// Gap kept between a carried piece and the tallest standing piece, mm.
    #[serde(default = "Travel::default_clearance")]
    pub clearance_mm: f64,
}

impl Travel {
    const fn default_clearance() -> f64 {
        5.0
    }
}

/// A calibrated point the arm cannot reach.
#[derive(Debug, Clone, PartialEq)]
pub struct UnreachablePoint {
    /// What the point is, as the operator knows it (`square c3`, `bin 1`).
    pub name: String,
    /// Where it is.
    pub point: Point,
    /// Why the arm cannot get there.
    pub why: Unreachable,
}

impl fmt::Display for UnreachablePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.name, self.point, self.why)
    }
}

/// The list of unreachable points in a message.
#[derive(Debug, Clone, PartialEq)]
pub struct UnreachablePoints(pub Vec<UnreachablePoint>);

impl fmt::Display for UnreachablePoints {
    /// Each spot once (a square, a slot, the bin), the first few with the point and the reason
    /// (the spot's own point where it is among them, else the first above or on it), the rest
    /// by name, so that every spot out of reach is named.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut spots: Vec<(&str, Vec<&UnreachablePoint>)> = Vec::new();
        for point in &self.0 {
            let name = spot(&point.name);
            match spots.iter_mut().find(|(spot, _)| *spot == name) {
                Some((_, points)) => points.push(point),
                None => spots.push((name, vec![point])),
            }
        }
        for (i, (name, points)) in spots.iter().take(LISTED_POINTS).enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            let shown = points
                .iter()
                .find(|point| point.name == *name)
                .unwrap_or(&points[0]);
            write!(f, "{shown}")?;
        }
        if spots.len() > LISTED_POINTS {
            let rest: Vec<&str> = spots[LISTED_POINTS..]
                .iter()
                .map(|(name, _)| *name)
                .collect();
            write!(f, "; and {} more: {}", rest.len(), rest.join(", "))?;
        }
        Ok(())
    }
}

/// The spot a named point is at or above (`square c3` for `above square c3 at the safe
/// height` and for `square c3 holding a king`).
fn spot(name: &str) -> &str {
    let name = name.strip_prefix("above ").unwrap_or(name);
    let name = name.strip_suffix(" at the safe height").unwrap_or(name);
    name.strip_suffix(" holding a king").unwrap_or(name)
}

/// Why a calibration is refused. Every message names the point at fault and the fix.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CalibrationError {
    /// The text is not TOML, or a key is missing, misspelt or of the wrong type.
    #[error("the calibration file cannot be read: {0}")]
    Syntax(String),
    /// The file was written by another version of checkerbot.
    #[error(
        "calibration format version {found} is not supported (this build reads version \
         {FORMAT_VERSION}): run `checkerbot calibrate` to teach the points again"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A board size checkerbot does not play on.
    #[error("[board] side = {side} is not supported: use 8, 10 or 12")]
    Side {
        /// The side in the file.
        side: usize,
    },
    /// A corner was never taught.
    #[error(
        "corner {name} ({place}) is missing from [board.corners]: jog the tool onto a man \
         standing on the centre of {name} and record it as `{name} = {{ x = ..., y = ..., z = \
         ... }}`"
    )]
    MissingCorner {
        /// The corner's square name.
        name: BoardSquare,
        /// Where it is.
        place: &'static str,
    },
    /// A corner key names no corner of this board.
    #[error(
        "[board.corners] has `{name}`, which is not a corner of the {side}x{side} board: the \
         corners are {expected}; rename or remove it"
    )]
    UnknownCorner {
        /// The key in the file.
        name: String,
        /// Board side.
        side: usize,
        /// The valid corner names.
        expected: String,
    },
    /// An override names no dark square of this board.
    #[error(
        "[board.overrides] has `{name}`, which is not a dark square of the {side}x{side} board: \
         use the name of a square pieces stand on (a1, c1, b2, ...), or remove it"
    )]
    BadOverride {
        /// The key in the file.
        name: String,
        /// Board side.
        side: usize,
    },
    /// The corners cannot be a board.
    #[error(transparent)]
    Shape(#[from] BoardShapeError),
    /// Captured pieces would have nowhere to go.
    #[error(
        "no trophy-bin drop point and no rack: jog the tool above the trophy bin and add it \
         as a `[[bins]]` entry with x, y and z, or teach the rack's slots as `[rack]`"
    )]
    NoBin,
    /// A piece diameter that cannot be.
    #[error(
        "[pieces] diameter_mm = {0} is impossible: it must be positive; measure a piece across \
         or remove the key"
    )]
    PieceDiameter(f64),
    /// The rack cannot hold pieces as taught.
    #[error(transparent)]
    Rack(#[from] RackError),
    /// Piece heights that cannot be.
    #[error(
        "[pieces] man_mm = {man} and king_mm = {king} are impossible: both must be positive \
         and a king at least as tall as a man; measure a man and a king and correct them"
    )]
    PieceHeights {
        /// Man height in the file.
        man: f64,
        /// King height in the file.
        king: f64,
    },
    /// Speed figures that make every estimate meaningless.
    #[error(
        "[motion] needs a positive speed_mm_s and acceleration_mm_s2 and a suction_s of at \
         least 0: correct them or remove the section to use the defaults"
    )]
    Motion,
    /// The travel height is under the board itself.
    #[error(
        "[travel] safe_z = {safe_z:.1} mm is below the board: square {square} is at z \
         {board_z:.1} mm; raise safe_z to at least {needed:.1} mm"
    )]
    SafeHeightBelowBoard {
        /// The travel height in the file.
        safe_z: f64,
        /// The highest square.
        square: BoardSquare,
        /// Its height.
        board_z: f64,
        /// The least travel height that clears every piece.
        needed: f64,
    },
    /// A carried piece would hit standing ones.
    #[error(
        "[travel] safe_z = {safe_z:.1} mm is too low: a king carried over {point} would hit \
         the pieces standing there; raise safe_z to at least {needed:.1} mm (or measure \
         [pieces] again)"
    )]
    SafeHeightTooLow {
        /// The travel height in the file.
        safe_z: f64,
        /// The point whose pieces would be hit.
        point: String,
        /// The least travel height that clears every piece.
        needed: f64,
    },
    /// Points out of the arm's reach.
    #[error(
        "{count} calibrated point(s) out of the arm's reach: {points}. Move the board, bin, \
         rack, reserve or park pose so that it lies within reach and teach those points again, or \
         correct the arm's dimensions in [arm]",
        count = .points.0.len()
    )]
    Unreachable {
        /// Every point the arm cannot reach.
        points: UnreachablePoints,
    },
    /// Every point is in reach, but the path between them is not: a lift to the travel height
    /// or the travel at it passes where the arm's joints cannot go.
    #[error(
        "the arm's path leaves its reach at {count} point(s): {points}. Change [travel] safe_z \
         so that the arm can go straight up to it and across at it, or move those spots",
        count = .points.0.len()
    )]
    PathOutOfReach {
        /// The first unreachable points of each lift, and of the travel.
        points: UnreachablePoints,
    },
}

/// A checked calibration: every point is on a proper board, in reach, and above the pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    arm: ArmModel,
    corners: BoardCorners,
    overrides: BTreeMap<BoardSquare, Point>,
    pieces: PieceHeights,
    travel: Travel,
    park: Point,
    bins: Vec<Point>,
    rack: Option<RackGrid>,
    king_reserve: Vec<Point>,
    motion: MotionModel,
}

impl Calibration {
    /// Reads and checks a calibration file's text.
    pub fn from_toml(text: &str) -> Result<Calibration, CalibrationError> {
        let file: CalibrationFile =
            toml::from_str(text).map_err(|error| CalibrationError::Syntax(error.to_string()))?;
        Calibration::from_file(file)
    }

    /// Checks a calibration as the wizard filled it in.
    pub fn from_file(file: CalibrationFile) -> Result<Calibration, CalibrationError> {
        if file.version != FORMAT_VERSION {
            return Err(CalibrationError::Version {
                found: file.version,
            });
        }
        let side = file.board.side;
        if ![8, 10, 12].contains(&side) {
            return Err(CalibrationError::Side { side });
        }
        let corners = BoardCorners::new(side, read_corners(side, &file.board.corners)?)?;
        let overrides = read_overrides(side, &file.board.overrides)?;
        if file.bins.is_empty() && file.rack.is_none() {
            return Err(CalibrationError::NoBin);
        }
        let pieces = file.pieces;
        if !(pieces.man_mm > 0.0 && pieces.king_mm >= pieces.man_mm) {
            return Err(CalibrationError::PieceHeights {
                man: pieces.man_mm,
                king: pieces.king_mm,
            });
        }
        if let Some(diameter) = pieces.diameter_mm
            && (diameter.is_nan() || diameter <= 0.0)
        {
            return Err(CalibrationError::PieceDiameter(diameter));
        }
        let rack = match file.rack {
            Some(section) => {
                let (diameter, source) = match pieces.diameter_mm {
                    Some(diameter) => (diameter, "[pieces] diameter_mm"),
                    None => (
                        corners.square_pitch(),
                        "the board's square pitch; set [pieces] diameter_mm if pieces are smaller",
                    ),
                };
                Some(RackGrid::new(section, &corners, diameter, source)?)
            }
            None => None,
        };
        let motion = file.motion;
        if !(motion.speed_mm_s > 0.0 && motion.acceleration_mm_s2 > 0.0 && motion.suction_s >= 0.0)
        {
            return Err(CalibrationError::Motion);
        }
        let calibration = Calibration {
            arm: file.arm,
            corners,
            overrides,
            pieces,
            travel: file.travel,
            park: file.park,
            bins: file.bins,
            rack,
            king_reserve: file.king_reserve,
            motion,
        };
        calibration.check_travel_height()?;
        let unreachable = calibration.unreachable_points();
        if !unreachable.is_empty() {
            return Err(CalibrationError::Unreachable {
                points: UnreachablePoints(unreachable),
            });
        }
        let off_path = calibration.unreachable_path_points();
        if !off_path.is_empty() {
            return Err(CalibrationError::PathOutOfReach {
                points: UnreachablePoints(off_path),
            });
        }
        Ok(calibration)
    }

    /// The file form, for saving or for the wizard to edit.
    pub fn to_file(&self) -> CalibrationFile {
        let side = self.side();
        CalibrationFile {
            version: FORMAT_VERSION,
            arm: self.arm,
            board: BoardSection {
                side,
                corners: Corner::ALL
                    .into_iter()
                    .map(|corner| (corner.square(side).to_string(), self.corners.corner(corner)))
                    .collect(),
                overrides: self
                    .overrides
                    .iter()
                    .map(|(square, point)| (square.to_string(), *point))
                    .collect(),
            },
            pieces: self.pieces,
            travel: self.travel,
            park: self.park,
            bins: self.bins.clone(),
            rack: self.rack.as_ref().map(|rack| rack.section().clone()),
            king_reserve: self.king_reserve.clone(),
            motion: self.motion,
        }
    }

    /// The file's text.
    pub fn to_toml(&self) -> String {
        toml::to_string(&self.to_file()).expect("a calibration always serializes")
    }

    /// Squares along the board's edge.
    pub const fn side(&self) -> usize {
        self.corners.side()
    }

    /// The arm and its kinematics.
    pub const fn arm(&self) -> &ArmModel {
        &self.arm
    }

    /// The taught corners.
    pub const fn corners(&self) -> &BoardCorners {
        &self.corners
    }

    /// Piece heights.
    pub const fn pieces(&self) -> &PieceHeights {
        &self.pieces
    }

    /// Tool height for crossing the board, mm.
    pub const fn safe_z(&self) -> f64 {
        self.travel.safe_z
    }

    /// The resting pose's position.
    pub const fn park(&self) -> Point {
        self.park
    }

    /// Trophy-bin drop points.
    pub fn bins(&self) -> &[Point] {
        &self.bins
    }

    /// Spare-king slots, in the order they are used.
    pub fn king_slots(&self) -> &[Point] {
        &self.king_reserve
    }

    /// The rack, when one was taught: without it captured pieces go to the bins for good.
    pub const fn rack(&self) -> Option<&RackGrid> {
        self.rack.as_ref()
    }

    /// Where the tool grips a piece of `kind` standing in rack slot `index`; `None` without a
    /// rack or past its last slot.
    pub fn rack_grip(&self, index: usize, kind: PieceKind) -> Option<Point> {
        let slot = *self.rack.as_ref()?.slots().get(index)?;
        Some(slot.at_height(slot.z + self.pieces.grip_offset(kind)))
    }

    /// Where the tool grips a piece of `kind` in spare-king slot `index`, taught on a king's
    /// top (a man there, put by hand, is gripped lower).
    pub fn reserve_grip(&self, index: usize, kind: PieceKind) -> Option<Point> {
        let slot = *self.king_reserve.get(index)?;
        let below_king = self.pieces.grip_offset(PieceKind::King) - self.pieces.grip_offset(kind);
        Some(slot.at_height(slot.z - below_king))
    }

    /// Speed figures.
    pub const fn motion(&self) -> &MotionModel {
        &self.motion
    }

    /// Where the tool touches the top of a man on `square`: its override or the interpolated
    /// centre. `None` off the board.
    pub fn square(&self, square: BoardSquare) -> Option<Point> {
        if !square.is_on(self.side()) {
            return None;
        }
        Some(
            self.overrides
                .get(&square)
                .copied()
                .unwrap_or_else(|| self.corners.centre(square)),
        )
    }

    /// Where the tool grips a piece of `kind` standing on `square`.
    pub fn grip(&self, square: BoardSquare, kind: PieceKind) -> Option<Point> {
        let centre = self.square(square)?;
        Some(centre.at_height(centre.z + self.pieces.grip_offset(kind)))
    }

    /// The squares pieces stand on, row by row from a1.
    pub fn dark_squares(&self) -> impl Iterator<Item = BoardSquare> + use<> {
        let side = self.side() as u8;
        (0..side)
            .flat_map(move |row| (0..side).map(move |col| BoardSquare::new(row, col)))
            .filter(|square| square.is_dark())
    }

    /// Every point the arm may be sent to, named for the operator: each square (with a man
    /// and with a king), the bins, the reserve slots and the park pose, each also at the travel
    /// height above it.
    pub fn named_points(&self) -> Vec<(String, Point)> {
        let safe_z = self.safe_z();
        let mut points = Vec::new();
        let with_travel = |points: &mut Vec<(String, Point)>, name: String, point: Point| {
            points.push((
                format!("above {name} at the safe height"),
                point.at_height(safe_z),
            ));
            points.push((name, point));
        };
        for square in self.dark_squares() {
            let man = self
                .grip(square, PieceKind::Man)
                .expect("dark squares are on the board");
            let king = self
                .grip(square, PieceKind::King)
                .expect("dark squares are on the board");
            with_travel(&mut points, format!("square {square}"), man);
            if king != man {
                points.push((format!("square {square} holding a king"), king));
            }
        }
        for (i, bin) in self.bins.iter().enumerate() {
            with_travel(&mut points, format!("bin {}", i + 1), *bin);
        }
        for (i, slot) in self.king_reserve.iter().enumerate() {
            with_travel(&mut points, format!("king reserve slot {}", i + 1), *slot);
        }
        if let Some(rack) = &self.rack {
            let king_offset = self.pieces.grip_offset(PieceKind::King);
            for (i, slot) in rack.slots().iter().enumerate() {
                let name = format!("[rack] slot {}", rack.name(i));
                with_travel(&mut points, name.clone(), *slot);
                if king_offset > 0.0 {
                    points.push((
                        format!("{name} holding a king"),
                        slot.at_height(slot.z + king_offset),
                    ));
                }
            }
        }
        with_travel(&mut points, "the park pose".to_owned(), self.park);
        points
    }

    /// Every named point the arm cannot reach: the start-up check, also run on load.
    pub fn unreachable_points(&self) -> Vec<UnreachablePoint> {
        self.named_points()
            .into_iter()
            .filter_map(|(name, point)| {
                self.arm
                    .unreachable(point)
                    .map(|why| UnreachablePoint { name, point, why })
            })
            .collect()
    }

    /// The points of the path between the named points that the arm cannot reach, named for
    /// the operator: on each straight lift from a spot to the travel height, the very points
    /// a joint-target controller is sent (the driver's hops; between two of them every joint
    /// turns evenly, which keeps it within its limits), and across the travel height every
    /// millimetre of distance from the base axis the travel passes through (the hops go
    /// around the base axis, so only that distance and the base angle change, and the base
    /// angles between two reachable ones are reachable). A mechanism bounded by circular arcs,
    /// like the reference arm's parallelogram, can reach both ends of a lift and not its
    /// middle: checking the named points alone would not see it.
    pub fn unreachable_path_points(&self) -> Vec<UnreachablePoint> {
        let safe_z = self.safe_z();
        let mut out = Vec::new();
        let spots: Vec<(String, Point)> = self
            .named_points()
            .into_iter()
            .filter(|(name, _)| !name.starts_with("above "))
            .collect();
        for (name, point) in &spots {
            let lift = hops(*point, point.at_height(safe_z));
            let first_miss = lift[..lift.len() - 1].iter().find_map(|&on_the_way| {
                self.arm
                    .unreachable(on_the_way)
                    .map(|why| UnreachablePoint {
                        name: format!("lifting from {name} to the safe height"),
                        point: on_the_way,
                        why,
                    })
            });
            out.extend(first_miss);
        }
        let radii = spots.iter().map(|(_, point)| point.radius());
        let (near, far) = radii.fold((f64::INFINITY, 0.0_f64), |(near, far), r| {
            (near.min(r), far.max(r))
        });
        let bearing = self.park.y.atan2(self.park.x);
        let steps = (far - near).ceil().max(0.0) as usize;
        let travel_miss = (0..=steps).find_map(|step| {
            let radius = (near + step as f64).min(far);
            let on_the_way = Point::new(radius * bearing.cos(), radius * bearing.sin(), safe_z);
            self.arm
                .unreachable(on_the_way)
                .map(|why| UnreachablePoint {
                    name: format!(
                        "the travel at the safe height, {radius:.0} mm from the base axis"
                    ),
                    point: on_the_way,
                    why,
                })
        });
        out.extend(travel_miss);
        out
    }

    /// Refuses a travel height at which a carried king would touch the standing pieces: the
    /// tool grips a king at its top, so the king hangs `king_mm` below the tool, and the
    /// tallest standing piece on a square is a king.
    fn check_travel_height(&self) -> Result<(), CalibrationError> {
        let safe_z = self.safe_z();
        let hanging = self.pieces.king_mm + self.travel.clearance_mm;
        let mut needed = f64::NEG_INFINITY;
        let mut highest_square = None;
        let mut limiting_point = String::new();
        for square in self.dark_squares() {
            let man = self
                .grip(square, PieceKind::Man)
                .expect("dark squares are on the board");
            if highest_square.is_none_or(|(_, z)| man.z > z) {
                highest_square = Some((square, man.z));
            }
            let top = self
                .grip(square, PieceKind::King)
                .expect("dark squares are on the board");
            if top.z + hanging > needed {
                needed = top.z + hanging;
                limiting_point = format!("square {square}");
            }
        }
        for (i, slot) in self.king_reserve.iter().enumerate() {
            if slot.z + hanging > needed {
                needed = slot.z + hanging;
                limiting_point = format!("king reserve slot {}", i + 1);
            }
        }
        if let Some(rack) = &self.rack {
            let king_offset = self.pieces.grip_offset(PieceKind::King);
            for (i, slot) in rack.slots().iter().enumerate() {
                if slot.z + king_offset + hanging > needed {
                    needed = slot.z + king_offset + hanging;
                    limiting_point = format!("[rack] slot {}", rack.name(i));
                }
            }
        }
        let (square, board_z) = highest_square.expect("every board has dark squares");
        if safe_z < board_z {
            return Err(CalibrationError::SafeHeightBelowBoard {
                safe_z,
                square,
                board_z,
                needed,
            });
        }
        if safe_z < needed {
            return Err(CalibrationError::SafeHeightTooLow {
                safe_z,
                point: limiting_point,
                needed,
            });
        }
        Ok(())
    }
}

fn read_corners(
    side: usize,
    named: &BTreeMap<String, Point>,
) -> Result<[Point; 4], CalibrationError> {
    let expected: Vec<String> = Corner::ALL
        .into_iter()
        .map(|corner| corner.square(side).to_string())
        .collect();
    if let Some(name) = named.keys().find(|name| !expected.contains(name)) {
        return Err(CalibrationError::UnknownCorner {
            name: name.clone(),
            side,
            expected: expected.join(", "),
        });
    }
    let mut points = [Point::default(); 4];
    for (point, corner) in points.iter_mut().zip(Corner::ALL) {
        let name = corner.square(side);
        *point = *named
            .get(&name.to_string())
            .ok_or(CalibrationError::MissingCorner {
                name,
                place: corner.description(),
            })?;
    }
    Ok(points)
}

fn read_overrides(
    side: usize,
    named: &BTreeMap<String, Point>,
) -> Result<BTreeMap<BoardSquare, Point>, CalibrationError> {
    named
        .iter()
        .map(|(name, point)| match BoardSquare::parse(name) {
            Some(square) if square.is_on(side) && square.is_dark() => Ok((square, *point)),
            _ => Err(CalibrationError::BadOverride {
                name: name.clone(),
                side,
            }),
        })
        .collect()
}
