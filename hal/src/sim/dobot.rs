//! A virtual Dobot Magician: it speaks the Dobot protocol over any byte stream, runs a real
//! command queue over (tokio) time at the speeds the host set, raises alarms, and moves pieces
//! on a simulated board with its suction cup.
//!
//! The arm's state lives in a [`VirtualDobot`] (clone it to share), independent of any link:
//! [`VirtualDobot::serve`] answers one host session on one transport, and when that transport is
//! dropped the arm keeps its pose, queue and held piece for the next session, as the real arm
//! does when its USB cable is pulled.
//!
//! # Time
//!
//! The queue is not run by a task of its own: whenever the simulator is touched (a host command,
//! or any method of [`VirtualDobot`]) it first catches up with the clock, finishing every
//! command whose time has come, in order, at the instant it ended. So the simulation is exact
//! whatever the scheduling, replays from its seed, and runs on tokio's paused clock. The board's
//! occupancy is up to date whenever the host has asked the arm anything since the moves ended
//! (as [`Arm::wait_until_idle`](crate::device::Arm::wait_until_idle) does); call
//! [`VirtualDobot::catch_up`] before reading the board otherwise.
//!
//! # The board
//!
//! A [`SimBoardLayout`] places the squares of a [`SimBoardHandle`] under the arm. Switching the
//! suction on at a square's centre (within [`SimBoardLayout::tolerance`], at board height within
//! [`SimBoardLayout::z_tolerance`]) lifts the piece there; switching it off over a square puts
//! the held piece there, over the trophy bin drops it in the bin, over the reserve returns it,
//! over an empty slot of the rack ([`SimRack`]) puts it in that slot (kept by the board,
//! [`SimBoardHandle::rack`]). Sucking in the reserve takes a new piece (a spare king), at a
//! full rack slot takes its piece. A piece let go anywhere else is lost
//! on the table, and a piece put on an occupied square is a collision; both are counted, so a
//! test can assert that neither happened.
//!
//! # Faults
//!
//! [`DobotFaults`] injects, from a seeded generator: picks that fail (the piece stays), late
//! replies (the arm stalls before answering, so replies stay in order as on a serial line),
//! dropped replies (the command is carried out but not answered), and alarms in the middle of a
//! move (the arm stops where it is and runs nothing until the alarms are cleared). Damaged and
//! lost bytes come from wrapping the transport in [`FaultyIo`](crate::sim::faulty_io::FaultyIo).

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep};
use tokio_util::codec::Framed;

use crate::device::{ArmAlarms, Pose};
use crate::dobot::motion::{Jump, Speed, path_time};
use crate::dobot::{Command, DobotCodec, PtpMode, Reply, Suction};
use crate::sim::board::SimBoardHandle;
pub use crate::sim::layout::{SimBoardLayout, SimRack};

/// The alarm the simulator raises when a move is interrupted: bit 4 of the third state byte,
/// the code `docs/protocol.md` uses in its alarm example.
pub const MOTION_ALARM: u8 = 20;

/// Faults the arm itself causes, each decided by a seeded generator so a run replays exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DobotFaults {
    /// Seeds the generator.
    pub seed: u64,
    /// Probability that a pick leaves the piece where it is.
    pub failed_pick: f64,
    /// Probability that a reply is late.
    pub late_reply: f64,
    /// The longest a late reply is held back (each one uniformly up to this).
    pub late_delay: Duration,
    /// Probability that a command is carried out but not answered.
    pub dropped_reply: f64,
    /// Probability that a move stops half-way with [`MOTION_ALARM`].
    pub alarm_mid_move: f64,
}

impl DobotFaults {
    /// A healthy arm.
    pub const NONE: DobotFaults = DobotFaults {
        seed: 0,
        failed_pick: 0.0,
        late_reply: 0.0,
        late_delay: Duration::ZERO,
        dropped_reply: 0.0,
        alarm_mid_move: 0.0,
    };
}

impl Default for DobotFaults {
    fn default() -> DobotFaults {
        DobotFaults::NONE
    }
}

