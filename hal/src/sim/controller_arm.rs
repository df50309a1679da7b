//! The simulated board controller's own arm, as on the reference robot: three joints that turn
//! at configured speeds within their limits, a queue of joint targets, pump and valve changes
//! and homing run in order, a `MotionDone` for each finished motion, and a suction cup that
//! picks and places the simulated board's pieces (and the rack's, the bin's and the reserve's),
//! laid out as a [`SimBoardLayout`] says.
//!
//! The arm lives beside the board in the simulator's shared state, so a new session (a cable
//! plugged back in) finds it as the last one left it. A task started by
//! [`SimBoardHandle::add_arm`](crate::sim::board::SimBoardHandle::add_arm) runs the queue on
//! tokio's clock (paused or not) and sends each `MotionDone` when its motion ends, through
//! whichever session serves the board then.
//!
//! Faults, from a seeded generator ([`ControllerArmFaults`]): picks that fail (the piece
//! stays), joints that stall half-way (Fault `0x22`: the queue is emptied and arm commands are
//! refused with `FAULT_ACTIVE` until `ClearFaults`), and `MotionDone`s sent late.

use std::collections::VecDeque;
use std::time::Duration;

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tokio::time::Instant;

use crate::arm::joint_motion::JointSpeeds;
use crate::arm::kinematics::{Kinematics, ReferenceArm, ReferenceJoints};
use crate::controller::{Fault, FaultCode, JointTargets, Message, NackReason};
use crate::device::Pose;
use crate::occupancy::Occupancy;
use crate::sim::layout::SimBoardLayout;

/// Faults the simulated arm causes, each decided by a seeded generator so a run replays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControllerArmFaults {
    /// Seeds the generator.
    pub seed: u64,
    /// Probability that switching the pump on over a piece leaves the piece where it is.
    pub failed_pick: f64,
    /// Probability that a motion stalls part-way with Fault `JOINT_STALL`.
    pub stall: f64,
    /// Probability that a `MotionDone` is sent late.
    pub late_done: f64,
    /// The longest a late `MotionDone` is held back (each one uniformly up to this).
    pub late_delay: Duration,
}

impl ControllerArmFaults {
    /// A healthy arm.
    pub const NONE: ControllerArmFaults = ControllerArmFaults {
        seed: 0,
        failed_pick: 0.0,
        stall: 0.0,
        late_done: 0.0,
        late_delay: Duration::ZERO,
    };
}

/// The simulated arm's fixed properties.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimArmConfig {
    /// The arm's geometry and joint limits: targets outside them are refused (`BAD_PAYLOAD`).
    pub kinematics: ReferenceArm,
    /// The joint angles at home, from which the wire's angles count; the arm starts there.
    pub home: ReferenceJoints,
    /// Top speed of each joint, degrees/s: a motion asked to be faster takes what they need.
    pub joint_speed_deg_s: [f64; 4],
    /// Acceleration of every joint, degrees/s².
    pub joint_acceleration_deg_s2: f64,
    /// Arm commands the queue holds; beyond them the controller answers `BUSY`.
    pub queue_capacity: usize,
    /// How long homing takes.
    pub home_duration: Duration,
    /// Where the board, bin, reserve and rack are.
    pub layout: SimBoardLayout,
    /// Pieces in the reserve at the start (spare kings).
    pub reserve_pieces: u32,
    /// Faults to inject.
    pub faults: ControllerArmFaults,
}

/// What happened so far, for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SimArmStats {
    /// Joint targets and homings accepted.
    pub motions: u64,
    /// Arm commands refused because the queue was full.
    pub busy: u64,
    /// Pieces taken off the board, the rack or the reserve.
    pub picks: u64,
    /// Picks the fault injector made fail.
    pub failed_picks: u64,
    /// Motions stopped by a stall.
    pub stalls: u64,
    /// `MotionDone`s held back.
    pub late_dones: u64,
    /// Pieces let go off the board, the bin, the rack and the reserve.
    pub pieces_lost: u64,
    /// Pieces put on a square or slot that already held one.
    pub collisions: u64,
}

/// One queued arm command.
#[derive(Debug, Clone, Copy)]
enum Queued {
    Move(JointTargets),
    Home(u16),
    Pump { on: bool, valve_open: bool },
}

