//! A planned robot move: the steps, the path the tool takes, its duration, and the two
//! controllers' forms of it.
//!
//! The plan itself is arm-independent (points in the base frame); each controller gets its own
//! translation: the Dobot takes `JUMP` poses and does the lift-travel-lower itself, the
//! reference controller takes joint targets and moves each joint straight to its target, so
//! its travel is cut into short hops that keep the tool at the safe height.

use super::kinematics::{Kinematics, Magician, Unreachable};
use super::point::Point;
use super::slot::{Slot, StockChange};
use super::square::BoardSquare;
use super::travel::TravelTime;
use crate::device::{Motion, Pose};

/// Longest hop of a joint-target move (travel or lift), mm: short enough that moving every joint straight to
/// its next target keeps the tool within a few hundredths of a millimetre of the travel height.
const JOINT_HOP_MM: f64 = 10.0;

/// A place the arm picks from or puts down on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spot {
    /// A board square.
    Square(BoardSquare),
    /// A trophy-bin drop point, by its index in the calibration.
    Bin(usize),
    /// A spare-king slot, by its index in the calibration.
    KingSlot(usize),
    /// A rack slot, by its index (row by row from 0).
    RackSlot(usize),
}

impl Spot {
    /// The stock's slot this spot is, if it is one.
    pub const fn slot(self) -> Option<Slot> {
        match self {
            Spot::KingSlot(i) => Some(Slot::Reserve(i)),
            Spot::RackSlot(i) => Some(Slot::Rack(i)),
            Spot::Square(_) | Spot::Bin(_) => None,
        }
    }
}

impl From<Slot> for Spot {
    fn from(slot: Slot) -> Spot {
        match slot {
            Slot::Rack(i) => Spot::RackSlot(i),
            Slot::Reserve(i) => Spot::KingSlot(i),
        }
    }
}

/// One step of a robot move, as the host reports it and the controllers carry it out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArmStep {
    /// Travel above `at`, go down, grip the piece with suction, go back up.
    Pick {
        /// What is picked from.
        spot: Spot,
        /// Where the tool meets the piece.
        at: Point,
    },
    /// Travel above `at`, go down, release the suction, go back up.
    Release {
        /// What is put down on.
        spot: Spot,
        /// Where the tool lets go.
        at: Point,
    },
    /// Travel to the park pose, out of the visitor's way and the board's view.
    Park {
        /// The park pose's position.
        at: Point,
    },
    /// No spare king is left: the visitor must crown the man on `square` (after the arm parked).
    AskVisitorToCrown {
        /// The square of the man to crown.
        square: BoardSquare,
    },
}

/// One straight piece of the tool's path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// Where it starts.
    pub from: Point,
    /// Where it ends.
    pub to: Point,
}

impl Segment {
    /// Whether the tool only moves up or down: the approaches below the travel height.
    pub fn is_vertical(&self) -> bool {
        self.from.horizontal_distance(self.to) < 1e-9
    }

    /// Length, mm.
    pub fn length(&self) -> f64 {
        self.from.distance(self.to)
    }
}

/// One command for the Dobot, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DobotStep {
    /// [`Arm::move_to`](crate::device::Arm::move_to) with these arguments.
    Move {
        /// The target pose (`r` keeps the tool unturned).
        target: Pose,
        /// Always [`Motion::Jump`]: the firmware lifts to the jump height, travels, lowers.
        motion: Motion,
    },
    /// [`Arm::set_suction`](crate::device::Arm::set_suction).
    Suction(bool),
    /// Tell the visitor to crown the man on this square.
    AskVisitorToCrown(BoardSquare),
}

/// One command for a controller that takes joint targets, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointStep<J> {
    /// Move every joint straight to these angles.
    Move(J),
    /// Suction on (grip) or off (release).
    Suction(bool),
    /// Tell the visitor to crown the man on this square.
    AskVisitorToCrown(BoardSquare),
}

/// An ordered robot move, from the park pose back to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub(crate) start: Point,
    pub(crate) safe_z: f64,
    pub(crate) steps: Vec<ArmStep>,
    pub(crate) king_slot: Option<usize>,
    pub(crate) stock_changes: Vec<StockChange>,
}

impl Plan {
    /// The steps in order.
    pub fn steps(&self) -> &[ArmStep] {
        &self.steps
    }

    /// The travel height the plan keeps; the Dobot driver sets its jump height to reach it.
    pub const fn safe_z(&self) -> f64 {
        self.safe_z
    }

    /// The reserve slot whose king this plan uses: once it is carried out, the daemon calls
    /// [`KingReserve::take`](super::KingReserve::take).
    pub const fn king_slot(&self) -> Option<usize> {
        self.king_slot
    }

    /// What the plan takes from and puts into the rack and the reserve, in order: once the
    /// arm has carried it out, the caller records it with
    /// [`Stock::apply`](super::Stock::apply). Empty for a plan made without a stock.
    pub fn stock_changes(&self) -> &[StockChange] {
        &self.stock_changes
    }

    /// The square the visitor must crown because the reserve is empty.
    pub fn visitor_crowns(&self) -> Option<BoardSquare> {
        self.steps.iter().find_map(|step| match step {
            ArmStep::AskVisitorToCrown { square } => Some(*square),
            _ => None,
        })
    }

