//! The host's Dobot Magician driver: an [`Arm`] over any byte stream.
//!
//! # One exchange at a time, and staying in step
//!
//! The firmware answers every frame with a frame of the same id, in the order the frames
//! arrived, and the replies carry nothing else that ties them to a request. So the driver sends
//! one command, waits for the reply with its id, and skips frames with other ids (late replies to
//! earlier commands). After a timeout or a garbled reply it cannot tell whether an answer is
//! still on its way, so before sending anything else it *resynchronises*: it sends a read
//! command of another id and reads until that command's reply. Because the firmware answers in
//! order, every reply to a frame sent before it has then arrived or been lost, and a late reply
//! can no longer be taken for the answer to a later command. A reply to the command being
//! retried that turns up during the resynchronisation is its answer.
//!
//! A queued command whose reply was lost may have been queued; sending it again then queues it
//! twice. Every queued command this driver sends is absolute (move *to* a pose, suction *on*),
//! so the second copy does nothing, and the driver waits for the later index.
//!
//! # The queue
//!
//! Motion and suction go through the firmware queue: each call returns once the arm accepted
//! the command, with the queue index it was given. [`Arm::wait_until_idle`] polls the executed
//! index until it reaches the last one queued. Each queued command gets an allowance (twice the
//! time the move takes at the configured speeds, plus [`DobotConfig::move_slack`]); if the index
//! does not advance within the allowance of the command at the head, the queue is stuck: the
//! driver stops and clears it and returns [`DobotError::QueueStuck`]. If the index stands still
//! and alarms are active, it does the same and returns [`DobotError::Alarm`]. Before queueing,
//! the driver makes sure the queue has space (flow control by `QueuedCmdLeftSpace`), waiting while
//! it is full.

use std::collections::VecDeque;
use std::io;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep, timeout_at};
use tokio_util::codec::Framed;

use crate::device::{Arm, ArmAlarms, Motion, Pose};
use crate::dobot::codec::DobotCodec;
use crate::dobot::command::{Command, PtpMode, Suction};
use crate::dobot::error::{DobotError, Garble};
use crate::dobot::motion::{Jump, Speed, path_time};
use crate::dobot::reply::Reply;
use crate::error::ErrorType;

/// Settings of the driver and of the arm's motion, sent to the arm at connection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DobotConfig {
    /// How far JUMP moves lift above the higher of start and target, mm: enough to clear the
    /// pieces standing on the board (and a held piece above them).
    pub jump_height: f32,
    /// The highest a jump may lift, mm.
    pub z_limit: f32,
    /// Cartesian speed of PTP moves, mm/s.
    pub xyz_velocity: f32,
    /// Cartesian acceleration of PTP moves, mm/s².
    pub xyz_acceleration: f32,
    /// Speed of each joint, degrees/s.
    pub joint_velocity: f32,
    /// Acceleration of each joint, degrees/s².
    pub joint_acceleration: f32,
    /// Scaling of every PTP speed, percent: one knob to slow the arm down at an exhibition.
    pub velocity_ratio: f32,
    /// Scaling of every PTP acceleration, percent.
    pub acceleration_ratio: f32,
    /// Where [`Arm::park`] takes the tool: out of the visitor's way and the board's view.
    pub park: Pose,
    /// How long to wait for the reply to one frame.
    pub command_timeout: Duration,
    /// How many times a command is tried again after a timeout or a garbled reply.
    pub retries: u8,
    /// Pause between two polls of the queue index.
    pub poll_interval: Duration,
    /// Added to the allowance of every queued command: time the estimate does not see (the
    /// firmware's planning, a slow USB bridge).
    pub move_slack: Duration,
    /// Allowance of the homing run, which the driver cannot estimate.
    pub home_timeout: Duration,
    /// At connection, how long the index and the pose must stay unchanged for the work a
    /// previous session left queued to count as finished. It must be longer than the longest
    /// command that does not move the tool (a suction change takes tens of milliseconds), or
    /// the rest of a pick-and-place cut by a disconnect is discarded with the piece in the cup.
    pub settle: Duration,
    /// At connection, the longest to wait for work a previous session left queued before it is
    /// stopped.
    pub drain_timeout: Duration,
}

