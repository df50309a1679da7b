//! A simulated board controller: Hall sensors over an [`Occupancy`] the test sets (with stuck
//! sensors and reported faults on demand), buttons the test presses, and a face that records
//! every pose it is sent.
//!
//! The session rules come from [`peer`](crate::controller::peer); this file is only the
//! hardware, as a firmware's command handlers would be.

use std::collections::VecDeque;
use std::future::Future;
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::controller::peer::{Firmware, Outbox, PeerConfig, PeerDriver, PeerHandle, serve};
use crate::controller::{
    Capabilities, Fault, FirmwareVersion, Message, NEWEST_VERSION, NackReason, OLDEST_VERSION,
    Welcome,
};
use crate::device::{BrowAngles, ButtonId, Eyes, NeckPose, Pose, SquareLights};
use crate::occupancy::{BoardSize, Occupancy, SquareOutOfRange};
use crate::sim::controller_arm::{Pieces, SimArm, SimArmConfig, SimArmStats};

/// The firmware version the simulator announces, so logs tell it from a real board.
pub const SIM_FIRMWARE: FirmwareVersion = FirmwareVersion {
    major: 0,
    minor: 1,
    patch: 0,
};

/// What the simulator drives unless told otherwise: a board with buttons, lights under the
/// squares and a whole face.
pub const FULL_BOARD: Capabilities = Capabilities(
    Capabilities::BOARD_SENSOR.0
        | Capabilities::BUTTONS.0
        | Capabilities::EYES.0
        | Capabilities::BROWS.0
        | Capabilities::NECK.0
        | Capabilities::BOARD_LIGHTS.0,
);

/// A servo pose as the controller received it: the target and the transition in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServoCommand<P> {
    /// Where the servos go.
    pub pose: P,
    /// How long they take, as sent on the wire.
    pub transition_ms: u16,
}

/// How many face commands of each kind the simulated controller remembers: enough for a test
/// to see what a game showed, bounded so a simulation of thousands of games keeps its memory.
pub const FACE_HISTORY: usize = 256;

/// The last [`FACE_HISTORY`] commands of one kind, oldest first.
#[derive(Debug, Clone)]
struct Recent<T> {
    items: VecDeque<T>,
}

impl<T> Default for Recent<T> {
    fn default() -> Recent<T> {
        Recent {
            items: VecDeque::new(),
        }
    }
}

impl<T: Clone> Recent<T> {
    fn push(&mut self, item: T) {
        if self.items.len() == FACE_HISTORY {
            self.items.pop_front();
        }
        self.items.push_back(item);
    }

    fn to_vec(&self) -> Vec<T> {
        self.items.iter().cloned().collect()
    }
}

/// What the simulated hardware holds and has been told.
#[derive(Debug)]
struct BoardState {
    occupancy: Occupancy,
    /// Sensors that read a fixed value whatever stands on them (bit per square).
    stuck: u128,
    /// What the stuck sensors read.
    stuck_reading: u128,
    /// The hardware announced in Welcome; commands for anything else are refused.
    capabilities: Capabilities,
    /// The newest protocol version the firmware speaks (an older build speaks 1 only).
    newest_version: u8,
    /// What the lights under the squares show now; dark at every new session.
    lights: Option<SquareLights>,
    /// Every picture the lights were sent, most recent last.
    lights_history: Recent<SquareLights>,
    eyes: Recent<Eyes>,
    brows: Recent<ServoCommand<BrowAngles>>,
    necks: Recent<ServoCommand<NeckPose>>,
    scans_sent: usize,
    sessions_lost: usize,
    /// The rack beside the board: whether each slot holds a piece (the sensors do not see it).
    rack: Vec<bool>,
    /// The controller's own arm, if it has one, and what wakes the task that runs it.
    arm: Option<(SimArm, Arc<Notify>)>,
}

impl BoardState {
    /// The arm and the pieces it moves, borrowed together.
    fn arm_and_pieces(&mut self) -> Option<(&mut SimArm, Pieces<'_>, &Arc<Notify>)> {
        let BoardState {
            arm,
            occupancy,
            rack,
            ..
        } = self;
        let (arm, wake) = arm.as_mut()?;
        Some((arm, Pieces { occupancy, rack }, wake))
    }

