//! The controller's own arm (the reference robot's stepper board) as an [`Arm`]: the host does
//! the kinematics and sends joint targets; the controller interpolates them, works the pump
//! and valve in order with them, and reports each finished motion.
//!
//! The arm shares the board's session: [`ControllerDevice::split`] hands its half of the link
//! (the same [`LinkHandle`], and the arm's own events) to [`ControllerArm::new`], so a new
//! session (a reconnect) serves both. Every wait has a limit: each motion is allowed twice the
//! time its joints need at the configured speeds plus a slack, homing its own time, so a
//! controller that never reports a motion done fails the call instead of hanging it.
//!
//! [`ControllerDevice::split`]: super::ControllerDevice::split

use std::collections::VecDeque;
use std::time::Duration;

use thiserror::Error;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::ErrorType;
use crate::arm::joint_motion::{JointSpaceModel, JointSpeeds};
use crate::arm::kinematics::{Kinematics, ReferenceArm, ReferenceJoints, Unreachable};
use crate::arm::point::Point;
use crate::controller::codes::{Capabilities, FaultCode, NackReason};
use crate::controller::device::{DeviceError, timed};
use crate::controller::link::{LinkEvent, LinkHandle, SendError};
use crate::controller::message::{Fault, JointTargets, Message, Welcome};
use crate::device::{Arm, ArmAlarms, Motion, Pose};
use crate::error::{Error, ErrorKind};

/// The arm's half of a controller session, from
/// [`ControllerDevice::split`](super::ControllerDevice::split).
#[derive(Debug)]
pub struct ArmLink {
    pub(super) welcome: Welcome,
    pub(super) handle: LinkHandle,
    pub(super) events: mpsc::Receiver<LinkEvent>,
}

impl ArmLink {
    /// What the controller said about itself in the handshake.
    pub fn welcome(&self) -> &Welcome {
        &self.welcome
    }
}

/// How the host drives the controller's arm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControllerArmConfig {
    /// The arm's geometry and joint limits.
    pub kinematics: ReferenceArm,
    /// The joint angles at the home position the limit switches give: the wire's angles are
    /// counted from them.
    pub home: ReferenceJoints,
    /// Top speed of each joint (base, forearm, upper arm, wrist), degrees/s.
    pub joint_speed_deg_s: [f64; 4],
    /// Acceleration and braking of every joint, degrees/s².
    pub joint_acceleration_deg_s2: f64,
    /// The height a [`Motion::Jump`] travels at, mm: above every piece on the board.
    pub travel_z: f64,
    /// Where [`Arm::park`] takes the tool.
    pub park: Pose,
    /// How long the tool stays put after the pump is switched on or off, so vacuum builds
    /// before a lift and a piece falls free before the tool leaves.
    pub suction_dwell: Duration,
    /// The longest one message may take to be accepted (the link gives up after about 400 ms).
    pub command_timeout: Duration,
    /// Added to twice each motion's estimated time before the host gives up on its
    /// `MotionDone`: time the estimate does not see (the firmware's planning, a slow bridge).
    pub motion_slack: Duration,
    /// How long homing may take.
    pub home_timeout: Duration,
}

impl Default for ControllerArmConfig {
    /// Joints at 90 deg/s (base) and 60 deg/s (links), gentle for a Dobot v1 on NEMA 17
    /// steppers through A4988 drivers; home with the upper arm upright and the forearm level.
    fn default() -> ControllerArmConfig {
        ControllerArmConfig {
            kinematics: ReferenceArm::default(),
            home: ReferenceJoints::new(0.0, 0.0, 90.0),
            joint_speed_deg_s: [90.0, 60.0, 60.0, 60.0],
            joint_acceleration_deg_s2: 180.0,
            travel_z: 40.0,
            park: Pose {
                x: 200.0,
                y: 0.0,
                z: 80.0,
                r: 0.0,
            },
            suction_dwell: Duration::from_millis(300),
            command_timeout: Duration::from_secs(1),
            motion_slack: Duration::from_secs(1),
            home_timeout: Duration::from_secs(30),
        }
    }
}

impl ControllerArmConfig {
    /// The joints' speeds, from which every motion's duration is worked out.
    pub fn joint_speeds(&self) -> JointSpeeds {
        JointSpeeds {
            speed_deg_s: self.joint_speed_deg_s,
            acceleration_deg_s2: self.joint_acceleration_deg_s2,
        }
    }

