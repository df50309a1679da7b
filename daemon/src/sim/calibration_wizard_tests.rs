//! The wizard driven by scripted keys: against the virtual Dobot beside the simulated board
//! (the saved calibration must be where that board lies, and the robot must then move pieces
//! with it) and against the simulated board controller's own arm (the reference robot's), and
//! as a bare state machine for the refusals.

use std::collections::VecDeque;
use std::path::PathBuf;

use hal::arm::kinematics::ReferenceArm;
use hal::arm::{ArmModel, Calibration, Corner, Point};
use hal::controller::peer::PeerConfig;
use hal::dobot::DobotArm;
use hal::sim::board::sim_board;
use rules::{Position, Variant, notation};
use tokio::sync::mpsc;

use super::{controller_rig, dobot_rig};
use crate::calibrate::session::{Console, drive};
use crate::calibrate::wizard::{Key, RackPoint, Request, Target, Wizard};
use crate::robot::{PieceMover as _, PlannedArm, occupancy_map};
use player::rng::SplitMix;

/// The keys that jog the tool from `from` to `to` (to the nearest millimetre): up first when
/// rising, down last when sinking, so the tool never sweeps across the board low. The wizard
/// starts at 10 mm steps; Space switches to 1 mm and back.
fn jog(from: Point, to: Point) -> Vec<Key> {
    let mut keys = Vec::new();
    let mut axis = |delta: f64, plus: Key, minus: Key| {
        let mm = delta.round() as i64;
        let key = if mm >= 0 { plus } else { minus };
        let (tens, ones) = (mm.abs() / 10, mm.abs() % 10);
        keys.extend(std::iter::repeat_n(key, tens as usize));
        if ones > 0 {
            keys.push(Key::Char(' '));
            keys.extend(std::iter::repeat_n(key, ones as usize));
            keys.push(Key::Char(' '));
        }
    };
    let dz = to.z - from.z;
    if dz > 0.0 {
        axis(dz, Key::PageUp, Key::PageDown);
    }
    axis(to.x - from.x, Key::Up, Key::Down);
    axis(to.y - from.y, Key::Left, Key::Right);
    if dz < 0.0 {
        axis(dz, Key::PageUp, Key::PageDown);
    }
    keys
}

/// An operator at the screen: presses the next key of a script each time the screen shows
/// the arm at rest, keeps the last screen, and saves where the test says.
struct Recorder {
    script: VecDeque<Key>,
    keys: Option<mpsc::UnboundedSender<Key>>,
    last_screen: String,
    file: PathBuf,
    /// The moves the wizard refused (out of the arm's reach): a script that meets one goes
    /// astray.
    refusals: Vec<String>,
}

impl Recorder {
    /// The operator, and the keys they will press.
    fn new(script: Vec<Key>, file: PathBuf) -> (Recorder, mpsc::UnboundedReceiver<Key>) {
        let (send, keys) = mpsc::unbounded_channel();
        let recorder = Recorder {
            script: script.into(),
            keys: Some(send),
            last_screen: String::new(),
            file,
            refusals: Vec::new(),
        };
        (recorder, keys)
    }
}

impl Console for Recorder {
    fn draw(&mut self, screen: &str) {
        screen.clone_into(&mut self.last_screen);
        if let Some(refusal) = screen.lines().find(|line| line.starts_with("not moving"))
            && self.refusals.last().is_none_or(|last| last != refusal)
        {
            self.refusals.push(refusal.to_owned());
        }
        if screen.contains("(moving)") {
            return;
        }
        match self.script.pop_front() {
            Some(key) => {
                let _ = self.keys.as_ref().map(|keys| keys.send(key));
            }
            // Done: the keyboard goes away and the session ends.
            None => self.keys = None,
        }
    }

    fn save(&mut self, text: &str) -> anyhow::Result<PathBuf> {
        crate::calibrate::save_calibration(&self.file, text)?;
        Ok(self.file.clone())
    }
}