    /// What the sensors report: the pieces, except where a sensor is stuck.
    fn reading(&self) -> Occupancy {
        let bits = self.occupancy.bits() & !self.stuck | self.stuck_reading & self.stuck;
        Occupancy::from_bits(self.occupancy.size(), bits)
            .expect("stuck sensors are checked to be on the board")
    }
}

type Shared = Arc<Mutex<BoardState>>;

fn lock(state: &Shared) -> MutexGuard<'_, BoardState> {
    // A test that panicked while holding the lock has failed already; its data is still fine.
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The hardware a host command drives, if it is one the simulator can lack.
fn message_capability(message: &Message) -> Option<Capabilities> {
    match message {
        Message::ScanRequest => Some(Capabilities::BOARD_SENSOR),
        Message::Eyes(_) => Some(Capabilities::EYES),
        Message::Brows { .. } => Some(Capabilities::BROWS),
        Message::Neck { .. } => Some(Capabilities::NECK),
        Message::SquareLights(_) => Some(Capabilities::BOARD_LIGHTS),
        Message::JointTargets(_) | Message::ArmHome { .. } | Message::ArmStop => {
            Some(Capabilities::ARM_JOINTS)
        }
        Message::PumpValve { .. } => Some(Capabilities::PUMP_VALVE),
        _ => None,
    }
}

/// The simulated controller's command handlers, run by a [`PeerDriver`].
#[derive(Debug)]
pub struct SimBoardFirmware {
    state: Shared,
    size: BoardSize,
}

impl Firmware for SimBoardFirmware {
    fn versions(&self) -> RangeInclusive<u8> {
        OLDEST_VERSION..=lock(&self.state).newest_version
    }

    fn welcome(&mut self, version: u8) -> Welcome {
        let mut state = lock(&self.state);
        state.lights = None;
        let mut capabilities = state.capabilities;
        if version < 2 {
            // Version 1 has no lights, and its bit 7 is reserved.
            capabilities.0 &= !Capabilities::BOARD_LIGHTS.0;
        }
        Welcome {
            version,
            firmware: SIM_FIRMWARE,
            board: Some(self.size),
            capabilities,
        }
    }

    fn command(&mut self, message: Message, outbox: &mut Outbox) -> Result<(), NackReason> {
        let mut state = lock(&self.state);
        if message_capability(&message).is_some_and(|needed| !state.capabilities.contains(needed)) {
            return Err(NackReason::UNSUPPORTED);
        }
        match message {
            Message::ScanRequest => {
                state.scans_sent += 1;
                outbox.send(Message::Scan(state.reading()));
            }
            Message::Eyes(eyes) => state.eyes.push(eyes),
            Message::Brows {
                angles,
                transition_ms,
            } => state.brows.push(ServoCommand {
                pose: angles,
                transition_ms,
            }),
            Message::Neck {
                pose,
                transition_ms,
            } => state.necks.push(ServoCommand {
                pose,
                transition_ms,
            }),
            Message::SquareLights(lights) if lights.size() == self.size => {
                state.lights = (!lights.is_dark()).then_some(lights);
                state.lights_history.push(lights);
            }
            // Lights for another board than this one.
            Message::SquareLights(_) => return Err(NackReason::BAD_PAYLOAD),
            Message::JointTargets(_)
            | Message::ArmHome { .. }
            | Message::ArmStop
            | Message::PumpValve { .. }
            | Message::ClearFaults => {
                // Only the arm's faults are simulated: without an arm none is left to clear.
                if let Some((arm, pieces, wake)) = state.arm_and_pieces() {
                    arm.command(message, pieces, Instant::now())?;
                    wake.notify_one();
                } else if message != Message::ClearFaults {
                    return Err(NackReason::UNSUPPORTED);
                }
            }
            _ => return Err(NackReason::UNSUPPORTED),
        }
        Ok(())
    }