/// The arm's fixed properties.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VirtualDobotConfig {
    /// Places in the command queue.
    pub queue_capacity: usize,
    /// Where the arm starts and where homing takes it until the host sets another pose.
    pub home: Pose,
    /// How long homing takes.
    pub home_duration: Duration,
    /// How long a suction change takes.
    pub suction_duration: Duration,
    /// Pieces in the reserve at the start.
    pub reserve_pieces: u32,
    /// The firmware version announced (major, minor, revision).
    pub version: (u8, u8, u8),
    /// Faults to inject.
    pub faults: DobotFaults,
}

impl Default for VirtualDobotConfig {
    fn default() -> VirtualDobotConfig {
        VirtualDobotConfig {
            queue_capacity: 32,
            home: Pose {
                x: 200.0,
                y: 0.0,
                z: 50.0,
                r: 0.0,
            },
            home_duration: Duration::from_secs(5),
            suction_duration: Duration::from_millis(60),
            reserve_pieces: 4,
            version: (3, 5, 1),
            faults: DobotFaults::NONE,
        }
    }
}

/// What happened so far, for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VirtualDobotStats {
    /// Commands received and understood.
    pub commands: u64,
    /// Frames that were damaged or not a known command.
    pub bad_frames: u64,
    /// Replies held back by the fault injector.
    pub late_replies: u64,
    /// Replies not sent by the fault injector.
    pub dropped_replies: u64,
    /// Queued commands refused because the queue was full.
    pub queue_overflows: u64,
    /// Pieces taken off the board or out of the reserve.
    pub picks: u64,
    /// Picks the fault injector made fail.
    pub failed_picks: u64,
    /// Moves interrupted by an alarm.
    pub alarms_raised: u64,
    /// Pieces let go off the board, the bin and the reserve.
    pub pieces_lost: u64,
    /// Pieces put on a square that already held one.
    pub collisions: u64,
}

/// The queued command being carried out.
#[derive(Debug, Clone)]
struct Running {
    index: u64,
    command: Command,
    start: Instant,
    end: Instant,
    /// The tool's path, corner to corner (one point for commands that do not move).
    path: Vec<Pose>,
    /// When the fault injector stops this move, if it does.
    alarm_at: Option<Instant>,
}

impl Running {
    /// Where the tool is at `at`, moving along the path at a speed proportional to its length.
    fn pose_at(&self, at: Instant) -> Pose {
        let last = *self.path.last().expect("a path has a point");
        let total = self.end.saturating_duration_since(self.start).as_secs_f32();
        if total <= 0.0 || self.path.len() < 2 {
            return last;
        }
        let fraction = at.saturating_duration_since(self.start).as_secs_f32() / total;
        if fraction >= 1.0 {
            return last;
        }
        let lengths: Vec<f32> = self
            .path
            .windows(2)
            .map(|pair| crate::dobot::motion::distance(pair[0], pair[1]))
            .collect();
        let mut left = fraction * lengths.iter().sum::<f32>();
        for (pair, length) in self.path.windows(2).zip(lengths) {
            if left <= length && length > 0.0 {
                let t = left / length;
                let (a, b) = (pair[0], pair[1]);
                return Pose {
                    x: a.x + (b.x - a.x) * t,
                    y: a.y + (b.y - a.y) * t,
                    z: a.z + (b.z - a.z) * t,
                    r: a.r + (b.r - a.r) * t,
                };
            }
            left -= length;
        }
        last
    }
}

/// The arm, its queue and what it holds.
#[derive(Debug)]
struct ArmState {
    board: SimBoardHandle,
    layout: SimBoardLayout,
    config: VirtualDobotConfig,
    rng: Xoshiro256PlusPlus,
    home: Pose,
    xyz_velocity: f32,
    xyz_acceleration: f32,
    velocity_ratio: f32,
    acceleration_ratio: f32,
    jump: Jump,
    /// Where the tool rests when nothing runs.
    pose: Pose,
    running: Option<Running>,
    queue: VecDeque<(u64, Command)>,
    next_index: u64,
    executed: u64,
    /// Every index up to this one was discarded by a clear or a forced stop.
    discarded_through: u64,
    started: bool,
    stalled: bool,
    alarms: ArmAlarms,
    /// The earliest the next queued command may start.
    ready_at: Instant,
    suction: Suction,
    holding: bool,
    trophies: u32,
    reserve: u32,
    stats: VirtualDobotStats,
}