/// The keys an operator presses to teach every point of `expected`, from the tool at `home`.
fn teach(expected: &Calibration, home: Point) -> Vec<Key> {
    let mut keys = Vec::new();
    let mut at = home;
    let mut visit = |keys: &mut Vec<Key>, point: Option<Point>| {
        // `None`: the travel height, wherever the tool is.
        let point = point.unwrap_or_else(|| at.at_height(expected.safe_z()));
        // Lift to the travel height, cross, and go up or down to the point, as an operator
        // would.
        for step in [
            at.at_height(at.z.max(40.0)),
            point.at_height(at.z.max(40.0)),
            point,
        ] {
            keys.extend(jog(at, step));
            // Where whole-millimetre jogs end.
            at = Point::new(
                at.x + (step.x - at.x).round(),
                at.y + (step.y - at.y).round(),
                at.z + (step.z - at.z).round(),
            );
        }
        keys.push(Key::Enter);
    };
    for corner in Corner::ALL {
        visit(&mut keys, Some(expected.corners().corner(corner)));
    }
    visit(&mut keys, None);
    for bin in expected.bins() {
        visit(&mut keys, Some(*bin));
    }
    keys.push(Key::Tab); // no second bin
    match expected.rack() {
        Some(rack) => {
            let section = rack.section();
            keys.push(Key::Char('r'));
            let size = format!("{}x{}", section.rows, section.columns);
            keys.extend(size.chars().map(Key::Char));
            keys.push(Key::Enter);
            // The slots are closer than the squares: the pieces' width, measured.
            let diameter = expected
                .to_file()
                .pieces
                .diameter_mm
                .expect("the rig's pieces");
            keys.push(Key::Char('w'));
            keys.extend(format!("{diameter:.1}").chars().map(Key::Char));
            keys.push(Key::Enter);
            // The three taught slots; the wizard asks for each that the size needs.
            for point in [Some(section.first), section.row_end, section.last_row]
                .into_iter()
                .flatten()
            {
                visit(&mut keys, Some(point));
            }
        }
        None => keys.push(Key::Tab),
    }
    for slot in expected.king_slots() {
        visit(&mut keys, Some(*slot));
    }
    keys.push(Key::Tab); // no more spare kings
    visit(&mut keys, Some(expected.park()));
    keys
}

/// The points `saved` by the wizard are those of the simulated world `expected` describes, to
/// within what whole-millimetre jogs reach; `screen` is shown when the park pose is off.
/// Each of the `what` slots taught within 1 mm of where it is.
fn slots_within_1mm(what: &str, taught: &[Point], real: &[Point]) {
    assert_eq!(taught.len(), real.len(), "{what} slots");
    for (i, (got, want)) in taught.iter().zip(real).enumerate() {
        assert!(
            got.distance(*want) <= 1.0,
            "{what} slot {}: taught {got}, the slot is at {want}",
            i + 1
        );
    }
}

fn assert_taught(saved: &Calibration, expected: &Calibration, screen: &str) {
    for corner in Corner::ALL {
        let (got, want) = (
            saved.corners().corner(corner),
            expected.corners().corner(corner),
        );
        assert!(
            got.distance(want) <= 0.9,
            "{corner:?}: taught {got}, the board is at {want}"
        );
    }
    assert!((saved.safe_z() - expected.safe_z()).abs() < 1e-9);
    assert_eq!(saved.bins().len(), 1);
    slots_within_1mm("king reserve", saved.king_slots(), expected.king_slots());
    let (saved_rack, expected_rack) = (saved.rack().unwrap(), expected.rack().unwrap());
    slots_within_1mm("rack", saved_rack.slots(), expected_rack.slots());
    assert!(
        saved.park().distance(expected.park()) <= 0.9,
        "park taught at {}, wanted {}:\n{screen}",
        saved.park(),
        expected.park(),
    );
}