    fn session_lost(&mut self) {
        let mut state = lock(&self.state);
        state.sessions_lost += 1;
        if let Some((arm, pieces, wake)) = state.arm_and_pieces() {
            arm.session_lost(Instant::now(), pieces);
            wake.notify_one();
        }
        // A host that is gone must not leave instructions lit on the board (rule L2).
        state.lights = None;
    }
}

/// The test's side of a simulated board: moves pieces, presses buttons, and reads back what the
/// host sent to the face. Clone it to share.
#[derive(Debug, Clone)]
pub struct SimBoardHandle {
    state: Shared,
    /// The session that serves the board now; replaced when the board is served on a new
    /// transport, as a controller is after its cable was unplugged and plugged back in.
    peer: Arc<Mutex<PeerHandle>>,
}

/// Serves a simulated board controller of `size` on `io`, starting with `occupancy`; spawn the
/// driver.
pub fn sim_board<T>(
    io: T,
    occupancy: Occupancy,
    config: PeerConfig,
) -> (SimBoardHandle, PeerDriver<T, SimBoardFirmware>)
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    let state = Arc::new(Mutex::new(BoardState {
        occupancy,
        stuck: 0,
        stuck_reading: 0,
        capabilities: FULL_BOARD,
        newest_version: NEWEST_VERSION,
        lights: None,
        lights_history: Recent::default(),
        eyes: Recent::default(),
        brows: Recent::default(),
        necks: Recent::default(),
        scans_sent: 0,
        sessions_lost: 0,
        rack: Vec::new(),
        arm: None,
    }));
    let firmware = SimBoardFirmware {
        state: Arc::clone(&state),
        size: occupancy.size(),
    };
    let (peer, driver) = serve(io, config, firmware);
    let handle = SimBoardHandle {
        state,
        peer: Arc::new(Mutex::new(peer)),
    };
    (handle, driver)
}

impl SimBoardHandle {
    /// Serves the same board (pieces, face, stuck sensors) on a new transport, as after a
    /// reconnect; events go out on the new one from now on. Spawn the driver.
    pub fn serve<T>(&self, io: T, config: PeerConfig) -> PeerDriver<T, SimBoardFirmware>
    where
        T: AsyncRead + AsyncWrite + Unpin,
    {
        let firmware = SimBoardFirmware {
            state: Arc::clone(&self.state),
            size: lock(&self.state).occupancy.size(),
        };
        let (peer, driver) = serve(io, config, firmware);
        *self.peer.lock().unwrap_or_else(PoisonError::into_inner) = peer;
        driver
    }

    fn peer(&self) -> PeerHandle {
        self.peer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Where the pieces stand now (what healthy sensors read).
    pub fn occupancy(&self) -> Occupancy {
        lock(&self.state).occupancy
    }

    /// Replaces the whole board, as a person setting up a game would.
    pub fn set_occupancy(&self, occupancy: Occupancy) {
        lock(&self.state).occupancy = occupancy;
    }

    /// Takes the piece off `square` (nothing happens if it is empty).
    pub fn lift(&self, square: usize) -> Result<(), SquareOutOfRange> {
        lock(&self.state).occupancy.set(square, false)
    }

    /// Puts a piece on `square`.
    pub fn place(&self, square: usize) -> Result<(), SquareOutOfRange> {
        lock(&self.state).occupancy.set(square, true)
    }

    /// Gives the board a rack of `slots` slots beside it (keeping what the slots it had hold).
    pub fn set_rack_slots(&self, slots: usize) {
        lock(&self.state).rack.resize(slots, false);
    }

    /// Gives the controller its own arm (joints, pump and valve), announced from the next
    /// Welcome on; the rack grows to the layout's. Spawn the returned future: it runs the
    /// arm's queue on tokio's clock (this crate needs no runtime of its own), and ends when
    /// the arm is replaced.
    #[must_use = "the arm moves only while the returned future runs"]
    pub fn add_arm(&self, config: SimArmConfig) -> impl Future<Output = ()> + Send + 'static {
        let wake = Arc::new(Notify::new());
        {
            let mut state = lock(&self.state);
            state.capabilities.0 |= Capabilities::ARM_JOINTS.0 | Capabilities::PUMP_VALVE.0;
            if let Some(rack) = config.layout.rack
                && state.rack.len() < rack.len()
            {
                state.rack.resize(rack.len(), false);
            }
            state.arm = Some((SimArm::new(&config), Arc::clone(&wake)));
        }
        run_arm(Arc::clone(&self.state), Arc::clone(&self.peer), wake)
    }

