//! The simulated arm: a virtual Dobot Magician next to the simulated board, driven by the real
//! Dobot driver over its real protocol, and a calibration that matches where the virtual board
//! lies, as an operator's would.

use std::time::Duration;

use anyhow::Context as _;
use hal::arm::Calibration;
use hal::controller::peer::PeerConfig;
use hal::device::Pose;
use hal::dobot::{DobotArm, DobotConfig};
use hal::sim::board::{SimBoardHandle, sim_board};
use hal::sim::dobot::{DobotFaults, SimBoardLayout, SimRack, VirtualDobot, VirtualDobotConfig};
use hal::sim::faulty_io::{ByteFaults, FaultyIo};
use rules::{Bitboard, Variant};
use tokio::io::DuplexStream;

use crate::robot::{ARM_RECONNECT_PATIENCE, Backoff, PlannedArm, ReopenArm, occupancy_map};
use player::rng::SplitMix;

/// The driver of the simulated arm.
type SimDobot = DobotArm<FaultyIo<DuplexStream>>;

/// The arm the simulation drives.
pub type SimArm = PlannedArm<SimDobot>;

/// Height of the tool touching a man on the board, mm.
const BOARD_Z: f32 = 10.0;
/// The tool's height while crossing the board, mm: it must clear a king carried over a king.
const SAFE_Z: f32 = 40.0;

/// A piece's diameter, as a share of the distance between square centres.
const PIECE_WIDTH: f32 = 0.8;
/// The rack's slots' spacing, as a share of the distance between square centres: a little
/// wider than a piece.
const SLOT_SPACING: f32 = 0.85;

/// Where the virtual board lies: a1 nearest the arm on its left, the whole board inside the
/// Magician's reach (a board 133 mm across, whatever its number of squares); the rack on the
/// board's left (+y), a row of slots per file's width and half as many rows as the board has
/// (room for every piece of the game and more); the trophy bin nearer the arm on the right.
///
/// With `slots` (`sim --rack-slots`), the rack has a row as wide as the board at most and as
/// many whole rows as fit `slots`; 0 leaves the board without a rack (captured pieces go to
/// the trophy bin).
pub fn layout_with_rack(variant: Variant, slots: Option<usize>) -> SimBoardLayout {
    let size = occupancy_map::board_size(variant.geometry());
    let side = size.side();
    let pitch = 133.0 / (side as f32 - 1.0);
    let a1 = Pose {
        x: 170.0,
        y: 66.5,
        z: BOARD_Z,
        r: 0.0,
    };
    if slots == Some(0) {
        return SimBoardLayout::new(size, a1, pitch);
    }
    let (rows, columns) = match slots {
        None => (side / 2, side),
        Some(slots) => {
            let columns = slots.min(side);
            ((slots / columns).min(side / 2), columns)
        }
    };
    let spacing = pitch * SLOT_SPACING;
    let rack = SimRack {
        rows,
        columns,
        first: Pose {
            x: 160.0,
            y: 92.0,
            ..a1
        },
        along_row: (spacing, 0.0),
        between_rows: (0.0, spacing),
    };
    let bin = Pose {
        x: 150.0,
        y: -100.0,
        ..a1
    };
    SimBoardLayout::new(size, a1, pitch).with_rack(rack, bin)
}

/// The calibration an operator would teach for `layout`: the four corner centres, the rack's
/// three taught slots, the bin, four spare-king slots in the reserve, the park pose and the
/// travel height.
pub fn calibration(layout: &SimBoardLayout) -> anyhow::Result<Calibration> {
    calibration_for_arm(layout, "magician")
}