impl Default for DobotConfig {
    fn default() -> DobotConfig {
        DobotConfig {
            jump_height: 30.0,
            z_limit: 120.0,
            xyz_velocity: 150.0,
            xyz_acceleration: 150.0,
            joint_velocity: 120.0,
            joint_acceleration: 120.0,
            velocity_ratio: 100.0,
            acceleration_ratio: 100.0,
            park: Pose {
                x: 150.0,
                y: -150.0,
                z: 50.0,
                r: 0.0,
            },
            command_timeout: Duration::from_millis(200),
            retries: 3,
            poll_interval: Duration::from_millis(50),
            move_slack: Duration::from_secs(1),
            home_timeout: Duration::from_secs(40),
            settle: Duration::from_millis(300),
            drain_timeout: Duration::from_secs(30),
        }
    }
}

impl DobotConfig {
    /// The longest one command may take on the wire, retries and resynchronisation included:
    /// `2 × (retries + 1) × command_timeout`.
    pub fn exchange_limit(&self) -> Duration {
        self.command_timeout * 2 * (u32::from(self.retries) + 1)
    }

    /// The speed limits the arm applies with these settings.
    fn speed(&self) -> Speed {
        Speed::new(
            self.xyz_velocity,
            self.xyz_acceleration,
            self.velocity_ratio,
            self.acceleration_ratio,
        )
    }

    fn jump(&self) -> Jump {
        Jump {
            height: self.jump_height,
            z_limit: self.z_limit,
        }
    }
}

/// The firmware version the arm reported at connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DobotVersion {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Revision.
    pub revision: u8,
}

/// What the link has survived, for the log and for tests that inject faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DobotStats {
    /// Frames sent, resynchronisations included.
    pub frames_sent: u64,
    /// Attempts that timed out or got a garbled reply.
    pub failed_attempts: u64,
    /// Frames skipped because they answered something else (late replies).
    pub stray_replies: u64,
    /// Damaged bytes reported by the codec.
    pub bad_frames: u64,
    /// Times the queue was stopped and cleared after a stall or an alarm.
    pub queue_recoveries: u64,
}

/// A queued command the arm has not reported done.
#[derive(Debug, Clone, Copy)]
struct Pending {
    index: u64,
    allowance: Duration,
}

/// How one wait for a reply ended.
enum ReplyWait {
    Reply(Reply),
    Failed(Option<Garble>),
}

/// A Dobot Magician driven over `T` (a serial port, a pty, an in-memory pipe).
///
/// Build it with [`DobotArm::connect`]; use it through [`Arm`]. Every call returns within a
/// bound: [`DobotConfig::exchange_limit`] for one command, twice that for a queued command
/// while the queue has room (a left-space query may come first), five times that for
/// [`Arm::abort`], and [`DobotArm::wait_limit`] for [`Arm::wait_until_idle`].
///
/// After a failed call the arm's queue is in doubt (a queued command whose replies were lost
/// may still run). To recover, call [`Arm::abort`] *before* [`Arm::clear_alarms`]: clearing an
/// alarm lets the arm go on with its queue from wherever the alarm stopped it. Then read the
/// board and plan the rest of the move again.
#[derive(Debug)]
pub struct DobotArm<T> {
    framed: Framed<T, DobotCodec>,
    config: DobotConfig,
    version: DobotVersion,
    /// Queued commands not yet reported done, oldest first.
    pending: VecDeque<Pending>,
    /// The highest queue index the arm has given a command of this session.
    last_queued: u64,
    /// The last executed index the arm reported.
    executed: u64,
    /// Free queue places known for certain (a lower bound: the arm frees places as it works).
    space: u32,
    /// Where the last queued move ends, to estimate the next one.
    planned: Pose,
    /// Whether every frame sent has been answered or is known lost, so the next reply with a
    /// command's id is that command's reply.
    in_sync: bool,
    /// Set once the transport failed; every later call fails at once.
    lost: Option<io::ErrorKind>,
    /// The executed index read when the queue was last reset: every index given since is
    /// above it. `None` before the first reset.
    base: Option<u64>,
    /// Queued commands sent since that reset, duplicates included: no index given since can
    /// exceed `base + queued_sends`.
    queued_sends: u64,
    stats: DobotStats,
}