    /// Runs `read` on the arm caught up with the clock; `None` without an arm.
    fn with_arm<R>(&self, read: impl FnOnce(&mut SimArm) -> R) -> Option<R> {
        let mut state = lock(&self.state);
        let (arm, pieces, _) = state.arm_and_pieces()?;
        arm.catch_up(Instant::now(), pieces);
        Some(read(arm))
    }

    /// Where the arm's cup is now, moving or not; `None` without an arm.
    pub fn arm_tip(&self) -> Option<Pose> {
        self.with_arm(|arm| arm.tip_at(Instant::now()))
    }

    /// Whether the arm's cup holds a piece.
    pub fn arm_holding(&self) -> bool {
        self.with_arm(|arm| arm.holding()).unwrap_or(false)
    }

    /// Whether the arm's pump runs.
    pub fn arm_pump(&self) -> bool {
        self.with_arm(|arm| arm.pump()).unwrap_or(false)
    }

    /// What the arm did so far.
    pub fn arm_stats(&self) -> SimArmStats {
        self.with_arm(|arm| arm.stats()).unwrap_or_default()
    }

    /// Pieces the arm dropped in the trophy bin.
    pub fn arm_trophies(&self) -> u32 {
        self.with_arm(|arm| arm.trophies()).unwrap_or(0)
    }

    /// The fault that stopped the arm, until the host clears it.
    pub fn arm_fault(&self) -> Option<Fault> {
        self.with_arm(|arm| arm.fault()).flatten()
    }

    /// Stops the arm with `fault` now, as a limit switch or lost steps would: the queue is
    /// emptied and arm commands are refused until the host sends `ClearFaults`.
    pub fn raise_arm_fault(&self, fault: Fault) {
        let mut state = lock(&self.state);
        if let Some((arm, _, wake)) = state.arm_and_pieces() {
            arm.raise(fault, Instant::now());
            wake.notify_one();
        }
    }

    /// Whether each rack slot holds a piece, slot by slot.
    pub fn rack(&self) -> Vec<bool> {
        lock(&self.state).rack.clone()
    }

    /// Takes the piece out of rack slot `slot`; false when it holds none (or does not exist).
    pub fn take_from_rack(&self, slot: usize) -> bool {
        lock(&self.state)
            .rack
            .get_mut(slot)
            .is_some_and(std::mem::take)
    }

    /// Puts a piece into rack slot `slot`; false when it already holds one (or does not
    /// exist).
    pub fn put_in_rack(&self, slot: usize) -> bool {
        lock(&self.state)
            .rack
            .get_mut(slot)
            .is_some_and(|held| !std::mem::replace(held, true))
    }

    /// Puts a piece into the first empty rack slot, as a person tidying up would; which slot,
    /// or `None` when the rack is full or absent.
    pub fn put_in_first_free_rack_slot(&self) -> Option<usize> {
        let mut state = lock(&self.state);
        let slot = state.rack.iter().position(|held| !held)?;
        state.rack[slot] = true;
        Some(slot)
    }

    /// Presses and releases `button` at once: two Button messages, sent reliably in order.
    /// Returns `false` when the controller is no longer running.
    pub fn press(&self, button: ButtonId) -> bool {
        self.button(button, true) && self.button(button, false)
    }

    /// Presses `button`, holds it for `held` (of tokio's clock) and releases it: a long press
    /// when `held` reaches the host's long-press time. Returns `false` when the controller is
    /// no longer running.
    pub async fn hold(&self, button: ButtonId, held: std::time::Duration) -> bool {
        if !self.button(button, true) {
            return false;
        }
        tokio::time::sleep(held).await;
        self.button(button, false)
    }

    /// Sends one Button message: `button` went down (`pressed`) or up.
    fn button(&self, button: ButtonId, pressed: bool) -> bool {
        self.peer().send(Message::Button { button, pressed })
    }