#[tokio::test(start_paused = true)]
async fn a_scripted_calibration_of_the_controllers_arm_finds_its_board() {
    let variant = Variant::Russian;
    let model = ArmModel::Reference(ReferenceArm::default());
    let (mut arm, board, expected) = controller_rig::standalone_arm_on_board(
        variant,
        &crate::calibrate::wizard_controller_config(&model),
    )
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("calibration.toml");
    // Homed when connected, with the forearm level high above the board; homing again is
    // harmless. The operator first brings the tool down to the travel height, where all of
    // the board is in reach.
    let home = Point::from_pose(board.arm_tip().unwrap());
    let start = home.at_height(expected.safe_z());
    let mut keys = vec![Key::Char('h')];
    keys.extend(jog(home, start));
    keys.extend(teach(&expected, start));
    keys.push(Key::Char('s'));
    keys.extend([Key::Char('t'), Key::Char('c'), Key::Char('3'), Key::Enter]);
    let (mut console, mut receiver) = Recorder::new(keys, file.clone());
    let mut wizard = Wizard::new(8, None).for_arm(model);
    drive(&mut arm, &mut wizard, &mut receiver, &mut console)
        .await
        .unwrap();

    assert_eq!(console.refusals, Vec::<String>::new());
    assert!(
        console.last_screen.contains("touching c3")
            && console.last_screen.contains("the reference arm"),
        "{}",
        console.last_screen
    );
    // The tool really is over c3, the joints moved by the controller.
    let c3 = variant
        .geometry()
        .index(notation::parse_square(variant, "c3").unwrap());
    let layout = dobot_rig::layout_with_rack(variant, None);
    assert_eq!(layout.square_under(board.arm_tip().unwrap()), Some(c3));
    let saved = Calibration::from_toml(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(matches!(saved.arm(), ArmModel::Reference(_)), "{saved:?}");
    assert_taught(&saved, &expected, &console.last_screen);
    // `run` takes it for the controller's arm.
    crate::devices::controller_arm_config(&saved).unwrap();
}

/// The joint-jogging keys (after `j`) that turn the reference arm from the tool at `from`
/// until the tool is at `to`: upper arm (off the end of its range at home), then base, then
/// forearm, whole degrees and then
/// tenths (Space before and after). Each step is checked with the wizard's own jog, so a
/// script that would leave a joint's range fails here rather than going astray.
fn joint_jog(arm: &ReferenceArm, from: Point, to: Point) -> Vec<Key> {
    use crate::calibrate::joint_jog::{JOINT_STEPS_DEG, jog, joints_at};
    let target = joints_at(arm, to).unwrap();
    let mut keys = Vec::new();
    let mut at = from;
    for (plus, minus, angle) in [
        (Key::Up, Key::Down, target.theta2),
        (Key::Left, Key::Right, target.theta0),
        (Key::PageUp, Key::PageDown, target.theta1),
    ] {
        for (fine, step) in JOINT_STEPS_DEG.into_iter().enumerate() {
            if fine == 1 {
                keys.push(Key::Char(' '));
            }
            loop {
                let now = joints_at(arm, at).unwrap();
                let current = match plus {
                    Key::Left => now.theta0,
                    Key::Up => now.theta2,
                    _ => now.theta1,
                };
                let left = angle - current;
                if left.abs() < step / 2.0 {
                    break;
                }
                let key = if left > 0.0 { plus } else { minus };
                let (joint, sign) = key.joint().unwrap();
                at = jog(arm, at, joint, sign * step).unwrap().tool;
                keys.push(key);
            }
        }
        keys.push(Key::Char(' '));
    }
    keys
}

#[tokio::test(start_paused = true)]
async fn a_corner_is_reached_by_joint_jogs_and_recorded_within_1mm() {
    let variant = Variant::Russian;
    let arm = ReferenceArm::default();
    let model = ArmModel::Reference(arm);
    let (mut controller_arm, board, expected) = controller_rig::standalone_arm_on_board(
        variant,
        &crate::calibrate::wizard_controller_config(&model),
    )
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let home = Point::from_pose(board.arm_tip().unwrap());
    let corner = expected.corners().corner(Corner::NearLeft);
    let mut keys = vec![Key::Char('j')];
    keys.extend(joint_jog(&arm, home, corner));
    keys.push(Key::Enter);
    let (mut console, mut receiver) = Recorder::new(keys, dir.path().join("calibration.toml"));
    let mut wizard = Wizard::new(8, None).for_arm(model);
    assert_eq!(wizard.target(), Target::Corner(Corner::NearLeft));
    drive(
        &mut controller_arm,
        &mut wizard,
        &mut receiver,
        &mut console,
    )
    .await
    .unwrap();

    assert_eq!(console.refusals, Vec::<String>::new());
    let screen = &console.last_screen;
    assert!(
        screen.contains("jog step 1 deg") && screen.contains("joints: theta0 "),
        "{screen}"
    );
    let taught = wizard.taught(Target::Corner(Corner::NearLeft)).unwrap();
    assert!(
        taught.distance(corner) <= 1.0,
        "taught {taught}, the corner is at {corner}:\n{screen}"
    );
    // The simulated controller's joints really put the tool there.
    let tip = Point::from_pose(board.arm_tip().unwrap());
    assert!(
        tip.distance(taught) <= 0.1,
        "the tool is at {tip}, taught {taught}"
    );
}

#[test]
fn joint_jogging_is_for_the_reference_arm_and_stops_at_its_limits() {
    let mut dobot = Wizard::new(8, None);
    dobot.arrived(Point::new(200.0, 0.0, 50.0));
    assert_eq!(dobot.key(Key::Char('j')), None);
    assert!(
        dobot
            .message()
            .contains("Dobot Magician is jogged in x, y and z")
    );
    // Still Cartesian: up moves the tool 10 mm forward.
    assert_eq!(
        dobot.key(Key::Up),
        Some(Request::Move(vec![Point::new(210.0, 0.0, 50.0)]))
    );

    let arm = ReferenceArm::default();
    let mut wizard = Wizard::new(8, None).for_arm(ArmModel::Reference(arm));
    let home = hal::arm::kinematics::Kinematics::forward(
        &arm,
        &hal::arm::kinematics::ReferenceJoints::new(0.0, 0.0, 90.0),
    );
    wizard.arrived(home);
    assert_eq!(wizard.key(Key::Char('j')), None);
    // The upper arm is upright, at the end of its range: up is refused, down turns it.
    assert_eq!(wizard.key(Key::Up), None);
    assert!(
        wizard
            .message()
            .contains("theta2 (the upper arm) would turn to 91.0 deg"),
        "{}",
        wizard.message()
    );
    let Some(Request::Turn(tool)) = wizard.key(Key::Down) else {
        panic!("down turns the upper arm")
    };
    assert!(tool.x > home.x && tool.z < home.z, "{tool} from {home}");
    wizard.arrived(tool);
    assert!(
        wizard.screen().contains("theta2 89.0 deg"),
        "{}",
        wizard.screen()
    );
    // Back to Cartesian jogs.
    assert_eq!(wizard.key(Key::Char('j')), None);
    assert!(matches!(wizard.key(Key::Up), Some(Request::Move(_))));
}

#[test]
fn a_file_for_another_arm_is_taught_again_for_this_one() {
    let example: hal::arm::CalibrationFile =
        toml::from_str(include_str!("../../../hal/data/calibration.example.toml")).unwrap();
    assert!(matches!(example.arm, ArmModel::Magician(_)));
    let wizard =
        Wizard::new(8, Some(example.clone())).for_arm(ArmModel::Reference(ReferenceArm::default()));
    assert!(
        wizard.message().contains("taught for Dobot Magician"),
        "{}",
        wizard.message()
    );
    assert!(wizard.screen().contains("board, the reference arm"));
    // The same kind of arm: nothing to say.
    let same = Wizard::new(8, Some(example)).for_arm(ArmModel::default());
    assert_eq!(same.message(), "");
    assert!(same.screen().contains("board, Dobot Magician"));
}

#[tokio::test(start_paused = true)]
async fn a_scripted_calibration_of_the_virtual_dobot_finds_its_board() {
    let variant = Variant::Russian;
    let geometry = variant.geometry();
    let empty = occupancy_map::to_occupancy(geometry, rules::Bitboard::EMPTY);
    let (unused, _) = tokio::io::duplex(1);
    let (board, _) = sim_board(unused, empty, PeerConfig::default());
    let (dobot, expected) =
        dobot_rig::virtual_dobot(board.clone(), variant, 0.0, &mut SplitMix::new(5)).unwrap();
    let (host_io, arm_io) = tokio::io::duplex(4096);
    tokio::spawn(dobot.serve(arm_io).run());
    let mut arm = DobotArm::connect(host_io, dobot_rig::driver_config(1.0))
        .await
        .unwrap();

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("calibration.toml");
    std::fs::write(&file, "an old calibration").unwrap();
    let home = Point::from_pose(dobot.pose());
    // Home first, as after switching the arm on: the tool ends where it started.
    let mut keys = vec![Key::Char('h')];
    keys.extend(teach(&expected, home));
    keys.push(Key::Char('s'));
    // Test-touch c3: the tool goes down onto it and back up to the travel height.
    keys.extend([Key::Char('t'), Key::Char('c'), Key::Char('3'), Key::Enter]);
    let (mut console, mut receiver) = Recorder::new(keys, file.clone());
    let mut wizard = Wizard::new(8, None);
    drive(&mut arm, &mut wizard, &mut receiver, &mut console)
        .await
        .unwrap();

    assert!(
        console.last_screen.contains("touching c3"),
        "{}",
        console.last_screen
    );
    let c3 = geometry.index(notation::parse_square(variant, "c3").unwrap());
    assert_eq!(dobot.layout().square_under(dobot.pose()), Some(c3));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("calibration.toml.bak")).unwrap(),
        "an old calibration",
        "the previous file is kept"
    );
    let saved = Calibration::from_toml(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_taught(&saved, &expected, &console.last_screen);

    // The robot moves pieces with what was taught.
    let start = Position::new(variant);
    board.set_occupancy(occupancy_map::to_occupancy(geometry, start.occupied()));
    let mv = notation::parse_move(&start, "c3-d4").unwrap();
    let mut robot_arm = PlannedArm::new(arm, saved);
    robot_arm.make_move(&start, &mv).await.unwrap();
    let after = start.play(&mv).unwrap();
    assert_eq!(
        occupancy_map::to_bitboard(geometry, &board.occupancy()),
        after.occupied()
    );
}