/// The motion being carried out.
#[derive(Debug, Clone, Copy)]
struct Running {
    motion_id: u16,
    from: ReferenceJoints,
    to: ReferenceJoints,
    start: Instant,
    end: Instant,
    /// When a stall stops it, if one does.
    stall_at: Option<Instant>,
}

impl Running {
    /// Where the joints are at `at`, each turning evenly from start to end.
    fn joints_at(&self, at: Instant) -> ReferenceJoints {
        let total = self.end.saturating_duration_since(self.start).as_secs_f64();
        let t = if total > 0.0 {
            (at.saturating_duration_since(self.start).as_secs_f64() / total).min(1.0)
        } else {
            1.0
        };
        let lerp = |a: f64, b: f64| a + (b - a) * t;
        ReferenceJoints::new(
            lerp(self.from.theta0, self.to.theta0),
            lerp(self.from.theta1, self.to.theta1),
            lerp(self.from.theta2, self.to.theta2),
        )
    }
}

/// The pieces the arm moves: the board's and the rack's, owned by the simulated board.
pub(crate) struct Pieces<'a> {
    pub(crate) occupancy: &'a mut Occupancy,
    pub(crate) rack: &'a mut Vec<bool>,
}

/// The arm's state, kept in the simulated board's.
#[derive(Debug)]
pub(crate) struct SimArm {
    config: SimArmConfig,
    rng: Xoshiro256PlusPlus,
    joints: ReferenceJoints,
    running: Option<Running>,
    queue: VecDeque<Queued>,
    /// The earliest the next queued command may start.
    ready_at: Instant,
    pump: bool,
    holding: bool,
    /// The fault that stopped the arm, until cleared.
    fault: Option<Fault>,
    /// Messages to send and when, in order.
    outgoing: VecDeque<(Instant, Message)>,
    trophies: u32,
    reserve: u32,
    stats: SimArmStats,
}

impl SimArm {
    pub(crate) fn new(config: &SimArmConfig) -> SimArm {
        SimArm {
            config: *config,
            rng: Xoshiro256PlusPlus::seed_from_u64(config.faults.seed),
            joints: config.home,
            running: None,
            queue: VecDeque::new(),
            ready_at: Instant::now(),
            pump: false,
            holding: false,
            fault: None,
            outgoing: VecDeque::new(),
            trophies: 0,
            reserve: config.reserve_pieces,
            stats: SimArmStats::default(),
        }
    }

    fn chance(&mut self, probability: f64) -> bool {
        let unit = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        probability > 0.0 && unit < probability
    }

    /// Queues `message` to go out at `at`, never before one queued earlier.
    fn send_at(&mut self, at: Instant, message: Message) {
        let at = self.outgoing.back().map_or(at, |&(last, _)| at.max(last));
        self.outgoing.push_back((at, message));
    }

    /// The messages due by `now`, oldest first.
    pub(crate) fn take_due(&mut self, now: Instant) -> Vec<Message> {
        let mut due = Vec::new();
        while let Some(&(at, message)) = self.outgoing.front() {
            if at > now {
                break;
            }
            self.outgoing.pop_front();
            due.push(message);
        }
        due
    }