    /// How long the move from `from` to `to` takes: the slowest joint's time, every joint
    /// arriving together.
    pub fn motion_time(&self, from: &ReferenceJoints, to: &ReferenceJoints) -> Duration {
        self.joint_speeds()
            .move_time(ReferenceArm::angles(from), ReferenceArm::angles(to))
    }

    /// The planners' estimate of this arm's time: the same hops, joint speeds and suction
    /// dwell this driver moves with.
    pub fn travel_time(&self) -> JointSpaceModel<ReferenceArm> {
        JointSpaceModel {
            arm: self.kinematics,
            speeds: self.joint_speeds(),
            suction_s: self.suction_dwell.as_secs_f64(),
        }
    }

    /// The wire's angles for `joints`: hundredths of a degree from home for the three driven
    /// joints; the wrist follows the forearm through the parallelogram and is sent as 0.
    pub fn wire_angles(&self, joints: &ReferenceJoints) -> [i32; 4] {
        let (angles, home) = (
            ReferenceArm::angles(joints),
            ReferenceArm::angles(&self.home),
        );
        let centi = |j: usize| ((angles[j] - home[j]) * 100.0).round() as i32;
        [centi(0), centi(1), centi(2), 0]
    }
}

/// Why a command to the controller's arm failed.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum ArmError {
    /// The link refused or lost the message, or did not answer in time.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// The controller announced no arm joints or no pump in its Welcome.
    #[error(
        "the board controller drives no arm (capabilities {0:?} lack the arm joints or the pump)"
    )]
    NoArm(Capabilities),
    /// A target the arm cannot reach.
    #[error("the arm cannot reach {target}: {why}")]
    Unreachable {
        /// The tool position asked for.
        target: Point,
        /// Why not.
        why: Unreachable,
    },
    /// The controller stopped the arm with a fault (a limit switch, lost steps, no vacuum).
    #[error("the arm stopped: {code} (subject {subject})")]
    Fault {
        /// What broke.
        code: FaultCode,
        /// Which joint (0 for the pump).
        subject: u8,
    },
    /// A motion was not reported done within its allowance.
    #[error("motion {motion_id} was not reported done within {allowance:?}")]
    MotionTimeout {
        /// The motion waited for.
        motion_id: u16,
        /// How long it was allowed.
        allowance: Duration,
    },
}

impl Error for ArmError {
    fn kind(&self) -> ErrorKind {
        match self {
            ArmError::Device(error) => error.kind(),
            ArmError::NoArm(_) | ArmError::Unreachable { .. } => ErrorKind::Rejected,
            ArmError::Fault { code, .. } if *code == FaultCode::PUMP => ErrorKind::Fault,
            ArmError::Fault { .. } => ErrorKind::Alarm,
            ArmError::MotionTimeout { .. } => ErrorKind::Timeout,
        }
    }
}

/// Whether a fault stops the arm and empties its queue (docs/protocol.md): a limit switch,
/// lost steps, failed homing, and a pump that lost vacuum (the piece is not held).
fn stops_the_arm(code: FaultCode) -> bool {
    matches!(
        code,
        FaultCode::PUMP
            | FaultCode::JOINT_LIMIT
            | FaultCode::JOINT_STALL
            | FaultCode::HOMING_FAILED
    )
}

/// A motion accepted by the controller and not yet reported done.
#[derive(Debug, Clone, Copy)]
struct Pending {
    motion_id: u16,
    allowance: Duration,
    /// Where the motion takes the joints.
    to: ReferenceJoints,
    /// The pump change this motion's dwell follows, if it is one.
    pump: Option<bool>,
}