#[tokio::test(start_paused = true)]
async fn arrow_presses_queued_during_a_move_are_dropped() {
    let variant = Variant::Russian;
    let empty = occupancy_map::to_occupancy(variant.geometry(), rules::Bitboard::EMPTY);
    let (unused, _) = tokio::io::duplex(1);
    let (board, _) = sim_board(unused, empty, PeerConfig::default());
    let (dobot, _) = dobot_rig::virtual_dobot(board, variant, 0.0, &mut SplitMix::new(5)).unwrap();
    let (host_io, arm_io) = tokio::io::duplex(4096);
    tokio::spawn(dobot.serve(arm_io).run());
    let mut arm = DobotArm::connect(host_io, dobot_rig::driver_config(1.0))
        .await
        .unwrap();
    let start = Point::from_pose(dobot.pose());
    // A held arrow: five presses before the first move is done; then Space, which is kept.
    let (send, mut keys) = mpsc::unbounded_channel();
    for key in [Key::Up; 5].into_iter().chain([Key::Char(' ')]) {
        send.send(key).unwrap();
    }
    drop(send);
    let dir = tempfile::tempdir().unwrap();
    let (mut console, _) = Recorder::new(Vec::new(), dir.path().join("unused.toml"));
    let mut wizard = Wizard::new(8, None);
    drive(&mut arm, &mut wizard, &mut keys, &mut console)
        .await
        .unwrap();
    let end = Point::from_pose(dobot.pose());
    assert!(
        end.distance(Point::new(start.x + 10.0, start.y, start.z)) < 1e-3,
        "one step of 10 mm from {start}, not {end}"
    );
    assert!(
        wizard.message().contains("jog step 1 mm"),
        "{}",
        wizard.message()
    );
}