impl<T> ErrorType for DobotArm<T> {
    type Error = DobotError;
}

impl<T> DobotArm<T>
where
    T: AsyncRead + AsyncWrite + Unpin + Send,
{
    /// Opens a session on `io`: reads the firmware version; unless alarms are active, lets
    /// work a previous session queued finish (until index and pose have been still for
    /// [`DobotConfig::settle`], at most [`DobotConfig::drain_timeout`]); stops and clears the
    /// queue and starts it again, reading the queue index so the driver's view of the queue
    /// matches the arm's; clears alarms (after the queue, so an interrupted sequence does not
    /// resume); and sends the PTP settings.
    ///
    /// Calling it again on a fresh transport after [`DobotError::Disconnected`] is how the
    /// daemon reconnects: the arm keeps its state, and a pick-and-place that was queued before
    /// the link dropped finishes before the queue is reset.
    pub async fn connect(io: T, config: DobotConfig) -> Result<DobotArm<T>, DobotError> {
        let mut arm = DobotArm {
            framed: Framed::new(io, DobotCodec::new()),
            config,
            version: DobotVersion {
                major: 0,
                minor: 0,
                revision: 0,
            },
            pending: VecDeque::new(),
            last_queued: 0,
            executed: 0,
            space: 0,
            planned: Pose::default(),
            // The port may hold bytes from before: resynchronise before the first command.
            in_sync: false,
            lost: None,
            base: None,
            queued_sends: 0,
            stats: DobotStats::default(),
        };
        match arm.request(Command::GetDeviceVersion).await? {
            Reply::DeviceVersion {
                major,
                minor,
                revision,
            } => {
                arm.version = DobotVersion {
                    major,
                    minor,
                    revision,
                };
            }
            reply => return Err(unexpected(Command::GetDeviceVersion, reply)),
        }
        // An alarm stopped the previous session's queue somewhere in a pick-and-place: clearing
        // it first would let the arm go on from there (a release queued after an interrupted
        // move drops the piece wherever the tool stopped), so that queue is discarded instead.
        if arm.read_alarms().await?.is_empty() {
            arm.drain().await?;
        }
        arm.reset_queue().await?;
        arm.request_done(Command::ClearAlarms).await?;
        let config = arm.config;
        arm.request_done(Command::SetPtpJointParams {
            velocity: [config.joint_velocity; 4],
            acceleration: [config.joint_acceleration; 4],
        })
        .await?;
        arm.request_done(Command::SetPtpCoordinateParams {
            xyz_velocity: config.xyz_velocity,
            r_velocity: config.joint_velocity,
            xyz_acceleration: config.xyz_acceleration,
            r_acceleration: config.joint_acceleration,
        })
        .await?;
        arm.request_done(Command::SetPtpJumpParams {
            jump_height: config.jump_height,
            z_limit: config.z_limit,
        })
        .await?;
        arm.request_done(Command::SetPtpCommonParams {
            velocity_ratio: config.velocity_ratio,
            acceleration_ratio: config.acceleration_ratio,
        })
        .await?;
        arm.planned = arm.read_pose().await?;
        Ok(arm)
    }

    /// The firmware version read at connection.
    pub fn version(&self) -> DobotVersion {
        self.version
    }

    /// The settings in use.
    pub fn config(&self) -> &DobotConfig {
        &self.config
    }

    /// What the link has survived so far.
    pub fn stats(&self) -> DobotStats {
        self.stats
    }

    /// The highest queue index given to a command of this session (or the index found at
    /// connection): [`Arm::wait_until_idle`] waits for the arm to reach it.
    pub fn last_queued_index(&self) -> u64 {
        self.last_queued
    }

    /// The executed index the arm reported last.
    pub fn executed_index(&self) -> u64 {
        self.executed
    }

    /// The longest [`Arm::wait_until_idle`] may take for the work queued now: the allowances
    /// of the unfinished commands, one poll interval, and eight exchanges (the last poll of the
    /// index, its confirmation and the alarms, then a queue reset: four commands and a pose).
    pub fn wait_limit(&self) -> Duration {
        let allowances: Duration = self.pending.iter().map(|pending| pending.allowance).sum();
        allowances + self.config.poll_interval + self.config.exchange_limit() * 8
    }

    /// Sends one command and returns its reply, with the driver's retries and
    /// resynchronisation; for commands the [`Arm`] methods do not cover. Queued commands sent
    /// this way are not tracked by [`Arm::wait_until_idle`].
    pub async fn request(&mut self, command: Command) -> Result<Reply, DobotError> {
        if let Some(kind) = self.lost {
            return Err(DobotError::Disconnected(kind));
        }
        let mut attempts = 0u32;
        let mut garbled = None;
        let mut sent = false;
        for _ in 0..=self.config.retries {
            if !self.in_sync {
                attempts += 1;
                // Only once this command was sent can a reply with its id be its own.
                match self.resync(sent.then_some(command)).await? {
                    Some(ReplyWait::Reply(reply)) => return Ok(reply),
                    Some(ReplyWait::Failed(garble)) => {
                        garbled = garble.or(garbled);
                        continue;
                    }
                    None => {}
                }
            }
            attempts += 1;
            self.send(command).await?;
            sent = true;
            let deadline = Instant::now() + self.config.command_timeout;
            match self.read_reply(command, deadline).await? {
                ReplyWait::Reply(reply) => return Ok(reply),
                ReplyWait::Failed(garble) => {
                    self.stats.failed_attempts += 1;
                    self.in_sync = false;
                    garbled = garble.or(garbled);
                }
            }
        }
        Err(match garbled {
            Some(last) => DobotError::Garbled {
                id: command.id(),
                attempts,
                last,
            },
            None => DobotError::NoReply {
                id: command.id(),
                attempts,
                timeout: self.config.command_timeout,
            },
        })
    }

    /// Sends an immediate write, which answers with no parameters.
    async fn request_done(&mut self, command: Command) -> Result<(), DobotError> {
        match self.request(command).await? {
            Reply::Done => Ok(()),
            reply => Err(unexpected(command, reply)),
        }
    }

    async fn read_index(&mut self) -> Result<u64, DobotError> {
        match self.request(Command::GetQueueIndex).await? {
            Reply::QueueIndex(index) => Ok(index),
            reply => Err(unexpected(Command::GetQueueIndex, reply)),
        }
    }

    async fn read_pose(&mut self) -> Result<Pose, DobotError> {
        match self.request(Command::GetPose).await? {
            Reply::Pose { pose, .. } => Ok(pose),
            reply => Err(unexpected(Command::GetPose, reply)),
        }
    }

    async fn read_alarms(&mut self) -> Result<ArmAlarms, DobotError> {
        match self.request(Command::GetAlarms).await? {
            Reply::Alarms(alarms) => Ok(alarms),
            reply => Err(unexpected(Command::GetAlarms, reply)),
        }
    }

    /// Sends a read of another id and reads up to its reply, so that nothing sent before is
    /// still on its way. `retrying` is the command being retried, whose reply is accepted if it
    /// turns up. `None` when the link is in step again without an answer.
    async fn resync(&mut self, retrying: Option<Command>) -> Result<Option<ReplyWait>, DobotError> {
        let marker = if retrying.is_some_and(|command| command.id() == Command::GetQueueIndex.id())
        {
            Command::GetDeviceVersion
        } else {
            Command::GetQueueIndex
        };
        self.send(marker).await?;
        let deadline = Instant::now() + self.config.command_timeout;
        let mut answer = None;
        let mut garbled = None;
        loop {
            let frame = match timeout_at(deadline, self.framed.next()).await {
                Err(_) => break,
                Ok(None) => return Err(self.lose(io::ErrorKind::UnexpectedEof)),
                Ok(Some(Err(error))) => return Err(self.lose(error.kind())),
                Ok(Some(Ok(Err(bad)))) => {
                    self.stats.bad_frames += 1;
                    garbled = Some(Garble::Frame(bad));
                    continue;
                }
                Ok(Some(Ok(Ok(frame)))) => frame,
            };
            if frame.id() == marker.id() {
                if marker.parse_reply(&frame).is_ok() {
                    self.in_sync = true;
                    return Ok(answer);
                }
                continue;
            }
            if let Some(command) = retrying
                && frame.id() == command.id()
                && let Ok(reply) = command.parse_reply(&frame)
            {
                match self.check(command, reply) {
                    Ok(reply) => answer = Some(ReplyWait::Reply(reply)),
                    Err(garble) => garbled = Some(garble),
                }
                continue;
            }
            self.stats.stray_replies += 1;
        }
        self.stats.failed_attempts += 1;
        // The answer came but the marker did not: use the answer, the link stays out of step.
        Ok(Some(answer.unwrap_or(ReplyWait::Failed(garbled))))
    }

    async fn send(&mut self, command: Command) -> Result<(), DobotError> {
        self.stats.frames_sent += 1;
        if command.ctrl().is_queued() {
            self.queued_sends += 1;
        }
        if let Err(error) = self.framed.send(command.to_frame()).await {
            return Err(self.lose(error.kind()));
        }
        Ok(())
    }

    /// Reads frames until the reply to `command` or the deadline. Frames with other ids are
    /// late replies and skipped.
    async fn read_reply(
        &mut self,
        command: Command,
        deadline: Instant,
    ) -> Result<ReplyWait, DobotError> {
        let mut garbled = None;
        loop {
            let frame = match timeout_at(deadline, self.framed.next()).await {
                Err(_) => return Ok(ReplyWait::Failed(garbled)),
                Ok(None) => return Err(self.lose(io::ErrorKind::UnexpectedEof)),
                Ok(Some(Err(error))) => return Err(self.lose(error.kind())),
                Ok(Some(Ok(Err(bad)))) => {
                    self.stats.bad_frames += 1;
                    garbled = Some(Garble::Frame(bad));
                    continue;
                }
                Ok(Some(Ok(Ok(frame)))) => frame,
            };
            if frame.id() != command.id() {
                self.stats.stray_replies += 1;
                continue;
            }
            // A damaged reply: no point waiting for another.
            return Ok(match command.parse_reply(&frame) {
                Ok(reply) => match self.check(command, reply) {
                    Ok(reply) => ReplyWait::Reply(reply),
                    Err(garble) => ReplyWait::Failed(Some(garble)),
                },
                Err(error) => ReplyWait::Failed(Some(Garble::Reply(error))),
            });
        }
    }

    /// Refuses queue indices the arm cannot have given since the last reset: a queued command's
    /// index must be above every earlier one, and no index (given or executed) can exceed the
    /// number of queued commands sent.
    fn check(&self, command: Command, reply: Reply) -> Result<Reply, Garble> {
        let Some(base) = self.base else {
            return Ok(reply);
        };
        let ceiling = base + self.queued_sends;
        let plausible = match reply {
            Reply::Queued { index } => index > self.last_queued && index <= ceiling,
            Reply::QueueIndex(index) => index <= ceiling,
            _ => true,
        };
        match reply {
            Reply::Queued { index } | Reply::QueueIndex(index) if !plausible => {
                Err(Garble::Implausible {
                    id: command.id(),
                    index,
                })
            }
            _ => Ok(reply),
        }
    }

    fn lose(&mut self, kind: io::ErrorKind) -> DobotError {
        self.lost = Some(kind);
        DobotError::Disconnected(kind)
    }

    /// Waits (at most [`DobotConfig::drain_timeout`]) until the index and the pose stand still
    /// for [`DobotConfig::settle`]: the work a previous session queued is done.
    async fn drain(&mut self) -> Result<(), DobotError> {
        let give_up = Instant::now() + self.config.drain_timeout;
        let mut last = (self.read_index().await?, self.read_pose().await?);
        let mut still_since = Instant::now();
        while Instant::now() < give_up && still_since.elapsed() < self.config.settle {
            sleep(self.config.poll_interval).await;
            let now = (self.read_index().await?, self.read_pose().await?);
            if now != last {
                last = now;
                still_since = Instant::now();
            }
        }
        Ok(())
    }

    /// Stops the queue at once, discards it and starts it again (242, 245, 240), then reads
    /// the index so that nothing counts as pending.
    async fn reset_queue(&mut self) -> Result<(), DobotError> {
        self.request_done(Command::ForceStopQueue).await?;
        self.request_done(Command::ClearQueue).await?;
        self.request_done(Command::StartQueue).await?;
        // Not checked against the old session's indices: a firmware may restart them.
        self.base = None;
        let index = self.read_index().await?;
        self.base = Some(index);
        self.queued_sends = 0;
        self.pending.clear();
        self.executed = index;
        self.last_queued = index;
        self.space = 0;
        Ok(())
    }

    /// Stops and clears a queue that failed, and says so in the statistics.
    async fn recover(&mut self) -> Result<(), DobotError> {
        self.stats.queue_recoveries += 1;
        self.reset_queue().await?;
        self.planned = self.read_pose().await?;
        Ok(())
    }

    /// Records an executed index: drops the pending commands it covers. Returns whether it is
    /// progress.
    fn note_executed(&mut self, index: u64) -> bool {
        let progress = index > self.executed;
        if progress {
            self.executed = index;
        }
        while self
            .pending
            .front()
            .is_some_and(|pending| pending.index <= index)
        {
            self.pending.pop_front();
        }
        progress
    }

    /// The allowance of the command the arm works on now.
    fn head_allowance(&self) -> Duration {
        self.pending
            .front()
            .map_or(self.config.move_slack, |pending| pending.allowance)
    }

    /// Waits until the queue has a free place, recovering the queue if it stays full for longer
    /// than the command at its head may take.
    async fn ensure_space(&mut self) -> Result<(), DobotError> {
        let mut deadline = Instant::now() + self.head_allowance();
        loop {
            if self.space > 0 {
                return Ok(());
            }
            self.space = match self.request(Command::GetQueueLeftSpace).await? {
                Reply::QueueLeftSpace(space) => space,
                reply => return Err(unexpected(Command::GetQueueLeftSpace, reply)),
            };
            if self.space > 0 {
                return Ok(());
            }
            let index = self.read_index().await?;
            if self.note_executed(index) {
                deadline = Instant::now() + self.head_allowance();
            } else if Instant::now() >= deadline {
                return Err(self.give_up_on_stuck_queue().await?);
            }
            sleep(self.config.poll_interval).await;
        }
    }

    /// The queue stopped advancing: recovers the arm and returns the error that says so (or
    /// the error recovery itself ran into).
    async fn give_up_on_stuck_queue(&mut self) -> Result<DobotError, DobotError> {
        let error = DobotError::QueueStuck {
            executed: self.executed,
            last_queued: self.last_queued,
            waited: self.head_allowance(),
        };
        self.recover().await?;
        Ok(error)
    }

    /// Queues `command`, which will take about `estimate`, once the queue has room.
    async fn enqueue(&mut self, command: Command, estimate: Duration) -> Result<(), DobotError> {
        self.ensure_space().await?;
        let failures = self.stats.failed_attempts;
        let index = match self.request(command).await? {
            Reply::Queued { index } => index,
            reply => return Err(unexpected(command, reply)),
        };
        // A retried command may have been queued twice: the count of free places is unknown.
        self.space = if self.stats.failed_attempts == failures {
            self.space.saturating_sub(1)
        } else {
            0
        };
        self.last_queued = self.last_queued.max(index);
        self.pending.push_back(Pending {
            index,
            allowance: estimate * 2 + self.config.move_slack,
        });
        Ok(())
    }

    /// Queues a PTP move and remembers where it ends.
    async fn queue_move(&mut self, target: Pose, motion: Motion) -> Result<(), DobotError> {
        let speed = self.config.speed();
        let (mode, estimate) = match motion {
            Motion::Jump => (
                PtpMode::JumpXyz,
                path_time(speed, &self.config.jump().waypoints(self.planned, target)),
            ),
            Motion::Joint => (PtpMode::MovjXyz, path_time(speed, &[self.planned, target])),
            Motion::Linear => (PtpMode::MovlXyz, path_time(speed, &[self.planned, target])),
        };
        self.enqueue(Command::Ptp { mode, target }, estimate)
            .await?;
        self.planned = target;
        Ok(())
    }

    /// Waits until the arm's current queue index (command 246) reaches the last index given
    /// out, as Dobot's own DLL demos do (`while lastIndex > GetQueuedCmdCurrentIndex`). Whether
    /// the firmware counts a command when it starts or when it ends is not documented; the
    /// planner ends every plan with a move to the park pose, so even in the first reading
    /// every piece has been released when this returns, and the board can be read.
    async fn wait_idle(&mut self) -> Result<(), DobotError> {
        let target = self.last_queued;
        let mut deadline = Instant::now() + self.head_allowance();
        loop {
            let index = self.read_index().await?;
            // Done is confirmed by a second reading, so one damaged reply that slipped past the
            // checksum cannot end the wait early.
            if index >= target && self.read_index().await? >= target {
                self.note_executed(index);
                self.pending.clear();
                return Ok(());
            }
            if self.note_executed(index) {
                deadline = Instant::now() + self.head_allowance();
            } else {
                let alarms = self.read_alarms().await?;
                if !alarms.is_empty() {
                    let executed = self.executed;
                    self.recover().await?;
                    return Err(DobotError::Alarm { alarms, executed });
                }
                if Instant::now() >= deadline {
                    return Err(self.give_up_on_stuck_queue().await?);
                }
            }
            sleep(self.config.poll_interval).await;
        }
    }
}