/// The controller's arm, driven over its share of the controller's session.
#[derive(Debug)]
pub struct ControllerArm {
    welcome: Welcome,
    link: LinkHandle,
    events: mpsc::Receiver<LinkEvent>,
    config: ControllerArmConfig,
    next_motion: u16,
    /// Accepted motions, oldest first; motions finish in queue order.
    pending: VecDeque<Pending>,
    /// When the oldest pending motion became the oldest: its allowance runs from then.
    head_since: Instant,
    /// The angles of the last target queued: where the arm is once it is idle.
    joints: ReferenceJoints,
    /// The angles of the last motion reported done: where a stopped arm was last known.
    reached: ReferenceJoints,
    /// Where the cup took hold, while finished motions say the pump runs: a stopped arm may
    /// hold that piece.
    cup: Option<ReferenceJoints>,
    /// Faults the controller reports active.
    active: Vec<Fault>,
    /// A fault that stopped the arm since the last wait, reported by the next one.
    tripped: Option<Fault>,
}

impl ControllerArm {
    /// The arm over `link`, refused when the controller has no arm and pump. The arm is taken
    /// to be at home: call [`Arm::home`] after power-up.
    pub fn new(link: ArmLink, config: ControllerArmConfig) -> Result<ControllerArm, ArmError> {
        let needed = Capabilities(Capabilities::ARM_JOINTS.0 | Capabilities::PUMP_VALVE.0);
        if !link.welcome.capabilities.contains(needed) {
            return Err(ArmError::NoArm(link.welcome.capabilities));
        }
        Ok(ControllerArm {
            welcome: link.welcome,
            link: link.handle,
            events: link.events,
            config,
            next_motion: 1,
            pending: VecDeque::new(),
            head_since: Instant::now(),
            joints: config.home,
            reached: config.home,
            cup: None,
            active: Vec::new(),
            tripped: None,
        })
    }

    /// The arm over `link`, made ready ([`ControllerArm::make_ready`]).
    pub async fn start(
        link: ArmLink,
        config: ControllerArmConfig,
    ) -> Result<ControllerArm, ArmError> {
        let mut arm = ControllerArm::new(link, config)?;
        arm.make_ready().await?;
        Ok(arm)
    }

    /// Clears the faults whose cause is gone (one may be left from before a reconnect), then
    /// homes and waits for it: nothing in the protocol says where the joints are, so every
    /// session (the first, and each after a reconnect) starts so.
    pub async fn make_ready(&mut self) -> Result<(), ArmError> {
        self.clear_alarms().await?;
        self.home().await?;
        self.wait_until_idle().await
    }

    /// The arm's half of the session back, for another try at [`ControllerArm::make_ready`]
    /// on the same session.
    pub fn into_link(self) -> ArmLink {
        ArmLink {
            welcome: self.welcome,
            handle: self.link,
            events: self.events,
        }
    }

    /// The configuration it drives with.
    pub fn config(&self) -> &ControllerArmConfig {
        &self.config
    }

    /// The joint angles of the last target queued.
    pub fn joints(&self) -> ReferenceJoints {
        self.joints
    }

    /// Sorts one event from the arm's share of the link.
    fn note(&mut self, event: LinkEvent) {
        match event {
            LinkEvent::Message(Message::MotionDone { motion_id }) => {
                if let Some(done) = self.pending.iter().position(|p| p.motion_id == motion_id) {
                    // Motions finish in order: any before it are done too.
                    for finished in self.pending.drain(..=done) {
                        self.reached = finished.to;
                        if let Some(on) = finished.pump {
                            self.cup = on.then_some(finished.to);
                        }
                    }
                    self.head_since = Instant::now();
                }
                // Otherwise a motion discarded by a stop, or of an earlier session.
            }
            LinkEvent::Message(Message::Fault(fault)) if fault.active => {
                self.active.retain(|known| known.code != fault.code);
                self.active.push(fault);
                if stops_the_arm(fault.code) {
                    self.pending.clear();
                    self.tripped = Some(fault);
                }
            }
            LinkEvent::Message(Message::Fault(fault)) => {
                self.active.retain(|known| known.code != fault.code);
            }
            LinkEvent::Message(_) | LinkEvent::BadFrame(_) => {}
        }
    }

    /// Reads every event already waiting.
    fn drain(&mut self) {
        while let Ok(event) = self.events.try_recv() {
            self.note(event);
        }
    }

    /// Waits for the next event until `deadline`; `false` when it passed first.
    async fn next_event_until(&mut self, deadline: Instant) -> Result<bool, ArmError> {
        match tokio::time::timeout_at(deadline, self.events.recv()).await {
            Ok(Some(event)) => {
                self.note(event);
                Ok(true)
            }
            Ok(None) => Err(DeviceError::Closed.into()),
            Err(_) => Ok(false),
        }
    }