impl ArmState {
    fn chance(&mut self, probability: f64) -> bool {
        let unit = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        probability > 0.0 && unit < probability
    }

    fn speed(&self) -> Speed {
        Speed::new(
            self.xyz_velocity,
            self.xyz_acceleration,
            self.velocity_ratio,
            self.acceleration_ratio,
        )
    }

    /// Runs the queue up to `now`: finishes what ended, starts what may start.
    fn catch_up(&mut self, now: Instant) {
        loop {
            if self.stalled {
                break;
            }
            if let Some(running) = self.running.take() {
                if let Some(alarm_at) = running.alarm_at
                    && alarm_at <= now
                {
                    self.pose = running.pose_at(alarm_at);
                    self.alarms.insert(MOTION_ALARM);
                    self.stats.alarms_raised += 1;
                    self.ready_at = alarm_at;
                    continue;
                }
                if running.end > now {
                    self.running = Some(running);
                    break;
                }
                self.finish(&running);
                continue;
            }
            if !self.started || !self.alarms.is_empty() {
                break;
            }
            let Some((index, command)) = self.queue.pop_front() else {
                break;
            };
            self.start(index, command);
        }
        if self.running.is_none() {
            self.ready_at = self.ready_at.max(now);
        }
    }

    fn start(&mut self, index: u64, command: Command) {
        let start = self.ready_at;
        let from = self.pose;
        let (path, duration) = match command {
            Command::Ptp { mode, target } => {
                let path = match mode {
                    PtpMode::JumpXyz | PtpMode::JumpMovlXyz => {
                        self.jump.waypoints(from, target).to_vec()
                    }
                    PtpMode::MovjXyz | PtpMode::MovlXyz => vec![from, target],
                    PtpMode::MovlInc | PtpMode::MovjXyzInc => vec![
                        from,
                        Pose {
                            x: from.x + target.x,
                            y: from.y + target.y,
                            z: from.z + target.z,
                            r: from.r + target.r,
                        },
                    ],
                    // Joint-space targets need the arm's kinematics, which are not simulated.
                    PtpMode::JumpAngle
                    | PtpMode::MovjAngle
                    | PtpMode::MovlAngle
                    | PtpMode::MovjInc => vec![from],
                };
                let duration = path_time(self.speed(), &path);
                (path, duration)
            }
            Command::Home => (vec![from, self.home], self.config.home_duration),
            Command::SetSuction(_) => (vec![from], self.config.suction_duration),
            Command::Wait { milliseconds } => {
                (vec![from], Duration::from_millis(u64::from(milliseconds)))
            }
            _ => (vec![from], Duration::ZERO),
        };
        let moves = path.len() > 1 && !duration.is_zero();
        let alarm_at = (moves && self.chance(self.config.faults.alarm_mid_move)).then(|| {
            let fraction = 0.2 + 0.6 * (self.rng.next_u64() % 1000) as f64 / 1000.0;
            start + duration.mul_f64(fraction)
        });
        self.running = Some(Running {
            index,
            command,
            start,
            end: start + duration,
            path,
            alarm_at,
        });
    }

    fn finish(&mut self, running: &Running) {
        self.pose = running.pose_at(running.end);
        self.executed = self.executed.max(running.index);
        self.ready_at = running.end;
        if let Command::SetSuction(suction) = running.command {
            self.set_suction(suction);
        }
    }

    fn set_suction(&mut self, suction: Suction) {
        self.suction = suction;
        match suction {
            Suction::Suck if !self.holding => self.grip(),
            Suction::Suck => {}
            Suction::Off | Suction::Release => {
                if self.holding {
                    self.holding = false;
                    self.let_go();
                }
            }
        }
    }