fn unexpected(command: Command, reply: Reply) -> DobotError {
    DobotError::UnexpectedReply {
        id: command.id(),
        reply,
    }
}

/// Estimated time of a suction change: the valve and the pump settle in well under this.
const SUCTION_TIME: Duration = Duration::from_millis(100);

impl<T> Arm for DobotArm<T>
where
    T: AsyncRead + AsyncWrite + Unpin + Send,
{
    async fn home(&mut self) -> Result<(), DobotError> {
        self.ensure_space().await?;
        let index = match self.request(Command::Home).await? {
            Reply::Queued { index } => index,
            reply => return Err(unexpected(Command::Home, reply)),
        };
        self.space = 0;
        self.last_queued = self.last_queued.max(index);
        self.pending.push_back(Pending {
            index,
            allowance: self.config.home_timeout,
        });
        Ok(())
    }

    async fn move_to(&mut self, target: Pose, motion: Motion) -> Result<(), DobotError> {
        self.queue_move(target, motion).await
    }

    async fn set_suction(&mut self, on: bool) -> Result<(), DobotError> {
        // Release (control on, not sucking) vents the cup so a held piece drops at once.
        let suction = if on { Suction::Suck } else { Suction::Release };
        self.enqueue(Command::SetSuction(suction), SUCTION_TIME)
            .await
    }

    async fn park(&mut self) -> Result<(), DobotError> {
        self.enqueue(Command::SetSuction(Suction::Off), SUCTION_TIME)
            .await?;
        let park = self.config.park;
        self.queue_move(park, Motion::Jump).await
    }

    async fn wait_until_idle(&mut self) -> Result<(), DobotError> {
        self.wait_idle().await
    }

    async fn abort(&mut self) -> Result<(), DobotError> {
        self.reset_queue().await?;
        self.planned = self.read_pose().await?;
        Ok(())
    }

    async fn pose(&mut self) -> Result<Pose, DobotError> {
        self.read_pose().await
    }

    async fn alarms(&mut self) -> Result<ArmAlarms, DobotError> {
        self.read_alarms().await
    }

    async fn clear_alarms(&mut self) -> Result<(), DobotError> {
        self.request_done(Command::ClearAlarms).await
    }
}
