//! Plans for every capture shape in `data/capture_shapes.txt`, on boards of every size: each
//! captured piece goes to the bin exactly once, the tool only goes below the travel height
//! straight up and down, the arm ends at the park pose, crowning takes a spare king or asks the
//! visitor, and the optimised order is never slower than the path order.

use hal::arm::{
    ArmStep, BoardSquare, Calibration, CaptureOrder, DobotStep, JointStep, Kinematics, KingReserve,
    Magician, PieceKind, Plan, RobotMove, Spot, plan_move,
};
use hal::device::Motion;
use rules::{Variant, fen, notation};

use crate::planner_rig::robot_move;

const EXAMPLE: &str = include_str!("../../data/calibration.example.toml");
const SHAPES: &str = include_str!("../data/capture_shapes.txt");

/// The example calibration on a board of `side` squares: the same corners, smaller squares.
fn calibration(side: usize) -> Calibration {
    let last = side.to_string();
    let far_file = char::from(b'a' + side as u8 - 1).to_string();
    let text = EXAMPLE
        .replace("side = 8", &format!("side = {side}"))
        .replace("h1 = ", &format!("{far_file}1 = "))
        .replace("a8 = ", &format!("a{last} = "))
        .replace("h8 = ", &format!("{far_file}{last} = "))
        .replace("d4 = { x = 243.5, y = -9.0, z = 10.0 }", "");
    Calibration::from_toml(&text).unwrap()
}

/// Every move of the data file with the line it came from.
fn shapes() -> Vec<(String, RobotMove)> {
    SHAPES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let variant: Variant = fields[0].parse().unwrap();
            let position = fen::parse(variant, fields[1]).unwrap();
            let mv = notation::parse_move(&position, fields[2])
                .unwrap_or_else(|error| panic!("{line}: {error}"));
            (line.to_owned(), robot_move(&position, &mv))
        })
        .collect()
}

fn side_of(line: &str) -> usize {
    match line.split('|').next().unwrap().trim() {
        "international" => 10,
        "canadian" => 12,
        _ => 8,
    }
}

/// Where the plan picks from a spot matching `from` and at once puts down on one matching `to`.
fn carry(plan: &Plan, from: impl Fn(Spot) -> bool, to: impl Fn(Spot) -> bool) -> Option<usize> {
    plan.steps().windows(2).position(|pair| match pair {
        [
            ArmStep::Pick { spot: a, .. },
            ArmStep::Release { spot: b, .. },
        ] => from(*a) && to(*b),
        _ => false,
    })
}

/// The checks every plan must pass.
#[track_caller]
fn check_plan(
    line: &str,
    calibration: &Calibration,
    mv: &RobotMove,
    plan: &Plan,
    reserve: &KingReserve,
) {
    let safe_z = calibration.safe_z();
    // Each captured square is cleared exactly once, and so is the start square of a man
    // swapped for a spare king.
    let mut expected: Vec<BoardSquare> = mv.captured.iter().map(|&(square, _)| square).collect();
    let swaps = mv.promotes && reserve.next_slot().is_some();
    if swaps {
        expected.push(mv.from);
    }
    let mut cleared = plan.cleared_squares();
    expected.sort_unstable();
    cleared.sort_unstable();
    assert_eq!(cleared, expected, "{line}");

    // Picks and releases alternate, starting with a pick.
    let mut holding = false;
    for step in plan.steps() {
        match step {
            ArmStep::Pick { .. } => {
                assert!(!holding, "{line}: picks while holding a piece");
                holding = true;
            }
            ArmStep::Release { .. } => {
                assert!(holding, "{line}: releases with nothing held");
                holding = false;
            }
            _ => assert!(!holding, "{line}: parks or stops holding a piece"),
        }
    }

    // The own piece goes from its square to its landing, unless it ends where it started or
    // is swapped for a king.
    let own = carry(
        plan,
        |s| s == Spot::Square(mv.from),
        |s| s == Spot::Square(mv.to),
    );
    assert_eq!(
        own.is_some(),
        mv.from != mv.to && !swaps,
        "{line}: own piece"
    );

    // Crowning: a spare king onto the landing square (once the man left it), or the visitor.
    let king = carry(
        plan,
        |s| matches!(s, Spot::KingSlot(_)),
        |s| s == Spot::Square(mv.to),
    );
    let man_out = carry(
        plan,
        |s| s == Spot::Square(mv.from),
        |s| matches!(s, Spot::Bin(_)),
    );
    assert_eq!(king.is_some(), swaps, "{line}: spare king");
    assert_eq!(
        plan.king_slot(),
        if swaps { reserve.next_slot() } else { None }
    );
    assert_eq!(
        man_out.is_some(),
        swaps,
        "{line}: the crowned man goes to the bin"
    );
    if let (Some(king), Some(man_out), true) = (king, man_out, mv.from == mv.to) {
        assert!(
            man_out < king,
            "{line}: the king goes down before the man is out"
        );
    }
    assert_eq!(
        plan.visitor_crowns(),
        (mv.promotes && !swaps).then_some(mv.to),
        "{line}: visitor crowns"
    );

    // Below the travel height the tool only moves straight up or down.
    let segments = plan.segments();
    for segment in &segments {
        let travelling = segment.from.z >= safe_z - 1e-9 && segment.to.z >= safe_z - 1e-9;
        assert!(
            segment.is_vertical() || travelling,
            "{line}: {segment:?} crosses below the safe height {safe_z}"
        );
    }
    // From the park pose, back to it.
    assert_eq!(segments.first().unwrap().from, calibration.park(), "{line}");
    assert_eq!(segments.last().unwrap().to, calibration.park(), "{line}");
    assert!(matches!(
        plan.steps()
            .iter()
            .rfind(|step| !matches!(step, ArmStep::AskVisitorToCrown { .. })),
        Some(ArmStep::Park { .. })
    ));
}