/// [`calibration`] for the arm `model` (`magician`, or `reference` for the board
/// controller's own arm); the calibration checks every point is in that arm's reach.
pub fn calibration_for_arm(layout: &SimBoardLayout, model: &str) -> anyhow::Result<Calibration> {
    let side = layout.size.side();
    let last_file = char::from(b'a' + side as u8 - 1);
    let far = layout.pitch * (side as f32 - 1.0);
    let point = |x: f32, y: f32, z: f32| format!("{{ x = {x}, y = {y}, z = {z} }}");
    let corner = |row: f32, col: f32| {
        point(
            layout.a1.x + row * far,
            layout.a1.y - col * far,
            layout.a1.z,
        )
    };
    let (bin, reserve) = (layout.bin, layout.reserve);
    let spread = layout.reserve_radius * 0.4;
    let king_slots: Vec<String> = [(-spread, 0.0), (spread, 0.0), (0.0, -spread), (0.0, spread)]
        .into_iter()
        .map(|(dx, dy)| point(reserve.x + dx, reserve.y + dy, reserve.z))
        .collect();
    let rack = layout.rack.map_or(String::new(), |rack| {
        let slot = |i: usize| {
            let pose = rack.slot_pose(i).expect("a slot of the rack");
            point(pose.x, pose.y, pose.z)
        };
        format!(
            "[rack]\nrows = {rows}\ncolumns = {columns}\nfirst = {first}\n\
             row_end = {row_end}\nlast_row = {last_row}\n",
            rows = rack.rows,
            columns = rack.columns,
            first = slot(0),
            row_end = slot(rack.columns - 1),
            last_row = slot((rack.rows - 1) * rack.columns),
        )
    });
    let diameter = layout.pitch * PIECE_WIDTH;
    let text = format!(
        "version = 1\n\
         arm = {{ model = \"{model}\" }}\n\
         park = {park}\n\
         bins = [{bin}]\n\
         king_reserve = [{kings}]\n\
         pieces = {{ man_mm = 5.0, king_mm = 8.0, diameter_mm = {diameter} }}\n\
         travel = {{ safe_z = {SAFE_Z}, clearance_mm = 5.0 }}\n\
         [board]\n\
         side = {side}\n\
         [board.corners]\n\
         a1 = {a1}\n\
         {last_file}1 = {h1}\n\
         a{side} = {a8}\n\
         {last_file}{side} = {h8}\n\
         {rack}",
        park = point(200.0, 0.0, 80.0),
        bin = point(bin.x, bin.y, 30.0),
        kings = king_slots.join(", "),
        a1 = corner(0.0, 0.0),
        h1 = corner(0.0, 1.0),
        a8 = corner(1.0, 0.0),
        h8 = corner(1.0, 1.0),
    );
    Calibration::from_toml(&text).context("the simulated arm's calibration")
}

/// A healthy-or-faulty virtual Dobot beside `board`, and the calibration an operator would
/// teach for where its board lies. `faults` is the probability of a failed pick per pick, and
/// sets rarer late and lost replies. Serve it on any byte stream ([`VirtualDobot::serve`]).
pub fn virtual_dobot(
    board: SimBoardHandle,
    variant: Variant,
    faults: f64,
    rng: &mut SplitMix,
) -> anyhow::Result<(VirtualDobot, Calibration)> {
    virtual_dobot_with_rack(board, variant, faults, None, rng)
}

/// [`virtual_dobot`] with a rack of `rack_slots` slots ([`layout_with_rack`]).
pub fn virtual_dobot_with_rack(
    board: SimBoardHandle,
    variant: Variant,
    faults: f64,
    rack_slots: Option<usize>,
    rng: &mut SplitMix,
) -> anyhow::Result<(VirtualDobot, Calibration)> {
    let layout = layout_with_rack(variant, rack_slots);
    let calibration = calibration(&layout)?;
    let reserve_pieces = calibration.king_slots().len() as u32;
    let dobot = VirtualDobot::new(
        board,
        layout,
        VirtualDobotConfig {
            reserve_pieces,
            faults: DobotFaults {
                seed: rng.next_u64(),
                failed_pick: faults,
                late_reply: faults / 10.0,
                late_delay: Duration::from_millis(150),
                dropped_reply: faults / 20.0,
                alarm_mid_move: 0.0,
            },
            ..VirtualDobotConfig::default()
        },
    );
    Ok((dobot, calibration))
}

/// A virtual Dobot on its own, for `checkerbot calibrate --sim`: beside an empty simulated
/// board whose sensors nobody reads (its transport is a stream nobody uses; the virtual Dobot
/// only needs the board to put pieces on), served on an in-memory stream, connected with the
/// real driver.
pub async fn standalone_arm(variant: Variant) -> anyhow::Result<DobotArm<DuplexStream>> {
    let empty = occupancy_map::to_occupancy(variant.geometry(), Bitboard::EMPTY);
    let (unused, _) = tokio::io::duplex(1);
    let (board, _) = sim_board(unused, empty, PeerConfig::default());
    let (dobot, _) = virtual_dobot(board, variant, 0.0, &mut SplitMix::new(1))?;
    let (host_io, arm_io) = tokio::io::duplex(4096);
    tokio::spawn(dobot.serve(arm_io).run());
    DobotArm::connect(host_io, driver_config(1.0))
        .await
        .context("connecting to the simulated Dobot")
}

