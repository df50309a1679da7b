//! Kinematics of both arms: inverse and forward kinematics undo each other over the whole
//! joint space and workspace, the dependent wrist angle keeps the nozzle down, and points out
//! of reach say why.

use hal::arm::kinematics::{Magician, MagicianJoints, ReferenceArm, ReferenceJoints};
use hal::arm::{Kinematics, Point, Unreachable};
use proptest::prelude::*;

/// The round-trip tolerance the issue asks for, mm.
const TOLERANCE_MM: f64 = 0.01;

/// `steps + 1` evenly spaced values from `min` to `max`.
fn spread(min: f64, max: f64, steps: usize) -> impl Iterator<Item = f64> + Clone {
    (0..=steps).map(move |i| min + (max - min) * i as f64 / steps as f64)
}

/// IK(FK(q)) = q: the joints come back, and so does the tool position, within tolerance.
#[track_caller]
fn joints_round_trip<K: Kinematics>(arm: &K, joints: &K::Joints) {
    let tip = arm.forward(joints);
    let again = arm
        .inverse(tip)
        .unwrap_or_else(|why| panic!("{joints:?} reaches {tip}, which IK refuses: {why}"));
    assert!(
        arm.forward(&again).distance(tip) < TOLERANCE_MM,
        "{joints:?} -> {tip} -> {again:?}"
    );
    for (a, b) in K::angles(joints).iter().zip(K::angles(&again)) {
        // 0.001 deg moves the tool by at most 0.005 mm at the arm's full reach.
        assert!((a - b).abs() < 1e-3, "{joints:?} -> {tip} -> {again:?}");
    }
}

/// FK(IK(p)) = p wherever IK answers; returns whether it did.
#[track_caller]
fn point_round_trips<K: Kinematics>(arm: &K, point: Point) -> bool {
    match arm.inverse(point) {
        Ok(joints) => {
            let tip = arm.forward(&joints);
            assert!(
                tip.distance(point) < TOLERANCE_MM,
                "{point} -> {joints:?} -> {tip}"
            );
            true
        }
        Err(_) => false,
    }
}

fn magician_joint_grid(arm: &Magician) -> Vec<MagicianJoints> {
    let mut grid = Vec::new();
    for j1 in spread(arm.j1.min, arm.j1.max, 12) {
        for j2 in spread(arm.j2.min, arm.j2.max, 24) {
            for j3 in spread(arm.j3.min, arm.j3.max, 24) {
                if arm.elbow.contains(90.0 - j2 + j3) {
                    grid.push(MagicianJoints {
                        j1,
                        j2,
                        j3,
                        j4: 0.0,
                    });
                }
            }
        }
    }
    grid
}

fn reference_joint_grid(arm: &ReferenceArm) -> Vec<ReferenceJoints> {
    let mut grid = Vec::new();
    for theta0 in spread(arm.theta0.min, arm.theta0.max, 12) {
        for theta1 in spread(arm.theta1.min, arm.theta1.max, 24) {
            for theta2 in spread(arm.theta2.min, arm.theta2.max, 24) {
                if arm.elbow.contains(theta2 - theta1) {
                    grid.push(ReferenceJoints::new(theta0, theta1, theta2));
                }
            }
        }
    }
    grid
}

#[test]
fn magician_ik_undoes_fk_over_the_joint_space() {
    let arm = Magician::default();
    let grid = magician_joint_grid(&arm);
    assert!(grid.len() > 5000);
    for joints in &grid {
        joints_round_trip(&arm, joints);
    }
}

#[test]
fn reference_ik_undoes_fk_over_the_joint_space() {
    let arm = ReferenceArm::default();
    let grid = reference_joint_grid(&arm);
    assert!(grid.len() > 5000);
    for joints in &grid {
        joints_round_trip(&arm, joints);
        assert!((joints.nozzle_direction() - 270.0).abs() < 1e-12);
    }
}