/// A wizard whose arm is wherever the test says: `at` then Enter records the point.
fn record(wizard: &mut Wizard, at: Point) {
    wizard.arrived(at);
    assert_eq!(wizard.key(Key::Enter), None);
}

fn taught_example() -> (Wizard, Calibration) {
    let example =
        Calibration::from_toml(include_str!("../../../hal/data/calibration.example.toml")).unwrap();
    let mut wizard = Wizard::new(8, None);
    for corner in Corner::ALL {
        record(&mut wizard, example.corners().corner(corner));
    }
    record(&mut wizard, Point::new(200.0, 0.0, example.safe_z()));
    record(&mut wizard, example.bins()[0]);
    assert_eq!(wizard.key(Key::Tab), None); // no second bin
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::First));
    assert_eq!(wizard.key(Key::Tab), None); // no rack
    assert_eq!(wizard.key(Key::Tab), None); // no spare kings
    assert_eq!(wizard.target(), Target::Park);
    record(&mut wizard, example.park());
    (wizard, example)
}

#[test]
fn a_complete_teaching_is_offered_for_saving() {
    let (mut wizard, _) = taught_example();
    let saved = save(&mut wizard);
    assert_eq!(saved.bins().len(), 1);
    assert!(saved.king_slots().is_empty());
}