    fn grip(&mut self) {
        let pose = self.pose;
        let low = (pose.z - self.layout.a1.z).abs() <= self.layout.z_tolerance;
        if let Some(square) = self.layout.square_under(pose)
            && low
            && self.board.occupancy().is_occupied(square)
        {
            if self.chance(self.config.faults.failed_pick) {
                self.stats.failed_picks += 1;
                return;
            }
            // The square is on the board: `square_under` only finds the board's squares.
            if self.board.lift(square).is_ok() {
                self.holding = true;
                self.stats.picks += 1;
            }
        } else if self.layout.over_reserve(pose) && low && self.reserve > 0 {
            if self.chance(self.config.faults.failed_pick) {
                self.stats.failed_picks += 1;
                return;
            }
            self.reserve -= 1;
            self.holding = true;
            self.stats.picks += 1;
        } else if let Some(slot) = self.layout.rack_slot_under(pose)
            && self.rack_low(pose)
            && self.board.rack().get(slot) == Some(&true)
        {
            if self.chance(self.config.faults.failed_pick) {
                self.stats.failed_picks += 1;
                return;
            }
            if self.board.take_from_rack(slot) {
                self.holding = true;
                self.stats.picks += 1;
            }
        }
    }

    /// Whether the tool is low enough at the rack to grip a piece standing in a slot.
    fn rack_low(&self, pose: Pose) -> bool {
        self.layout
            .rack
            .is_some_and(|rack| (pose.z - rack.first.z).abs() <= self.layout.z_tolerance)
    }

    fn let_go(&mut self) {
        let pose = self.pose;
        let low = pose.z - self.layout.a1.z <= self.layout.drop_height;
        if let Some(square) = self.layout.square_under(pose)
            && low
        {
            if self.board.occupancy().is_occupied(square) {
                self.stats.collisions += 1;
            } else if self.board.place(square).is_err() {
                self.stats.pieces_lost += 1;
            }
        } else if let Some(slot) = self.layout.rack_slot_under(pose)
            && self
                .layout
                .rack
                .is_some_and(|rack| pose.z - rack.first.z <= self.layout.drop_height)
        {
            if !self.board.put_in_rack(slot) {
                // The slot holds a piece already: the one let go falls off it.
                self.stats.collisions += 1;
            }
        } else if self.layout.over_bin(pose) {
            self.trophies += 1;
        } else if self.layout.over_reserve(pose) {
            self.reserve += 1;
        } else {
            self.stats.pieces_lost += 1;
        }
    }

    /// Where the tool is now.
    fn current_pose(&self, now: Instant) -> Pose {
        self.running
            .as_ref()
            .map_or(self.pose, |running| running.pose_at(now))
    }

    /// The executed index as the firmware reports it: discarded commands count as done once
    /// nothing older runs.
    fn reported_index(&self) -> u64 {
        if self.running.is_some() {
            self.executed
        } else {
            self.executed.max(self.discarded_through)
        }
    }

    /// Stops the running command where the tool is now; it counts as discarded.
    fn stop_now(&mut self, now: Instant) {
        if let Some(running) = self.running.take() {
            self.pose = running.pose_at(now);
            self.discarded_through = self.discarded_through.max(running.index);
            self.ready_at = now;
        }
    }

    /// Carries out one command at `now`; `None` when the arm does not answer.
    fn handle(&mut self, command: Command, now: Instant) -> Option<Reply> {
        self.catch_up(now);
        self.stats.commands += 1;
        let reply = match command {
            Command::GetDeviceVersion => {
                let (major, minor, revision) = self.config.version;
                Reply::DeviceVersion {
                    major,
                    minor,
                    revision,
                }
            }
            Command::GetPose => {
                let pose = self.current_pose(now);
                Reply::Pose {
                    pose,
                    // Joint angles are not simulated beyond the base yaw.
                    joints: [pose.y.atan2(pose.x).to_degrees(), 0.0, 0.0, pose.r],
                }
            }
            Command::GetAlarms => Reply::Alarms(self.alarms),
            Command::ClearAlarms => {
                self.alarms = ArmAlarms::none();
                Reply::Done
            }
            Command::SetHomeParams(pose) => {
                self.home = pose;
                Reply::Done
            }
            Command::SetPtpJointParams { .. } => Reply::Done,
            Command::SetPtpCoordinateParams {
                xyz_velocity,
                xyz_acceleration,
                ..
            } => {
                self.xyz_velocity = xyz_velocity;
                self.xyz_acceleration = xyz_acceleration;
                Reply::Done
            }
            Command::SetPtpJumpParams {
                jump_height,
                z_limit,
            } => {
                self.jump = Jump {
                    height: jump_height,
                    z_limit,
                };
                Reply::Done
            }
            Command::SetPtpCommonParams {
                velocity_ratio,
                acceleration_ratio,
            } => {
                self.velocity_ratio = velocity_ratio;
                self.acceleration_ratio = acceleration_ratio;
                Reply::Done
            }
            Command::StartQueue => {
                self.started = true;
                Reply::Done
            }
            Command::StopQueue => {
                self.started = false;
                Reply::Done
            }
            Command::ForceStopQueue => {
                self.started = false;
                self.stop_now(now);
                Reply::Done
            }
            Command::ClearQueue => {
                self.queue.clear();
                self.discarded_through = self.next_index - 1;
                Reply::Done
            }
            Command::GetQueueIndex => Reply::QueueIndex(self.reported_index()),
            Command::GetQueueLeftSpace => Reply::QueueLeftSpace(
                self.config.queue_capacity.saturating_sub(self.queue.len()) as u32,
            ),
            Command::Home | Command::Ptp { .. } | Command::SetSuction(_) | Command::Wait { .. } => {
                if self.queue.len() >= self.config.queue_capacity {
                    // A full queue takes nothing; the host must use flow control.
                    self.stats.queue_overflows += 1;
                    return None;
                }
                let index = self.next_index;
                self.next_index += 1;
                self.queue.push_back((index, command));
                Reply::Queued { index }
            }
        };
        self.catch_up(now);
        Some(reply)
    }
}