/// The driver's settings for the virtual arm: its park pose and travel height match the
/// calibration; `speedup` multiplies the arm's speed and acceleration (1: the Magician's top
/// speed).
pub fn driver_config(speedup: f32) -> DobotConfig {
    DobotConfig {
        jump_height: SAFE_Z - BOARD_Z,
        // The Magician's top Cartesian speed, times `speedup`.
        xyz_velocity: 300.0 * speedup,
        xyz_acceleration: 800.0 * speedup,
        park: Pose {
            x: 200.0,
            y: 0.0,
            z: 80.0,
            r: 0.0,
        },
        ..DobotConfig::default()
    }
}

/// Starts a virtual Dobot beside `board` and connects the Dobot driver to it. `faults` is the
/// probability of a failed pick per pick, and sets rarer late and lost replies, damaged bytes
/// and hang-ups of the link (the USB cable pulled), after which the arm is reopened on a fresh
/// link. `speedup` multiplies the arm's speed and acceleration (1: the Magician's top speed).
pub async fn connect_sim_arm(
    board: SimBoardHandle,
    variant: Variant,
    faults: f64,
    speedup: f32,
    rack_slots: Option<usize>,
    rng: &mut SplitMix,
) -> anyhow::Result<SimArm> {
    let (dobot, calibration) = virtual_dobot_with_rack(board, variant, faults, rack_slots, rng)?;
    let config = driver_config(speedup);
    let link = SimArmLink {
        dobot,
        config,
        faults,
        rng: SplitMix::new(rng.next_u64()),
    };
    let mut relink = link;
    let mut reopen: ReopenArm<SimDobot> = Box::new(move || {
        let next = relink.clone();
        // Each link draws its own seeds, so the run replays however long reconnecting took.
        relink.rng = SplitMix::new(relink.rng.next_u64());
        Box::pin(next.connect())
    });
    let arm = first_connection(&mut reopen).await?;
    Ok(PlannedArm::new(arm, calibration).reconnect_with(reopen, ARM_RECONNECT_PATIENCE))
}

/// Attempts at the simulated arm's first connection: `--faults` may hang its link up during
/// the handshake, as a flaky cable could; a fourth hang-up in a row is not a fault any more.
const FIRST_CONNECTION_ATTEMPTS: u32 = 4;

/// Opens the simulated arm's first link with `reopen`, trying again (with the robot's backoff)
/// when a simulated fault cuts it during the handshake.
pub async fn first_connection<A>(reopen: &mut ReopenArm<A>) -> anyhow::Result<A> {
    let mut backoff = Backoff::new();
    let mut attempt = 1;
    loop {
        match reopen().await {
            Ok(arm) => return Ok(arm),
            Err(err) if attempt < FIRST_CONNECTION_ATTEMPTS => {
                tracing::debug!("the simulated arm's first link failed: {err:#}; again");
                tokio::time::sleep(backoff.next_wait()).await;
                attempt += 1;
            }
            Err(err) => return Err(err),
        }
    }
}

/// What it takes to open one link to the virtual Dobot.
#[derive(Clone)]
struct SimArmLink {
    dobot: VirtualDobot,
    config: DobotConfig,
    faults: f64,
    rng: SplitMix,
}

/// Bytes read on the arm's link, on average, between two hang-ups at `--faults 1`: a few
/// robot moves.
pub const BYTES_BETWEEN_HANG_UPS: f64 = 20_000.0;