    /// Makes the sensor under `square` read `reading` whatever stands on it (a dead sensor reads
    /// `false`, one stuck by a stray magnet `true`); `None` heals it.
    pub fn stick_sensor(
        &self,
        square: usize,
        reading: Option<bool>,
    ) -> Result<(), SquareOutOfRange> {
        let mut state = lock(&self.state);
        let size = state.occupancy.size();
        if square >= size.square_count() {
            return Err(SquareOutOfRange { size, square });
        }
        let bit = 1u128 << square;
        match reading {
            Some(value) => {
                state.stuck |= bit;
                state.stuck_reading = state.stuck_reading & !bit | if value { bit } else { 0 };
            }
            None => state.stuck &= !bit,
        }
        Ok(())
    }

    /// Sends a Fault as the firmware would on detecting (or clearing) one. Returns `false` when
    /// the controller is no longer running.
    pub fn report_fault(&self, fault: Fault) -> bool {
        self.peer().send(Message::Fault(fault))
    }

    /// Changes the hardware the controller has, as a different build of the robot would: commands
    /// for what is missing are refused with `UNSUPPORTED` from now on, and the next Welcome
    /// announces the new set.
    pub fn set_capabilities(&self, capabilities: Capabilities) {
        lock(&self.state).capabilities = capabilities;
    }

    /// Makes the controller a build that speaks protocol versions up to `newest` only (1: a
    /// board from before lights existed), from the next Hello on.
    pub fn set_newest_version(&self, newest: u8) {
        lock(&self.state).newest_version = newest.clamp(OLDEST_VERSION, NEWEST_VERSION);
    }

    /// What the lights under the squares show now; `None` when every light is dark.
    pub fn lights(&self) -> Option<SquareLights> {
        lock(&self.state).lights
    }

    /// The last [`FACE_HISTORY`] pictures the lights were sent, oldest first.
    pub fn lights_history(&self) -> Vec<SquareLights> {
        lock(&self.state).lights_history.to_vec()
    }

    /// The last [`FACE_HISTORY`] eye images received, oldest first.
    pub fn eyes(&self) -> Vec<Eyes> {
        lock(&self.state).eyes.to_vec()
    }

    /// The last [`FACE_HISTORY`] brow poses received, oldest first.
    pub fn brows(&self) -> Vec<ServoCommand<BrowAngles>> {
        lock(&self.state).brows.to_vec()
    }

    /// The last [`FACE_HISTORY`] neck poses received, oldest first.
    pub fn necks(&self) -> Vec<ServoCommand<NeckPose>> {
        lock(&self.state).necks.to_vec()
    }

    /// How many scan requests were acted on: retransmitted requests count once.
    pub fn scans_sent(&self) -> usize {
        lock(&self.state).scans_sent
    }

    /// How many sessions the controller has given up (host silent, frames unanswered).
    pub fn sessions_lost(&self) -> usize {
        lock(&self.state).sessions_lost
    }
}

/// Runs the simulated arm's queue on tokio's clock: finishes each motion when it ends and
/// sends its `MotionDone` (and any Fault) through the session serving the board then.
async fn run_arm(state: Shared, peer: Arc<Mutex<PeerHandle>>, wake: Arc<Notify>) {
    loop {
        let next = {
            let mut state = lock(&state);
            let now = Instant::now();
            let Some((arm, pieces, current)) = state.arm_and_pieces() else {
                return;
            };
            if !Arc::ptr_eq(current, &wake) {
                return;
            }
            arm.catch_up(now, pieces);
            let due = arm.take_due(now);
            let next = arm.next_event();
            let peer = peer.lock().unwrap_or_else(PoisonError::into_inner);
            for message in due {
                // A message for a host that is gone is lost, as on the wire.
                peer.send(message);
            }
            next
        };
        match next {
            Some(at) => {
                tokio::select! {
                    biased;
                    () = wake.notified() => {}
                    () = tokio::time::sleep_until(at) => {}
                }
            }
            None => wake.notified().await,
        }
    }
}