#[test]
fn a_mirrored_board_is_refused_naming_the_corner_to_teach_again() {
    let example =
        Calibration::from_toml(include_str!("../../../hal/data/calibration.example.toml")).unwrap();
    let mut wizard = Wizard::new(8, None);
    // a1 and a8 taught at each other's places, and h1 and h8 too: the board seen from the
    // far side.
    for corner in [
        Corner::FarLeft,
        Corner::FarRight,
        Corner::NearLeft,
        Corner::NearRight,
    ] {
        record(&mut wizard, example.corners().corner(corner));
    }
    record(&mut wizard, Point::new(200.0, 0.0, example.safe_z()));
    record(&mut wizard, example.bins()[0]);
    wizard.key(Key::Tab);
    wizard.key(Key::Tab);
    wizard.key(Key::Tab);
    record(&mut wizard, example.park());
    assert_eq!(wizard.key(Key::Char('s')), None, "not saved");
    assert!(
        wizard.message().contains("mirrored"),
        "{}",
        wizard.message()
    );
    assert!(wizard.message().contains("a1"), "{}", wizard.message());
    assert_eq!(wizard.target(), Target::Corner(Corner::NearLeft));
    // Teaching the corners properly makes it savable.
    for corner in Corner::ALL {
        record(&mut wizard, example.corners().corner(corner));
    }
    assert!(matches!(wizard.key(Key::Char('s')), Some(Request::Save(_))));
}

#[test]
fn a_missing_bin_and_a_low_travel_height_are_named() {
    let (mut wizard, example) = taught_example();
    // Delete the bin.
    while wizard.target() != Target::Bin(0) {
        wizard.key(Key::Tab);
    }
    wizard.key(Key::Char('x'));
    assert_eq!(wizard.key(Key::Char('s')), None);
    assert!(
        wizard.message().contains("trophy-bin"),
        "{}",
        wizard.message()
    );
    assert_eq!(wizard.target(), Target::Bin(0));
    record(&mut wizard, example.bins()[0]);
    // A travel height just above the board would knock the pieces over.
    while wizard.target() != Target::SafeHeight {
        wizard.key(Key::BackTab);
    }
    record(&mut wizard, Point::new(200.0, 0.0, 12.0));
    assert_eq!(wizard.key(Key::Char('s')), None);
    assert!(wizard.message().contains("safe_z"), "{}", wizard.message());
    assert_eq!(wizard.target(), Target::SafeHeight);
}