    /// The fault that stopped the arm since the last call, as an error.
    fn take_tripped(&mut self) -> Result<(), ArmError> {
        match self.tripped.take() {
            Some(fault) => Err(ArmError::Fault {
                code: fault.code,
                subject: fault.subject,
            }),
            None => Ok(()),
        }
    }

    /// Waits until the oldest pending motion is done; fails when its allowance runs out.
    async fn wait_for_head(&mut self) -> Result<(), ArmError> {
        let Some(head) = self.pending.front().copied() else {
            return Ok(());
        };
        let deadline = self.head_since + head.allowance;
        while self.pending.front().map(|p| p.motion_id) == Some(head.motion_id) {
            self.take_tripped()?;
            if !self.next_event_until(deadline).await? {
                return Err(ArmError::MotionTimeout {
                    motion_id: head.motion_id,
                    allowance: head.allowance,
                });
            }
        }
        self.take_tripped()
    }

    /// Sends one arm command; a full queue (`BUSY`) is sent again once a motion finished.
    async fn queue(&mut self, message: Message) -> Result<(), ArmError> {
        loop {
            self.drain();
            self.take_tripped()?;
            let link = &self.link;
            let sent = timed(self.config.command_timeout, async {
                link.send(message).await.map_err(DeviceError::from)
            })
            .await;
            match sent {
                Ok(()) => return Ok(()),
                Err(DeviceError::Send(SendError::Nacked(NackReason::BUSY)))
                    if !self.pending.is_empty() =>
                {
                    self.wait_for_head().await?;
                }
                Err(error) => return Err(error.into()),
            }
        }
    }

    /// Queues a motion with the given allowance, remembering it until it is done.
    async fn queue_motion(
        &mut self,
        message: Message,
        allowance: Duration,
        (to, pump): (ReferenceJoints, Option<bool>),
    ) -> Result<(), ArmError> {
        self.queue(message).await?;
        let motion_id = match message {
            Message::JointTargets(targets) => targets.motion_id,
            Message::ArmHome { motion_id } => motion_id,
            _ => return Ok(()),
        };
        if self.pending.is_empty() {
            self.head_since = Instant::now();
        }
        self.pending.push_back(Pending {
            motion_id,
            allowance,
            to,
            pump,
        });
        Ok(())
    }

    fn motion_id(&mut self) -> u16 {
        let id = self.next_motion;
        self.next_motion = self.next_motion.wrapping_add(1);
        id
    }

    /// Queues a move of every joint to `to`, taking `duration` (at least what the joints need).
    async fn queue_joints(
        &mut self,
        to: ReferenceJoints,
        duration: Duration,
        pump: Option<bool>,
    ) -> Result<(), ArmError> {
        let needed = self.config.motion_time(&self.joints, &to).max(duration);
        let duration_ms = needed.as_millis().clamp(1, u128::from(u16::MAX)) as u16;
        let targets = JointTargets {
            motion_id: self.motion_id(),
            centidegrees: self.config.wire_angles(&to),
            duration_ms,
        };
        let allowance =
            Duration::from_millis(u64::from(duration_ms)) * 2 + self.config.motion_slack;
        self.queue_motion(Message::JointTargets(targets), allowance, (to, pump))
            .await?;
        self.joints = to;
        Ok(())
    }

    /// Queues moves through `points`, each one straight in joint space.
    async fn queue_points(&mut self, points: Vec<Point>) -> Result<(), ArmError> {
        // Every point is checked before the first is sent, so an unreachable target moves
        // nothing.
        let kinematics = self.config.kinematics;
        let joints = points
            .into_iter()
            .map(|target| {
                kinematics
                    .inverse(target)
                    .map_err(|why| ArmError::Unreachable { target, why })
            })
            .collect::<Result<Vec<_>, _>>()?;
        for to in joints {
            self.queue_joints(to, Duration::ZERO, None).await?;
        }
        Ok(())
    }

    /// Where the tool is once the queue has run.
    fn planned_point(&self) -> Point {
        self.config.kinematics.forward(&self.joints)
    }
}

impl ErrorType for ControllerArm {
    type Error = ArmError;
}