#[test]
fn every_capture_shape_is_planned_safely_in_both_orders() {
    let boards = [8, 10, 12].map(|side| (side, calibration(side)));
    let shapes = shapes();
    assert!(shapes.len() >= 20);
    for reserve in [KingReserve::full(4), KingReserve::empty()] {
        for (line, mv) in &shapes {
            let (_, calibration) = boards
                .iter()
                .find(|(side, _)| *side == side_of(line))
                .unwrap();
            let motion = calibration.motion();
            let shortest = plan_move(
                calibration,
                mv,
                &reserve,
                CaptureOrder::Shortest,
                calibration.motion(),
            )
            .unwrap();
            let path = plan_move(
                calibration,
                mv,
                &reserve,
                CaptureOrder::PathOrder,
                calibration.motion(),
            )
            .unwrap();
            check_plan(line, calibration, mv, &shortest, &reserve);
            check_plan(line, calibration, mv, &path, &reserve);
            assert!(
                shortest.duration_s(motion) <= path.duration_s(motion) + 1e-9,
                "{line}: the optimised order is slower"
            );
        }
    }
}

#[test]
fn the_optimised_order_saves_time_on_long_captures() {
    let calibration = calibration(12);
    let (line, mv) = shapes()
        .into_iter()
        .find(|(_, mv)| mv.captured.len() >= 6)
        .unwrap();
    let reserve = KingReserve::full(4);
    let time = |order| {
        plan_move(&calibration, &mv, &reserve, order, calibration.motion())
            .unwrap()
            .duration_s(calibration.motion())
    };
    let (shortest, path) = (time(CaptureOrder::Shortest), time(CaptureOrder::PathOrder));
    assert!(shortest < path, "{line}: {shortest} s vs {path} s");
}

#[test]
fn the_dobot_gets_one_jump_per_pick_place_and_park() {
    let calibration = calibration(8);
    let arm = Magician::default();
    for (line, mv) in shapes().iter().filter(|(line, _)| side_of(line) == 8) {
        let plan = plan_move(
            &calibration,
            mv,
            &KingReserve::full(1),
            CaptureOrder::Shortest,
            calibration.motion(),
        )
        .unwrap();
        let commands = plan.for_dobot(&arm);
        let moves: Vec<_> = commands
            .iter()
            .filter_map(|command| match command {
                DobotStep::Move { target, motion } => Some((*target, *motion)),
                _ => None,
            })
            .collect();
        let grips = plan
            .steps()
            .iter()
            .filter(|step| matches!(step, ArmStep::Pick { .. } | ArmStep::Release { .. }))
            .count();
        assert_eq!(moves.len(), grips + 1, "{line}");
        assert!(moves.iter().all(|(_, motion)| *motion == Motion::Jump));
        let suction: Vec<bool> = commands
            .iter()
            .filter_map(|command| match command {
                DobotStep::Suction(on) => Some(*on),
                _ => None,
            })
            .collect();
        assert!(
            suction.chunks(2).all(|pair| pair == [true, false]),
            "{line}"
        );
        let park = moves.last().unwrap().0;
        assert!((f64::from(park.x) - calibration.park().x).abs() < 1e-4);
        // Each pose leaves the tool unturned: r is the base angle.
        for (pose, _) in &moves {
            let base = f64::from(pose.y).atan2(f64::from(pose.x)).to_degrees();
            assert!((f64::from(pose.r) - base).abs() < 1e-3);
        }
    }
}