impl SimArmLink {
    /// Serves the virtual Dobot on a fresh pipe and opens a driver session on it.
    async fn connect(mut self) -> anyhow::Result<SimDobot> {
        let (host_io, arm_io) = tokio::io::duplex(4096);
        tokio::spawn(self.dobot.serve(arm_io).run());
        let byte_fault = self.faults / 400.0;
        let mut io = FaultyIo::new(
            host_io,
            ByteFaults {
                seed: self.rng.next_u64(),
                drop: byte_fault,
                corrupt: byte_fault,
            },
        );
        if self.faults > 0.0 {
            // Exponentially distributed, so a hang-up is as likely at any byte.
            let mean = BYTES_BETWEEN_HANG_UPS / self.faults;
            io = io.hang_up_after(self.rng.exponential(mean) as u64);
        }
        DobotArm::connect(io, self.config)
            .await
            .context("connecting to the simulated Dobot")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use hal::controller::peer::PeerConfig;
    use hal::sim::board::sim_board;
    use rules::{Position, notation};
    use tokio::io::duplex;
    use tokio::task::JoinHandle;

    use super::*;
    use crate::robot::PieceMover as _;
    use crate::robot::planned_arm::ArmFault;
    use hal::{Error as _, ErrorKind};

    type PipeArm = PlannedArm<DobotArm<DuplexStream>>;

    /// Plugs the arm in: a fresh pipe served by `dobot`. Aborting the returned task pulls the
    /// cable.
    async fn plug(
        dobot: &VirtualDobot,
    ) -> (DobotArm<DuplexStream>, JoinHandle<std::io::Result<()>>) {
        let (host, device) = duplex(4096);
        let server = tokio::spawn(dobot.serve(device).run());
        let config = DobotConfig {
            jump_height: SAFE_Z - BOARD_Z,
            ..DobotConfig::default()
        };
        (DobotArm::connect(host, config).await.unwrap(), server)
    }

    /// A virtual Dobot beside a board set up for Russian draughts, and the arm connected to
    /// it; the arm reopens its link after `refusals` failed attempts, within `patience`.
    async fn rig(
        refusals: u32,
        patience: Duration,
    ) -> (PipeArm, JoinHandle<std::io::Result<()>>, SimBoardHandle) {
        let variant = Variant::Russian;
        let layout = layout_with_rack(variant, None);
        let calibration = calibration(&layout).unwrap();
        let start = Position::new(variant);
        let occupancy = occupancy_map::to_occupancy(variant.geometry(), start.occupied());
        let (unused, _) = duplex(1);
        let (board, _) = sim_board(unused, occupancy, PeerConfig::default());
        let dobot = VirtualDobot::new(
            board.clone(),
            layout,
            VirtualDobotConfig {
                reserve_pieces: 4,
                ..VirtualDobotConfig::default()
            },
        );
        let (arm, server) = plug(&dobot).await;
        let refusals = Arc::new(AtomicU32::new(refusals));
        let reopen: ReopenArm<DobotArm<DuplexStream>> = Box::new(move || {
            let (dobot, refusals) = (dobot.clone(), Arc::clone(&refusals));
            Box::pin(async move {
                if refusals
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_ok()
                {
                    anyhow::bail!("opening the serial port /dev/checkerbot-arm: no such file");
                }
                // The old server is gone with its pipe; this link gets its own.
                let (arm, server) = plug(&dobot).await;
                drop(server);
                Ok(arm)
            })
        });
        let arm = PlannedArm::new(arm, calibration).reconnect_with(reopen, patience);
        (arm, server, board)
    }

    fn occupied(board: &SimBoardHandle, square: &str) -> bool {
        let variant = Variant::Russian;
        let square = notation::parse_square(variant, square).unwrap();
        let scan = board.occupancy();
        let occupancy = occupancy_map::to_bitboard(variant.geometry(), &scan);
        occupancy.contains(square)
    }

    #[tokio::test(start_paused = true)]
    async fn an_unplugged_arm_is_reopened_for_the_next_move() {
        let (mut arm, server, board) = rig(2, Duration::from_secs(10)).await;
        let start = Position::new(Variant::Russian);
        let mv = notation::parse_move(&start, "c3-d4").unwrap();
        server.abort();
        let _ = server.await;

        let lost = arm.make_move(&start, &mv).await.unwrap_err();
        assert!(
            matches!(&lost, ArmFault::Device(err) if err.kind() == ErrorKind::Disconnected),
            "{lost}"
        );
        assert!(!arm.is_connected());
        assert!(occupied(&board, "c3") && !occupied(&board, "d4"));
        assert_eq!(arm.take_reconnection(), None);

        // Two attempts find no port, the third reopens it; the move is made.
        let before = tokio::time::Instant::now();
        arm.make_move(&start, &mv).await.unwrap();
        assert!(arm.is_connected());
        assert_eq!(arm.take_reconnection(), Some(3));
        assert_eq!(arm.take_reconnection(), None, "reported once");
        assert!(
            before.elapsed() >= Backoff::FIRST * 3,
            "backed off between attempts"
        );
        assert!(!occupied(&board, "c3") && occupied(&board, "d4"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_captured_piece_goes_into_the_rack_and_the_stock_counts_it_once_seen() {
        let (mut arm, _server, board) = rig(0, Duration::from_secs(1)).await;
        let variant = Variant::Russian;
        let mut position = Position::new(variant);
        for text in ["c3-d4", "f6-e5"] {
            let mv = notation::parse_move(&position, text).unwrap();
            position = position.play(&mv).unwrap();
        }
        let geometry = variant.geometry();
        board.set_occupancy(occupancy_map::to_occupancy(geometry, position.occupied()));
        let capture = notation::parse_move(&position, "d4:f6").unwrap();
        arm.make_move(&position, &capture).await.unwrap();
        assert!(!occupied(&board, "e5") && occupied(&board, "f6"));
        let full: Vec<usize> = (0..board.rack().len())
            .filter(|&i| board.rack()[i])
            .collect();
        assert_eq!(full.len(), 1, "one slot holds the captured piece");
        assert_eq!(
            arm.stock().pieces().count(),
            4,
            "not counted before the scan"
        );

        let scan = occupancy_map::to_bitboard(geometry, &board.occupancy());
        let made = arm.confirm(&crate::robot::arm_squares::occupied(geometry, scan));
        assert!(made.iter().all(|&made| made), "{made:?}");
        assert_eq!(
            arm.stock().get(hal::arm::Slot::Rack(full[0])),
            Some(hal::arm::Piece::man(hal::arm::PieceColour::Black))
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_man_crowned_with_no_spare_king_left_is_handed_to_the_visitor_once() {
        let (mut arm, _server, board) = rig(0, Duration::from_secs(1)).await;
        let variant = Variant::Russian;
        let geometry = variant.geometry();
        let position = rules::fen::parse(variant, "W:WC7,E7:BH6").unwrap();
        board.set_occupancy(occupancy_map::to_occupancy(geometry, position.occupied()));
        // With a spare king, the arm swaps it in itself.
        let crown = notation::parse_move(&position, "c7-d8").unwrap();
        arm.make_move(&position, &crown).await.unwrap();
        assert_eq!(arm.take_crown_by_hand(), None);
        let scan = occupancy_map::to_bitboard(geometry, &board.occupancy());
        arm.confirm(&crate::robot::arm_squares::occupied(geometry, scan));
        // The reserve emptied (the operator took the kings away): the visitor turns it over.
        let reserve: Vec<_> = arm.stock().pieces().map(|(slot, _)| slot).collect();
        for slot in reserve {
            arm.forget_slot(slot);
        }
        let after = position.play(&crown).unwrap();
        let position = rules::fen::parse(variant, "W:WKD8,E7:BH6").unwrap();
        assert_eq!(position.occupied(), after.occupied());
        let crown = notation::parse_move(&position, "e7-f8").unwrap();
        arm.make_move(&position, &crown).await.unwrap();
        assert!(occupied(&board, "f8"));
        let f8 = notation::parse_square(variant, "f8").unwrap();
        assert_eq!(
            arm.take_crown_by_hand(),
            Some(crate::robot::arm_squares::board_square(geometry, f8))
        );
        assert_eq!(arm.take_crown_by_hand(), None, "asked once");
    }

    #[tokio::test(start_paused = true)]
    async fn an_arm_that_stays_unplugged_fails_the_move_in_time_and_says_why() {
        let patience = Duration::from_secs(2);
        let (mut arm, server, _board) = rig(u32::MAX, patience).await;
        let start = Position::new(Variant::Russian);
        let mv = notation::parse_move(&start, "c3-d4").unwrap();
        server.abort();
        let _ = server.await;
        arm.make_move(&start, &mv).await.unwrap_err();

        let before = tokio::time::Instant::now();
        let err = arm.make_move(&start, &mv).await.unwrap_err();
        assert!(before.elapsed() <= patience);
        // Waits of 100, 200, 400 and 800 ms fit in 2 s; the next (1.6 s) would not.
        assert!(
            matches!(err, ArmFault::Disconnected { attempts: 5, .. }),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(
            text.contains("no such file") && text.contains("USB cable"),
            "{text}"
        );

        // Parking at shutdown tries once and does not wait.
        let before = tokio::time::Instant::now();
        let err = arm.park().await.unwrap_err();
        assert!(matches!(err, ArmFault::Disconnected { attempts: 1, .. }));
        assert_eq!(before.elapsed(), Duration::ZERO);
    }
}