/// A grid of points over a box that holds the whole workspace: every point IK answers comes
/// back through FK, and the answered part is the board-sized annulus the docs describe.
#[test]
fn fk_undoes_ik_over_the_workspace() {
    let magician = Magician::default();
    let reference = ReferenceArm::default();
    let (mut magician_reached, mut reference_reached) = (0, 0);
    for x in spread(-350.0, 350.0, 70) {
        for y in spread(-350.0, 350.0, 70) {
            for z in spread(-100.0, 300.0, 40) {
                let point = Point::new(x, y, z);
                magician_reached += usize::from(point_round_trips(&magician, point));
                reference_reached += usize::from(point_round_trips(&reference, point));
            }
        }
    }
    assert!(magician_reached > 10_000, "{magician_reached}");
    assert!(reference_reached > 10_000, "{reference_reached}");
    // A board on the table (z = 10) reaches from about 160 to 317 mm out.
    assert!(magician.reachable(Point::new(165.0, 0.0, 10.0)));
    assert!(magician.reachable(Point::new(310.0, 0.0, 10.0)));
    assert!(!magician.reachable(Point::new(140.0, 0.0, 10.0)));
    assert!(!magician.reachable(Point::new(330.0, 0.0, 10.0)));
}

#[test]
fn the_magician_matches_hand_computed_poses() {
    let arm = Magician::default();
    // Rear arm upright, forearm level: the tip is the forearm plus the tool ahead of the
    // shoulder, and the rear arm's length above it, less the tool's drop.
    let upright = arm.forward(&MagicianJoints::default());
    assert!(upright.distance(Point::new(147.0 + 60.0, 0.0, 139.0 + 135.0 - 60.0)) < 1e-9);
    // Base turned by 90 deg: the same reach along y.
    let turned = arm.forward(&MagicianJoints {
        j1: 90.0,
        ..MagicianJoints::default()
    });
    assert!(turned.distance(Point::new(0.0, 207.0, 214.0)) < 1e-9);
    // The firmware pose keeps the tool unturned: r equals the base angle.
    let pose = arm.pose_for(Point::new(200.0, 200.0, 10.0));
    assert!((pose.r - 45.0).abs() < 1e-5);
}

#[test]
fn unreachable_points_say_why() {
    let arm = Magician::default();
    assert!(matches!(
        arm.inverse(Point::new(500.0, 0.0, 100.0)),
        Err(Unreachable::TooFar { .. })
    ));
    assert!(matches!(
        arm.inverse(Point::new(0.0, 0.0, 100.0)),
        Err(Unreachable::OnBaseAxis)
    ));
    // Behind the base, beyond J1's +/-135 deg.
    assert!(matches!(
        arm.inverse(Point::new(-200.0, -10.0, 50.0)),
        Err(Unreachable::JointLimit { joint: "J1", .. })
    ));
    // Close in and low: the rear arm would have to lean past 85 deg.
    let error = arm.inverse(Point::new(150.0, 0.0, -20.0)).unwrap_err();
    assert!(error.to_string().contains("outside its range"), "{error}");
}

proptest! {
    #[test]
    fn magician_round_trips_anywhere_in_its_limits(
        j1 in -135.0f64..135.0, j2 in 0.0f64..85.0, j3 in -10.0f64..95.0,
    ) {
        let arm = Magician::default();
        prop_assume!(arm.elbow.contains(90.0 - j2 + j3));
        joints_round_trip(&arm, &MagicianJoints { j1, j2, j3, j4: 0.0 });
    }

    #[test]
    fn reference_round_trips_anywhere_in_its_limits(
        theta0 in -90.0f64..90.0, theta1 in -95.0f64..10.0, theta2 in 5.0f64..90.0,
    ) {
        let arm = ReferenceArm::default();
        prop_assume!(arm.elbow.contains(theta2 - theta1));
        joints_round_trip(&arm, &ReferenceJoints::new(theta0, theta1, theta2));
    }

    #[test]
    fn points_round_trip_where_reachable(
        x in -350.0f64..350.0, y in -350.0f64..350.0, z in -100.0f64..300.0,
    ) {
        let point = Point::new(x, y, z);
        point_round_trips(&Magician::default(), point);
        point_round_trips(&ReferenceArm::default(), point);
    }
}