/// Joint targets reproduce the plan's path through forward kinematics, and the hops between
/// them, each joint moving straight to its target, stay at the travel height.
#[test]
fn joint_targets_follow_the_plan_at_the_travel_height() {
    let text = EXAMPLE.replace("model = \"magician\"", "model = \"reference\"");
    let calibration = Calibration::from_toml(&text).unwrap();
    let hal::arm::ArmModel::Reference(arm) = *calibration.arm() else {
        panic!("the reference arm")
    };
    for (line, mv) in shapes().iter().filter(|(line, _)| side_of(line) == 8) {
        let plan = plan_move(
            &calibration,
            mv,
            &KingReserve::full(4),
            CaptureOrder::Shortest,
            calibration.motion(),
        )
        .unwrap();
        let targets: Vec<_> = plan
            .for_joints(&arm)
            .unwrap()
            .into_iter()
            .filter_map(|step| match step {
                JointStep::Move(joints) => Some(joints),
                _ => None,
            })
            .collect();
        let last = arm.forward(targets.last().unwrap());
        assert!(last.distance(calibration.park()) < 0.01, "{line}");
        for pair in targets.windows(2) {
            let (a, b) = (arm.forward(&pair[0]), arm.forward(&pair[1]));
            if (a.z - calibration.safe_z()).abs() > 1e-6
                || (b.z - calibration.safe_z()).abs() > 1e-6
            {
                continue;
            }
            for i in 1..10 {
                let t = f64::from(i) / 10.0;
                let between = hal::arm::kinematics::ReferenceJoints::new(
                    pair[0].theta0 + (pair[1].theta0 - pair[0].theta0) * t,
                    pair[0].theta1 + (pair[1].theta1 - pair[0].theta1) * t,
                    pair[0].theta2 + (pair[1].theta2 - pair[0].theta2) * t,
                );
                let z = arm.forward(&between).z;
                assert!(z > calibration.safe_z() - 0.05, "{line}: dips to z {z}");
            }
        }
    }
}

#[test]
fn a_spare_king_is_used_in_slot_order_until_none_is_left() {
    let calibration = calibration(8);
    let position = fen::parse(Variant::Russian, "W:Wc7,Kh2:Bh6").unwrap();
    let mv = robot_move(
        &position,
        &notation::parse_move(&position, "c7-d8").unwrap(),
    );
    let mut reserve = KingReserve::full(2);
    for slot in [Some(0), Some(1), None] {
        let plan = plan_move(
            &calibration,
            &mv,
            &reserve,
            CaptureOrder::Shortest,
            calibration.motion(),
        )
        .unwrap();
        assert_eq!(plan.king_slot(), slot);
        assert_eq!(plan.visitor_crowns().is_some(), slot.is_none());
        assert_eq!(reserve.take(), slot);
    }
    assert_eq!(reserve.remaining(), 0);
    reserve.refill();
    assert_eq!(reserve.next_slot(), Some(0));
}

#[test]
fn moves_off_the_board_or_capturing_twice_are_refused() {
    let calibration = calibration(8);
    let reserve = KingReserve::full(1);
    let base = RobotMove {
        from: BoardSquare::new(2, 2),
        to: BoardSquare::new(4, 4),
        mover: PieceKind::Man,
        captured: vec![(BoardSquare::new(3, 3), PieceKind::Man)],
        promotes: false,
    };
    assert!(
        plan_move(
            &calibration,
            &base,
            &reserve,
            CaptureOrder::Shortest,
            calibration.motion()
        )
        .is_ok()
    );
    let off = RobotMove {
        to: BoardSquare::new(8, 8),
        ..base.clone()
    };
    assert!(
        plan_move(
            &calibration,
            &off,
            &reserve,
            CaptureOrder::Shortest,
            calibration.motion()
        )
        .is_err()
    );
    let light = RobotMove {
        to: BoardSquare::new(4, 5),
        ..base.clone()
    };
    assert!(
        plan_move(
            &calibration,
            &light,
            &reserve,
            CaptureOrder::Shortest,
            calibration.motion()
        )
        .is_err()
    );
    let twice = RobotMove {
        captured: vec![(BoardSquare::new(3, 3), PieceKind::Man); 2],
        ..base
    };
    assert!(
        plan_move(
            &calibration,
            &twice,
            &reserve,
            CaptureOrder::Shortest,
            calibration.motion()
        )
        .is_err()
    );
}