#[test]
fn jogs_out_of_reach_and_touches_without_a_board_are_refused() {
    let mut wizard = Wizard::new(8, None);
    wizard.arrived(Point::new(315.0, 0.0, 10.0));
    assert_eq!(wizard.key(Key::Up), None, "{}", wizard.screen());
    assert!(wizard.message().contains("out of the arm's reach"));
    assert_eq!(
        wizard.key(Key::Down),
        Some(Request::Move(vec![Point::new(305.0, 0.0, 10.0)]))
    );
    wizard.arrived(Point::new(305.0, 0.0, 10.0));
    for key in [Key::Char('t'), Key::Char('c'), Key::Char('3'), Key::Enter] {
        assert_eq!(wizard.key(key), None);
    }
    assert!(
        wizard.message().contains("corner a1 is not taught"),
        "{}",
        wizard.message()
    );
}

#[test]
fn quitting_with_unsaved_points_asks_first() {
    let mut wizard = Wizard::new(8, None);
    assert_eq!(wizard.key(Key::Char('q')), Some(Request::Quit));
    record(&mut wizard, Point::new(300.0, -66.5, 10.0));
    assert_eq!(wizard.key(Key::Char('q')), None);
    assert!(wizard.message().contains("not saved"));
    assert_eq!(wizard.key(Key::Char('q')), Some(Request::Quit));
}

#[test]
fn an_existing_file_is_the_starting_point() {
    let example: hal::arm::CalibrationFile =
        toml::from_str(include_str!("../../../hal/data/calibration.example.toml")).unwrap();
    let wizard = Wizard::new(8, Some(example.clone()));
    let screen = wizard.screen();
    assert!(screen.contains("corner h8"), "{screen}");
    assert!(screen.contains("(x 167.0, y 66.5, z 10.0)"), "{screen}");
    // A file for another board size is not.
    let fresh = Wizard::new(10, Some(example));
    assert!(fresh.screen().contains("corner j10"));
    assert!(!fresh.screen().contains("(x 167.0, y 66.5, z 10.0)"));
}

#[test]
fn a_touched_square_that_is_off_can_be_taught_on_its_own() {
    let (mut wizard, _) = taught_example();
    assert_eq!(wizard.key(Key::Char('o')), None);
    assert!(wizard.message().contains("test-touch a square first"));
    for key in [Key::Char('t'), Key::Char('d'), Key::Char('4')] {
        assert_eq!(wizard.key(key), None);
    }
    let Some(Request::Move(path)) = wizard.key(Key::Enter) else {
        panic!("{}", wizard.screen());
    };
    // Over the travel height, down onto d4's interpolated centre, and up again.
    let example =
        Calibration::from_toml(include_str!("../../../hal/data/calibration.example.toml")).unwrap();
    let d4 = hal::arm::BoardSquare::parse("d4").unwrap();
    let interpolated = example.corners().centre(d4);
    assert_eq!(path[path.len() - 2], interpolated);
    assert_eq!(
        *path.last().unwrap(),
        interpolated.at_height(example.safe_z())
    );
    // The piece is 2 mm further forward: the operator jogs there and presses o.
    let actual = Point::new(interpolated.x + 2.0, interpolated.y, interpolated.z);
    wizard.arrived(actual);
    assert_eq!(wizard.key(Key::Char('o')), None);
    let saved = save(&mut wizard);
    assert_eq!(saved.square(d4), Some(actual));
    let c3 = hal::arm::BoardSquare::parse("c3").unwrap();
    assert_eq!(saved.square(c3), Some(example.corners().centre(c3)));
}