    /// When something happens next (a motion ends or stalls, a message is due); `None` when
    /// the arm is idle with nothing to send.
    pub(crate) fn next_event(&self) -> Option<Instant> {
        let motion = self
            .running
            .map(|r| r.stall_at.map_or(r.end, |s| s.min(r.end)));
        let message = self.outgoing.front().map(|&(at, _)| at);
        match (motion, message) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The time the joints need from `from` to `to` at their top speeds.
    fn needed(&self, from: &ReferenceJoints, to: &ReferenceJoints) -> Duration {
        let speeds = JointSpeeds {
            speed_deg_s: self.config.joint_speed_deg_s,
            acceleration_deg_s2: self.config.joint_acceleration_deg_s2,
        };
        speeds.move_time(ReferenceArm::angles(from), ReferenceArm::angles(to))
    }

    /// The joint angles a `JointTargets` asks for, or why they are refused.
    fn target(&self, targets: &JointTargets) -> Result<ReferenceJoints, NackReason> {
        let home = ReferenceArm::angles(&self.config.home);
        let angle = |j: usize| home[j] + f64::from(targets.centidegrees[j]) / 100.0;
        let joints = ReferenceJoints::new(angle(0), angle(1), angle(2));
        let arm = &self.config.kinematics;
        let within = arm.theta0.contains(joints.theta0)
            && arm.theta1.contains(joints.theta1)
            && arm.theta2.contains(joints.theta2)
            && arm.elbow.contains(joints.theta2 - joints.theta1)
            && targets.centidegrees[3] == 0;
        if within {
            Ok(joints)
        } else {
            Err(NackReason::BAD_PAYLOAD)
        }
    }

    /// Acts on an arm command from the host at `now`.
    pub(crate) fn command(
        &mut self,
        message: Message,
        pieces: Pieces<'_>,
        now: Instant,
    ) -> Result<(), NackReason> {
        self.catch_up(now, pieces);
        let queued = match message {
            Message::ArmStop => {
                if let Some(running) = self.running.take() {
                    self.joints = running.joints_at(now);
                }
                self.queue.clear();
                self.ready_at = now;
                return Ok(());
            }
            Message::ClearFaults => {
                if let Some(fault) = self.fault.take() {
                    self.send_at(
                        now,
                        Message::Fault(Fault {
                            active: false,
                            ..fault
                        }),
                    );
                }
                return Ok(());
            }
            _ if self.fault.is_some() => return Err(NackReason::FAULT_ACTIVE),
            Message::JointTargets(targets) => {
                self.target(&targets)?;
                Queued::Move(targets)
            }
            Message::ArmHome { motion_id } => Queued::Home(motion_id),
            Message::PumpValve {
                pump_on,
                valve_open,
            } => Queued::Pump {
                on: pump_on,
                valve_open,
            },
            _ => return Err(NackReason::UNSUPPORTED),
        };
        if self.queue.len() >= self.config.queue_capacity {
            self.stats.busy += 1;
            return Err(NackReason::BUSY);
        }
        if !matches!(queued, Queued::Pump { .. }) {
            self.stats.motions += 1;
        }
        self.queue.push_back(queued);
        Ok(())
    }

    /// Runs the queue up to `now`: finishes what ended, starts what may start.
    pub(crate) fn catch_up(&mut self, now: Instant, mut pieces: Pieces<'_>) {
        loop {
            if let Some(running) = self.running.take() {
                if let Some(stall_at) = running.stall_at.filter(|&at| at <= now) {
                    self.joints = running.joints_at(stall_at);
                    self.stats.stalls += 1;
                    self.queue.clear();
                    self.ready_at = stall_at;
                    let fault = Fault {
                        code: FaultCode::JOINT_STALL,
                        subject: 1,
                        active: true,
                    };
                    self.fault = Some(fault);
                    self.send_at(stall_at, Message::Fault(fault));
                    break;
                }
                if running.end > now {
                    self.running = Some(running);
                    break;
                }
                self.joints = running.to;
                self.ready_at = running.end;
                let late = self.chance(self.config.faults.late_done);
                let delay = if late {
                    self.stats.late_dones += 1;
                    self.config
                        .faults
                        .late_delay
                        .mul_f64((self.rng.next_u64() % 1000 + 1) as f64 / 1000.0)
                } else {
                    Duration::ZERO
                };
                self.send_at(
                    running.end + delay,
                    Message::MotionDone {
                        motion_id: running.motion_id,
                    },
                );
                continue;
            }
            let Some(queued) = self.queue.pop_front() else {
                break;
            };
            match queued {
                Queued::Pump { on, valve_open } => self.set_pump(on && !valve_open, &mut pieces),
                Queued::Move(targets) => {
                    let to = self.target(&targets).unwrap_or(self.joints);
                    let asked = Duration::from_millis(u64::from(targets.duration_ms));
                    let duration = asked.max(self.needed(&self.joints, &to));
                    self.start(targets.motion_id, to, duration);
                }
                Queued::Home(motion_id) => {
                    let home = self.config.home;
                    self.start(motion_id, home, self.config.home_duration);
                }
            }
        }
        if self.running.is_none() {
            self.ready_at = self.ready_at.max(now);
        }
    }

    fn start(&mut self, motion_id: u16, to: ReferenceJoints, duration: Duration) {
        let start = self.ready_at;
        let moves = to != self.joints;
        let stall_at = (moves && self.chance(self.config.faults.stall)).then(|| {
            let fraction = 0.2 + 0.6 * (self.rng.next_u64() % 1000) as f64 / 1000.0;
            start + duration.mul_f64(fraction)
        });
        self.running = Some(Running {
            motion_id,
            from: self.joints,
            to,
            start,
            end: start + duration,
            stall_at,
        });
    }

    /// The cup's tip now (at rest: the last motion's end).
    pub(crate) fn tip(&self) -> Pose {
        self.config.kinematics.forward(&self.joints).to_pose(0.0)
    }

    /// Where the tool is at `now`, moving or not.
    pub(crate) fn tip_at(&self, now: Instant) -> Pose {
        let joints = self.running.map_or(self.joints, |r| r.joints_at(now));
        self.config.kinematics.forward(&joints).to_pose(0.0)
    }

    pub(crate) fn holding(&self) -> bool {
        self.holding
    }

    pub(crate) fn pump(&self) -> bool {
        self.pump
    }

    pub(crate) fn stats(&self) -> SimArmStats {
        self.stats
    }

    pub(crate) fn trophies(&self) -> u32 {
        self.trophies
    }

    pub(crate) fn fault(&self) -> Option<Fault> {
        self.fault
    }

    /// Stops the joints where they are and raises `fault`, as a limit switch or lost steps
    /// would.
    pub(crate) fn raise(&mut self, fault: Fault, now: Instant) {
        if let Some(running) = self.running.take() {
            self.joints = running.joints_at(now);
        }
        self.queue.clear();
        self.ready_at = now;
        self.fault = Some(fault);
        self.send_at(now, Message::Fault(fault));
    }

    /// The host is gone (rule L2): stop at once, forget the queue, switch the pump off.
    pub(crate) fn session_lost(&mut self, now: Instant, mut pieces: Pieces<'_>) {
        self.catch_up(
            now,
            Pieces {
                occupancy: pieces.occupancy,
                rack: pieces.rack,
            },
        );
        if let Some(running) = self.running.take() {
            self.joints = running.joints_at(now);
        }
        self.queue.clear();
        self.outgoing.clear();
        self.ready_at = now;
        self.set_pump(false, &mut pieces);
    }

    fn set_pump(&mut self, sucking: bool, pieces: &mut Pieces<'_>) {
        self.pump = sucking;
        if sucking && !self.holding {
            self.grip(pieces);
        } else if !sucking && self.holding {
            self.holding = false;
            self.let_go(pieces);
        }
    }

    fn grip(&mut self, pieces: &mut Pieces<'_>) {
        let (pose, layout) = (self.tip(), self.config.layout);
        let low = (pose.z - layout.a1.z).abs() <= layout.z_tolerance;
        let rack_low = layout
            .rack
            .is_some_and(|rack| (pose.z - rack.first.z).abs() <= layout.z_tolerance);
        let square = layout
            .square_under(pose)
            .filter(|&square| low && pieces.occupancy.is_occupied(square));
        let slot = layout
            .rack_slot_under(pose)
            .filter(|&slot| rack_low && pieces.rack.get(slot) == Some(&true));
        let reserve = low && layout.over_reserve(pose) && self.reserve > 0;
        if square.is_none() && slot.is_none() && !reserve {
            return;
        }
        if self.chance(self.config.faults.failed_pick) {
            self.stats.failed_picks += 1;
            return;
        }
        if let Some(square) = square {
            // `square_under` only finds the board's own squares.
            let _ = pieces.occupancy.set(square, false);
        } else if let Some(slot) = slot {
            pieces.rack[slot] = false;
        } else {
            self.reserve -= 1;
        }
        self.holding = true;
        self.stats.picks += 1;
    }

    fn let_go(&mut self, pieces: &mut Pieces<'_>) {
        let (pose, layout) = (self.tip(), self.config.layout);
        let low = pose.z - layout.a1.z <= layout.drop_height;
        let rack_low = layout
            .rack
            .is_some_and(|rack| pose.z - rack.first.z <= layout.drop_height);
        if let Some(square) = layout.square_under(pose).filter(|_| low) {
            if pieces.occupancy.is_occupied(square) {
                self.stats.collisions += 1;
            } else if pieces.occupancy.set(square, true).is_err() {
                self.stats.pieces_lost += 1;
            }
        } else if let Some(slot) = layout.rack_slot_under(pose).filter(|_| rack_low) {
            if pieces.rack.get(slot) == Some(&true) {
                self.stats.collisions += 1;
            } else if let Some(held) = pieces.rack.get_mut(slot) {
                *held = true;
            }
        } else if layout.over_bin(pose) {
            self.trophies += 1;
        } else if layout.over_reserve(pose) {
            self.reserve += 1;
        } else {
            self.stats.pieces_lost += 1;
        }
    }
}