    /// The squares whose pieces go to the bin or the rack, in the planned order.
    pub fn cleared_squares(&self) -> Vec<BoardSquare> {
        let mut cleared = Vec::new();
        for pair in self.steps.windows(2) {
            if let [
                ArmStep::Pick {
                    spot: Spot::Square(square),
                    ..
                },
                ArmStep::Release {
                    spot: Spot::Bin(_) | Spot::RackSlot(_),
                    ..
                },
            ] = pair
            {
                cleared.push(*square);
            }
        }
        cleared
    }

    /// What the tool does, in order: each point it goes to in a straight line (up to the
    /// travel height, across, down), the suction switching, and the visitor's crowning.
    fn actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        let mut position = self.start;
        for step in &self.steps {
            let (target, suction) = match *step {
                ArmStep::Pick { at, .. } => (at, Some(true)),
                ArmStep::Release { at, .. } => (at, Some(false)),
                ArmStep::Park { at } => (at, None),
                ArmStep::AskVisitorToCrown { square } => {
                    actions.push(Action::Crown(square));
                    continue;
                }
            };
            for waypoint in [
                position.at_height(self.safe_z),
                target.at_height(self.safe_z),
                target,
            ] {
                if waypoint.distance(position) > 0.0 {
                    actions.push(Action::Go {
                        from: position,
                        to: waypoint,
                    });
                    position = waypoint;
                }
            }
            if let Some(on) = suction {
                actions.push(Action::Suction(on));
            }
        }
        actions
    }

    /// The tool's path as straight segments: up to the travel height, across, straight down,
    /// and so on, from the park pose back to it.
    pub fn segments(&self) -> Vec<Segment> {
        self.actions()
            .into_iter()
            .filter_map(|action| match action {
                Action::Go { from, to } => Some(Segment { from, to }),
                _ => None,
            })
            .collect()
    }

    /// Length of the tool's path, mm.
    pub fn travel_mm(&self) -> f64 {
        self.segments().iter().map(Segment::length).sum()
    }

    /// Estimated time to carry out the plan, s, by the arm's own [`TravelTime`].
    pub fn duration_s(&self, travel: &dyn TravelTime) -> f64 {
        let moving: f64 = self
            .segments()
            .iter()
            .map(|segment| travel.segment_s(segment.from, segment.to))
            .sum();
        let grips = self
            .steps
            .iter()
            .filter(|step| matches!(step, ArmStep::Pick { .. } | ArmStep::Release { .. }))
            .count();
        moving + grips as f64 * travel.suction_s()
    }

    /// The plan as Dobot commands: one `JUMP` per pick, place or park, with the suction
    /// switched in between. The driver must set the jump height (`PTPJumpParams`) so that the
    /// lift reaches [`Plan::safe_z`].
    pub fn for_dobot(&self, arm: &Magician) -> Vec<DobotStep> {
        let mut out = Vec::with_capacity(self.steps.len() * 2);
        for step in &self.steps {
            let jump = |at: Point| DobotStep::Move {
                target: arm.pose_for(at),
                motion: Motion::Jump,
            };
            match *step {
                ArmStep::Pick { at, .. } => out.extend([jump(at), DobotStep::Suction(true)]),
                ArmStep::Release { at, .. } => out.extend([jump(at), DobotStep::Suction(false)]),
                ArmStep::Park { at } => out.push(jump(at)),
                ArmStep::AskVisitorToCrown { square } => {
                    out.push(DobotStep::AskVisitorToCrown(square));
                }
            }
        }
        out
    }

    /// The plan as joint targets (the reference robot's controller): every segment, lifts and
    /// travel alike, cut into short hops, interpolated around the base axis so that each hop
    /// stays in the arm's reach.
    pub fn for_joints<K: Kinematics>(
        &self,
        arm: &K,
    ) -> Result<Vec<JointStep<K::Joints>>, (Point, Unreachable)> {
        let mut out = Vec::new();
        for action in self.actions() {
            match action {
                Action::Go { from, to } => {
                    for point in hops(from, to) {
                        let joints = arm.inverse(point).map_err(|why| (point, why))?;
                        out.push(JointStep::Move(joints));
                    }
                }
                Action::Suction(on) => out.push(JointStep::Suction(on)),
                Action::Crown(square) => out.push(JointStep::AskVisitorToCrown(square)),
            }
        }
        Ok(out)
    }
}

/// One thing the tool does while a plan runs.
#[derive(Debug, Clone, Copy)]
enum Action {
    Go { from: Point, to: Point },
    Suction(bool),
    Crown(BoardSquare),
}

/// Points from `from` (excluded) to `to` (included), hops of at most [`JOINT_HOP_MM`] (a move
/// shorter than that is one hop), interpolated in the arm's cylindrical coordinates (angle
/// about the base axis, distance from it, height), where the reachable space is a simple box.
/// Lifts are cut as travel is: moving every joint straight to the end of a long lift would
/// bend the tool's path, and a parallelogram arm may not reach the middle of one.
pub(crate) fn hops(from: Point, to: Point) -> Vec<Point> {
    let count = (from.distance(to) / JOINT_HOP_MM).ceil().max(1.0) as usize;
    let (from_angle, to_angle) = (from.y.atan2(from.x), to.y.atan2(to.x));
    let (from_radius, to_radius) = (from.radius(), to.radius());
    (1..=count)
        .map(|i| {
            if i == count {
                return to;
            }
            let t = i as f64 / count as f64;
            let angle = from_angle + (to_angle - from_angle) * t;
            let radius = from_radius + (to_radius - from_radius) * t;
            Point::new(
                radius * angle.cos(),
                radius * angle.sin(),
                from.z + (to.z - from.z) * t,
            )
        })
        .collect()
}