/// A virtual Dobot Magician over a simulated board. Clone it to share; every clone is the same
/// arm.
#[derive(Debug, Clone)]
pub struct VirtualDobot {
    state: Arc<Mutex<ArmState>>,
}

impl VirtualDobot {
    /// An arm at `config.home`, with the suction off, an empty queue that has not been started
    /// (newer firmware runs nothing before `QueuedCmdStartExec`), and no alarm. It moves the
    /// pieces of `board`, laid out as `layout` says.
    pub fn new(
        board: SimBoardHandle,
        layout: SimBoardLayout,
        config: VirtualDobotConfig,
    ) -> VirtualDobot {
        let defaults = crate::dobot::DobotConfig::default();
        if let Some(rack) = layout.rack
            && board.rack().len() < rack.len()
        {
            board.set_rack_slots(rack.len());
        }
        let state = ArmState {
            board,
            layout,
            config,
            rng: Xoshiro256PlusPlus::seed_from_u64(config.faults.seed),
            home: config.home,
            xyz_velocity: defaults.xyz_velocity,
            xyz_acceleration: defaults.xyz_acceleration,
            velocity_ratio: 100.0,
            acceleration_ratio: 100.0,
            jump: Jump {
                height: defaults.jump_height,
                z_limit: defaults.z_limit,
            },
            pose: config.home,
            running: None,
            queue: VecDeque::new(),
            next_index: 1,
            executed: 0,
            discarded_through: 0,
            started: false,
            stalled: false,
            alarms: ArmAlarms::none(),
            ready_at: Instant::now(),
            suction: Suction::Off,
            holding: false,
            trophies: 0,
            reserve: config.reserve_pieces,
            stats: VirtualDobotStats::default(),
        };
        VirtualDobot {
            state: Arc::new(Mutex::new(state)),
        }
    }