impl Arm for ControllerArm {
    async fn home(&mut self) -> Result<(), ArmError> {
        let motion_id = self.motion_id();
        let allowance = self.config.home_timeout;
        let home = (self.config.home, None);
        self.queue_motion(Message::ArmHome { motion_id }, allowance, home)
            .await?;
        self.joints = self.config.home;
        Ok(())
    }

    /// A [`Motion::Jump`] goes straight up or down to the travel height, crosses at it in hops
    /// of at most 10 mm interpolated about the base axis, and goes straight down (or up) to the
    /// target; a
    /// [`Motion::Linear`] move is cut into the same hops; a [`Motion::Joint`] move is one
    /// joint target.
    async fn move_to(&mut self, target: Pose, motion: Motion) -> Result<(), ArmError> {
        let (from, to) = (self.planned_point(), Point::from_pose(target));
        let points = match motion {
            Motion::Joint => vec![to],
            Motion::Linear => crate::arm::plan::hops(from, to),
            Motion::Jump => {
                let travel = self.config.travel_z;
                let (up, across) = (from.at_height(travel), to.at_height(travel));
                let mut points = Vec::new();
                let mut at = from;
                for next in [up, across, to] {
                    if next.distance(at) > 0.0 {
                        points.extend(crate::arm::plan::hops(at, next));
                        at = next;
                    }
                }
                points
            }
        };
        self.queue_points(points).await
    }

    /// The pump and valve change in order with the motions; the tool then dwells where it is
    /// for the configured time, so the change has taken hold before the next move.
    async fn set_suction(&mut self, on: bool) -> Result<(), ArmError> {
        self.queue(Message::PumpValve {
            pump_on: on,
            valve_open: !on,
        })
        .await?;
        let dwell = self.config.suction_dwell;
        self.queue_joints(self.joints, dwell, Some(on)).await
    }

    async fn park(&mut self) -> Result<(), ArmError> {
        self.set_suction(false).await?;
        let park = self.config.park;
        self.move_to(park, Motion::Jump).await
    }

    async fn wait_until_idle(&mut self) -> Result<(), ArmError> {
        self.drain();
        while !self.pending.is_empty() {
            self.wait_for_head().await?;
        }
        self.take_tripped()
    }

    /// Sends `ArmStop`: the controller stops every joint and empties its queue. Where the arm
    /// stopped is not reported: the next move starts from the last target reported reached
    /// (the arm is between it and the next), rising to the travel height first.
    async fn abort(&mut self) -> Result<(), ArmError> {
        self.pending.clear();
        let link = &self.link;
        timed(self.config.command_timeout, async {
            link.send(Message::ArmStop).await.map_err(DeviceError::from)
        })
        .await?;
        self.drain();
        self.pending.clear();
        self.tripped = None;
        self.joints = self.reached;
        Ok(())
    }

    async fn pose(&mut self) -> Result<Pose, ArmError> {
        Ok(self.planned_point().to_pose(0.0))
    }

    /// The controller's active faults of the arm and pump, by their codes.
    async fn alarms(&mut self) -> Result<ArmAlarms, ArmError> {
        self.drain();
        Ok(ArmAlarms::from_codes(
            self.active
                .iter()
                .filter(|fault| stops_the_arm(fault.code))
                .map(|fault| fault.code.0),
        ))
    }

    /// Sends `ClearFaults`. An arm stopped with the pump on may hold the piece it was carrying:
    /// it is then put back where the cup took it (up, across, down, pump off), so that it is
    /// not dropped on the way, and the board shows the move as not made.
    async fn clear_alarms(&mut self) -> Result<(), ArmError> {
        let link = &self.link;
        timed(self.config.command_timeout, async {
            link.send(Message::ClearFaults)
                .await
                .map_err(DeviceError::from)
        })
        .await?;
        self.drain();
        self.tripped = None;
        if self.pending.is_empty()
            && let Some(grip) = self.cup.take()
        {
            let at = self.config.kinematics.forward(&grip).to_pose(0.0);
            self.move_to(at, Motion::Jump).await?;
            self.set_suction(false).await?;
            let up = Pose {
                z: self.config.travel_z as f32,
                ..at
            };
            self.move_to(up, Motion::Joint).await?;
        }
        Ok(())
    }
}