/// Presses `s`, which must offer the calibration for saving; what it saves.
fn save(wizard: &mut Wizard) -> Calibration {
    match wizard.key(Key::Char('s')) {
        Some(Request::Save(text)) => Calibration::from_toml(&text).unwrap(),
        _ => panic!("not offered for saving:\n{}", wizard.screen()),
    }
}

/// Presses `command` and answers its question with `text` and Enter.
fn answer(wizard: &mut Wizard, command: char, text: &str) {
    wizard.key(Key::Char(command));
    for c in text.chars() {
        wizard.key(Key::Char(c));
    }
    wizard.key(Key::Enter);
}

#[test]
fn the_rack_is_taught_with_its_size_and_saved_as_the_file_describes_it() {
    let (mut wizard, example) = taught_example();
    let rack = example
        .rack()
        .expect("the example has a rack")
        .section()
        .clone();
    while wizard.target() != Target::RackSlot(RackPoint::First) {
        wizard.key(Key::Tab);
    }
    assert!(wizard.screen().contains("press r"), "{}", wizard.screen());
    // A size or a width that is not one is refused, and nothing changes.
    answer(&mut wizard, 'r', "3y4");
    assert!(
        wizard.message().contains("not a rack's size"),
        "{}",
        wizard.message()
    );
    answer(&mut wizard, 'w', "1000");
    assert!(
        wizard.message().contains("not a piece's diameter"),
        "{}",
        wizard.message()
    );
    answer(&mut wizard, 'r', &format!("{}x{}", rack.rows, rack.columns));
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::First));
    record(&mut wizard, rack.first);
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::RowEnd));
    record(&mut wizard, rack.row_end.unwrap());
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::LastRow));
    record(&mut wizard, rack.last_row.unwrap());
    assert_eq!(wizard.target(), Target::KingSlot(0));
    let saved = save(&mut wizard);
    assert_eq!(saved.rack().unwrap().section(), &rack);
    assert_eq!(saved.rack(), example.rack());

    // A rack of one row needs no `last_row`, and the wizard stops asking for it.
    answer(&mut wizard, 'r', &format!("1x{}", rack.columns));
    assert!(
        !wizard.screen().contains("last row's"),
        "{}",
        wizard.screen()
    );
    assert_eq!(save(&mut wizard).rack().unwrap().len(), rack.columns);

    // `0`: no rack at all.
    answer(&mut wizard, 'r', "0");
    assert!(save(&mut wizard).rack().is_none());
}

#[test]
fn a_rack_without_its_size_or_on_the_board_is_refused_naming_what_to_teach() {
    let (mut wizard, example) = taught_example();
    let rack = example.rack().unwrap().section().clone();
    while wizard.target() != Target::RackSlot(RackPoint::First) {
        wizard.key(Key::Tab);
    }
    // Slot 1 taught before the size was given.
    record(&mut wizard, rack.first);
    assert_eq!(wizard.key(Key::Char('s')), None);
    assert!(
        wizard.message().contains("the rack's size is not given"),
        "{}",
        wizard.message()
    );
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::First));

    // Slot 1 on the board's a1: refused as the daemon would, the cursor back on slot 1.
    answer(&mut wizard, 'r', "1x1");
    record(&mut wizard, example.corners().corner(Corner::NearLeft));
    assert_eq!(wizard.key(Key::Char('s')), None);
    assert!(
        wizard.message().contains("lies on the board"),
        "{}",
        wizard.message()
    );
    assert_eq!(wizard.target(), Target::RackSlot(RackPoint::First));
    // Deleting slot 1 and saving asks for it again.
    wizard.key(Key::Char('x'));
    assert_eq!(wizard.key(Key::Char('s')), None);
    assert!(
        wizard.message().contains("rack slot 1 is not taught yet"),
        "{}",
        wizard.message()
    );
}