    /// The arm's state, caught up with the clock.
    fn lock(&self) -> MutexGuard<'_, ArmState> {
        // A test that panicked while holding the lock has failed already; the state is fine.
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.catch_up(Instant::now());
        state
    }

    /// Answers a host session on `io`; await [`DobotServer::run`] on a task. Sessions on other
    /// transports may follow (or overlap: the arm answers each in turn).
    pub fn serve<T>(&self, io: T) -> DobotServer<T>
    where
        T: AsyncRead + AsyncWrite + Unpin,
    {
        DobotServer {
            framed: Framed::new(io, DobotCodec::new()),
            dobot: self.clone(),
        }
    }

    /// Carries out every queued command whose time has come, so the board is up to date.
    pub fn catch_up(&self) {
        drop(self.lock());
    }

    /// Where the tool is now.
    pub fn pose(&self) -> Pose {
        self.lock().current_pose(Instant::now())
    }

    /// Whether the cup holds a piece.
    pub fn holding(&self) -> bool {
        self.lock().holding
    }

    /// The suction state last carried out.
    pub fn suction(&self) -> Suction {
        self.lock().suction
    }

    /// Pieces dropped in the trophy bin.
    pub fn trophies(&self) -> u32 {
        self.lock().trophies
    }

    /// Pieces left in the reserve.
    pub fn reserve(&self) -> u32 {
        self.lock().reserve
    }

    /// The executed index the arm reports now.
    pub fn executed_index(&self) -> u64 {
        self.lock().reported_index()
    }

    /// The index the last queued command was given.
    pub fn last_index(&self) -> u64 {
        self.lock().next_index - 1
    }

    /// Commands waiting in the queue (not counting the one running).
    pub fn queued(&self) -> usize {
        self.lock().queue.len()
    }

    /// Whether a queued command is being carried out.
    pub fn busy(&self) -> bool {
        self.lock().running.is_some()
    }

    /// The active alarms.
    pub fn alarms(&self) -> ArmAlarms {
        self.lock().alarms
    }

    /// Raises an alarm now, as a limit switch or lost steps would: a running move stops where
    /// it is and the queue waits until the alarms are cleared.
    pub fn raise_alarm(&self, code: u8) {
        let mut state = self.lock();
        let now = Instant::now();
        if let Some(running) = state.running.take() {
            state.pose = running.pose_at(now);
            state.ready_at = now;
        }
        state.alarms.insert(code);
        state.stats.alarms_raised += 1;
    }

    /// Freezes the queue (`true`) as a firmware that hangs would, without any alarm, or lets it
    /// go on (`false`).
    pub fn set_stalled(&self, stalled: bool) {
        let mut state = self.lock();
        state.stalled = stalled;
        if !stalled {
            // Time frozen in the stall is lost, as the motors did not turn.
            let now = Instant::now();
            if let Some(running) = &mut state.running {
                let left = running.end.saturating_duration_since(running.start);
                running.start = now;
                running.end = now + left;
                running.alarm_at = None;
            }
            state.ready_at = state.ready_at.max(now);
        }
    }

    /// Replaces the fault injection (and reseeds its generator).
    pub fn set_faults(&self, faults: DobotFaults) {
        let mut state = self.lock();
        state.config.faults = faults;
        state.rng = Xoshiro256PlusPlus::seed_from_u64(faults.seed);
    }

    /// What happened so far.
    pub fn stats(&self) -> VirtualDobotStats {
        self.lock().stats
    }

    /// The board layout.
    pub fn layout(&self) -> SimBoardLayout {
        self.lock().layout
    }

    /// Carries out one command and decides how the reply goes out.
    fn handle(&self, command: Command) -> (Option<Reply>, Option<Duration>) {
        let mut state = self.lock();
        let reply = state.handle(command, Instant::now());
        let faults = state.config.faults;
        if reply.is_some() && state.chance(faults.dropped_reply) {
            state.stats.dropped_replies += 1;
            return (None, None);
        }
        let delay = (reply.is_some() && state.chance(faults.late_reply)).then(|| {
            state.stats.late_replies += 1;
            faults
                .late_delay
                .mul_f64((state.rng.next_u64() % 1000 + 1) as f64 / 1000.0)
        });
        (reply, delay)
    }
}

/// One host session of a [`VirtualDobot`] on a transport.
#[derive(Debug)]
pub struct DobotServer<T> {
    framed: Framed<T, DobotCodec>,
    dobot: VirtualDobot,
}

impl<T> DobotServer<T>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    /// Answers commands one at a time, in order, until the host closes the transport (`Ok`) or
    /// it fails. Damaged frames and unknown commands are ignored, as the firmware does.
    pub async fn run(mut self) -> io::Result<()> {
        while let Some(item) = self.framed.next().await {
            let Ok(Ok(command)) = item?.map(|frame| Command::from_frame(&frame)) else {
                self.dobot.lock().stats.bad_frames += 1;
                continue;
            };
            let (reply, delay) = self.dobot.handle(command);
            let Some(reply) = reply else {
                continue;
            };
            if let Some(delay) = delay {
                sleep(delay).await;
            }
            self.framed.send(reply.to_frame(&command)).await?;
        }
        Ok(())
    }
}
