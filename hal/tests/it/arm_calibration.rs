//! The calibration file: the documented example loads and round-trips, square centres are
//! interpolated exactly, and every kind of bad input is refused with a message that names the
//! point at fault and the fix.

use hal::arm::{
    BoardCorners, BoardSquare, Calibration, Corner, Layout, PieceKind, Point, ResetError,
    ResetOrder, Stock, plan_reset,
};

const EXAMPLE: &str = include_str!("../../data/calibration.example.toml");

/// The example with one piece of text replaced, which must be there.
fn edited(from: &str, to: &str) -> String {
    assert!(EXAMPLE.contains(from), "the example has no {from:?}");
    EXAMPLE.replacen(from, to, 1)
}

/// Loading `input` fails with a message containing every one of `expected`.
#[track_caller]
fn check(input: &str, expected: &[&str]) {
    let message = match Calibration::from_toml(input) {
        Ok(_) => panic!("accepted a calibration that should fail with {expected:?}"),
        Err(error) => error.to_string(),
    };
    for fragment in expected {
        assert!(
            message.contains(fragment),
            "message {message:?} lacks {fragment:?}"
        );
    }
}

#[test]
fn the_example_loads_and_round_trips() {
    let calibration = Calibration::from_toml(EXAMPLE).unwrap();
    assert_eq!(calibration.side(), 8);
    assert_eq!(calibration.bins().len(), 2);
    assert_eq!(calibration.king_slots().len(), 4);
    assert!(calibration.unreachable_points().is_empty());
    let again = Calibration::from_toml(&calibration.to_toml()).unwrap();
    assert_eq!(again, calibration);
}

#[test]
fn squares_are_the_taught_corners_overrides_and_blends() {
    let calibration = Calibration::from_toml(EXAMPLE).unwrap();
    let square = |name: &str| {
        calibration
            .square(BoardSquare::parse(name).unwrap())
            .unwrap()
    };
    assert_eq!(square("a1"), Point::new(300.0, -66.5, 10.0));
    assert_eq!(square("h8"), Point::new(167.0, 66.5, 10.0));
    assert_eq!(square("d4"), Point::new(243.5, -9.0, 10.0), "the override");
    let c3 = square("c3");
    assert!((c3.x - 262.0).abs() < 1e-9 && (c3.y + 28.5).abs() < 1e-9);
    let king = calibration
        .grip(BoardSquare::parse("c3").unwrap(), PieceKind::King)
        .unwrap();
    assert!(
        (king.z - 15.0).abs() < 1e-9,
        "a king is gripped 5 mm higher"
    );
    assert_eq!(calibration.square(BoardSquare::new(8, 0)), None);
    assert_eq!(calibration.dark_squares().count(), 32);
}

/// A board laid by a known rigid motion with a tilted table: every centre the corners imply
/// must come out exactly, for every board size.
#[test]
fn interpolation_is_exact_on_a_synthetic_board() {
    for side in [8usize, 10, 12] {
        let pitch = 17.5;
        let (sin, cos) = 0.4f64.sin_cos();
        let laid = |row: usize, col: usize| {
            let (u, v) = (col as f64 * pitch, row as f64 * pitch);
            Point::new(
                150.0 + u * cos - v * sin,
                -80.0 + u * sin + v * cos,
                12.0 + 0.03 * u - 0.02 * v,
            )
        };
        let last = side - 1;
        let board = BoardCorners::new(
            side,
            [laid(0, 0), laid(0, last), laid(last, 0), laid(last, last)],
        )
        .unwrap();
        for row in 0..side {
            for col in 0..side {
                let centre = board.centre(BoardSquare::new(row as u8, col as u8));
                assert!(
                    centre.distance(laid(row, col)) < 1e-9,
                    "{side}x{side} square ({row}, {col}): {centre} instead of {}",
                    laid(row, col)
                );
            }
        }
    }
}

/// On a board that is not a parallelogram (corners taught a little off), each corner stays
/// where it was taught and the centre is the mean of the four.
#[test]
fn interpolation_keeps_the_taught_corners_of_a_skewed_board() {
    let corners = [
        Point::new(300.0, -66.0, 10.0),
        Point::new(302.0, 67.0, 11.0),
        Point::new(167.0, -65.0, 9.0),
        Point::new(166.0, 66.0, 10.5),
    ];
    let board = BoardCorners::new(8, corners).unwrap();
    for (corner, taught) in Corner::ALL.into_iter().zip(corners) {
        assert_eq!(board.centre(corner.square(8)), taught);
    }
    // The board's middle is the mean of the four squares around it, and of the four corners.
    let middle =
        [(3, 3), (3, 4), (4, 3), (4, 4)].map(|(row, col)| board.centre(BoardSquare::new(row, col)));
    let mean = |points: &[Point], axis: fn(&Point) -> f64| {
        points.iter().map(axis).sum::<f64>() / points.len() as f64
    };
    for axis in [|p: &Point| p.x, |p: &Point| p.y, |p: &Point| p.z] {
        assert!((mean(&middle, axis) - mean(&corners, axis)).abs() < 1e-9);
    }
}

#[test]
fn a_missing_corner_is_named_with_where_to_find_it() {
    check(
        &edited("h8 = { x = 167.0, y = 66.5, z = 10.0 }\n", ""),
        &[
            "corner h8",
            "far corner on White's right",
            "is missing",
            "record it",
        ],
    );
}

#[test]
fn corners_of_another_board_size_are_refused() {
    check(
        &edited("side = 8", "side = 10"),
        &[
            "`a8`",
            "not a corner of the 10x10 board",
            "a1, j1, a10, j10",
        ],
    );
    check(
        &edited("side = 8", "side = 9"),
        &["side = 9", "use 8, 10 or 12"],
    );
}

#[test]
fn two_swapped_corners_are_named() {
    let swapped = edited("a8 = { x = 167.0, y = -66.5", "a8 = { x = 167.0, y = 66.5");
    let swapped = swapped.replacen(
        "h8 = { x = 167.0, y = 66.5",
        "h8 = { x = 167.0, y = -66.5",
        1,
    );
    check(
        &swapped,
        &[
            "corners a8 and h8 look swapped",
            "re-teach a8 at the far corner on White's left",
        ],
    );
    let swapped = edited("a1 = { x = 300.0, y = -66.5", "a1 = { x = 300.0, y = 66.5");
    let swapped = swapped.replacen(
        "h1 = { x = 300.0, y = 66.5",
        "h1 = { x = 300.0, y = -66.5",
        1,
    );
    check(&swapped, &["corners a1 and h1 look swapped"]);
}

#[test]
fn a_mirrored_board_is_refused() {
    // Taught as seen from Black's side: left and right exchanged on both ranks.
    let mirrored = edited("a1 = { x = 300.0, y = -66.5", "a1 = { x = 300.0, y = 66.5")
        .replacen(
            "h1 = { x = 300.0, y = 66.5",
            "h1 = { x = 300.0, y = -66.5",
            1,
        )
        .replacen(
            "a8 = { x = 167.0, y = -66.5",
            "a8 = { x = 167.0, y = 66.5",
            1,
        )
        .replacen(
            "h8 = { x = 167.0, y = 66.5",
            "h8 = { x = 167.0, y = -66.5",
            1,
        );
    check(
        &mirrored,
        &[
            "the board is mirrored",
            "a1 must be White's left corner",
            "swap a1 with h1 and a8 with h8",
        ],
    );
}

#[test]
fn a_degenerate_board_is_refused() {
    // A corner recorded twice.
    check(
        &edited("h1 = { x = 300.0, y = 66.5", "h1 = { x = 300.0, y = -66.0"),
        &[
            "corners a1 and h1 are only 0.5 mm apart",
            "re-teach a1 and h1",
        ],
    );
    // Three corners on one line.
    check(
        &edited("a8 = { x = 167.0, y = -66.5", "a8 = { x = 290.0, y = 160.0"),
        &["corners a1, h1 and a8 lie almost on one line"],
    );
    // Not a parallelogram by far, and no swap makes one.
    check(
        &edited("h8 = { x = 167.0, y = 66.5", "h8 = { x = 230.0, y = 0.0"),
        &["the corners do not form a board", "h8 is"],
    );
}

#[test]
fn unreachable_points_are_each_named() {
    check(
        &edited("[[bins]]\nx = 210.0", "[[bins]]\nx = 420.0"),
        &[
            "out of the arm's reach",
            "bin 1 (x 420.0",
            "beyond the arm's reach",
            "Move the board",
        ],
    );
    // The whole board too far out: the far rank's squares are named, each once (its own
    // point, not also the points above it or with a king).
    let far = edited("a1 = { x = 300.0", "a1 = { x = 330.0")
        .replacen("h1 = { x = 300.0", "h1 = { x = 330.0", 1)
        .replacen("d4 = { x = 243.5", "d4 = { x = 260.0", 1);
    check(
        &far,
        &[
            "square a1 (x 330.0",
            "square c1 (x 330.0",
            "square e1 (x 330.0",
            "square g1 (x 330.0",
        ],
    );
    let message = Calibration::from_toml(&far).unwrap_err().to_string();
    assert_eq!(message.matches("square a1").count(), 1, "{message}");
    // Too close to the base, where the rear arm would have to lean back.
    check(
        &edited(
            "x = 200.0\ny = 0.0\nz = 80.0",
            "x = 20.0\ny = 0.0\nz = 80.0",
        ),
        &["the park pose", "J2"],
    );
}

#[test]
fn a_travel_height_too_low_is_refused() {
    check(
        &edited("safe_z = 40.0", "safe_z = 5.0"),
        &[
            "safe_z = 5.0 mm is below the board",
            "square a1 is at z 10.0",
            "at least 30.0 mm",
        ],
    );
    check(
        &edited("safe_z = 40.0", "safe_z = 25.0"),
        &[
            "safe_z = 25.0 mm is too low",
            "a king carried over square a1",
            "at least 30.0 mm",
        ],
    );
}

/// The example without its `[rack]` table: a file written before the rack existed.
pub fn without_rack(text: &str) -> String {
    let start = text.find("[rack]\n").expect("the example has a rack");
    let end = start
        + text[start..]
            .find("\n\n")
            .expect("a blank line ends the table");
    format!("{}{}", &text[..start], &text[end + 2..])
}

/// The example without its bins.
fn without_bins(text: &str) -> String {
    text.replace("[[bins]]\nx = 210.0\ny = 170.0\nz = 30.0\n", "")
        .replace("[[bins]]\nx = 250.0\ny = 170.0\nz = 30.0\n", "")
}

#[test]
fn the_rack_is_a_grid_of_slots_between_three_taught_ones() {
    let calibration = Calibration::from_toml(EXAMPLE).unwrap();
    let rack = calibration.rack().expect("the example has a rack");
    assert_eq!(rack.len(), 24);
    let slot = |i: usize| rack.slots()[i];
    assert_eq!(slot(0), Point::new(150.0, 92.0, 10.0));
    assert_eq!(slot(7), Point::new(283.0, 92.0, 10.0), "row 1's last slot");
    assert_eq!(
        slot(16),
        Point::new(150.0, 130.0, 10.0),
        "row 3's first slot"
    );
    let last = slot(23);
    assert!((last.x - 283.0).abs() < 1e-9 && (last.y - 130.0).abs() < 1e-9);
    let middle = slot(9);
    assert!((middle.x - 169.0).abs() < 1e-9 && (middle.y - 111.0).abs() < 1e-9);
    assert_eq!(rack.name(9).to_string(), "10 (row 2, column 2)");
    let king = calibration.rack_grip(9, PieceKind::King).unwrap();
    assert!(
        (king.z - 15.0).abs() < 1e-9,
        "a king is gripped 5 mm higher"
    );
    assert_eq!(calibration.rack_grip(24, PieceKind::Man), None);
    assert!(
        calibration
            .named_points()
            .iter()
            .any(|(name, _)| name == "[rack] slot 24 (row 3, column 8) holding a king")
    );
}

#[test]
fn a_file_without_a_rack_still_loads_and_cannot_reset() {
    let old = without_rack(EXAMPLE);
    let calibration = Calibration::from_toml(&old).unwrap();
    assert!(calibration.rack().is_none());
    assert!(!calibration.to_toml().contains("[rack]"));
    let error = plan_reset(
        &calibration,
        &Layout::new(),
        &Stock::empty(0, 4),
        &Layout::new(),
        ResetOrder::Shortest,
        calibration.motion(),
    )
    .unwrap_err();
    assert_eq!(error, ResetError::NoRack);
    let message = error.to_string();
    assert!(message.contains("no [rack]"), "{message}");
    assert!(message.contains("checkerbot calibrate"), "{message}");
    // With a rack, the bins may go; without either, captured pieces have nowhere to go.
    assert!(Calibration::from_toml(&without_bins(EXAMPLE)).is_ok());
    check(
        &without_bins(&old),
        &["no trophy-bin drop point and no rack", "[[bins]]", "[rack]"],
    );
}

#[test]
fn rack_mistakes_are_refused_naming_the_setting() {
    // Eight columns over 49 mm: 7 mm apart, for 16 mm pieces.
    check(
        &edited("row_end = { x = 283.0", "row_end = { x = 199.0"),
        &[
            "[rack] slots 1 (row 1, column 1) and 2 (row 1, column 2)",
            "7.0 mm apart",
            "16.0 mm ([pieces] diameter_mm)",
            "`row_end`",
            "`columns`",
        ],
    );
    check(
        &edited(
            "last_row = { x = 150.0, y = 130.0",
            "last_row = { x = 150.0, y = 110.0",
        ),
        &[
            "slots 1 (row 1, column 1) and 9 (row 2, column 1)",
            "`last_row`",
            "`rows`",
        ],
    );
    // Without a measured diameter a piece is as wide as the squares are apart (19 mm).
    check(
        &edited("diameter_mm = 16.0\n", "")
            .replace("row_end = { x = 283.0", "row_end = { x = 276.0"),
        &["18.0 mm apart", "19.0 mm", "square pitch", "diameter_mm"],
    );
    check(
        &edited("diameter_mm = 16.0", "diameter_mm = 0.0"),
        &["[pieces] diameter_mm = 0", "positive"],
    );
    check(
        &edited(
            "first = { x = 150.0, y = 92.0",
            "first = { x = 150.0, y = 70.0",
        ),
        &[
            "[rack] slot 1 (row 1, column 1)",
            "lies on the board",
            "over square",
        ],
    );
    check(
        &edited("row_end = { x = 283.0", "row_end = { x = 383.0"),
        &[
            "out of the arm's reach",
            "[rack] slot 8 (row 1, column 8)",
            "rack",
        ],
    );
    check(
        &edited("row_end = { x = 283.0, y = 92.0, z = 10.0 }\n", ""),
        &[
            "[rack] has 8 columns but no `row_end`",
            "last slot of the first row",
        ],
    );
    check(
        &edited("rows = 3", "rows = 0"),
        &["[rack] rows = 0 and columns = 8", "count the rack's rows"],
    );
    check(
        &edited(
            "first = { x = 150.0, y = 92.0, z = 10.0 }",
            "first = { x = 150.0, y = 92.0, z = 30.0 }",
        ),
        &[
            "safe_z = 40.0 mm is too low",
            "[rack] slot 1 (row 1, column 1)",
        ],
    );
}

#[test]
fn other_mistakes_are_refused() {
    check(
        &edited("d4 = { x", "d5 = { x"),
        &["`d5`", "not a dark square of the 8x8 board"],
    );
    check(
        &edited("king_mm = 10.0", "king_mm = 3.0"),
        &["[pieces]", "king at least as tall"],
    );
    check(
        &edited("version = 1", "version = 2"),
        &["version 2 is not supported"],
    );
    check(
        &edited("safe_z = 40.0", "safe_height = 40.0"),
        &["cannot be read", "safe_height"],
    );
    check(
        &edited("speed_mm_s = 200.0", "speed_mm_s = 0.0"),
        &["[motion]"],
    );
}

#[test]
fn the_reference_arm_is_checked_with_its_own_kinematics() {
    let reference = edited("model = \"magician\"", "model = \"reference\"");
    assert!(Calibration::from_toml(&reference).is_ok());
    // A park pose close in and high: the Magician folds enough, the reference arm does not.
    let close_park = |text: &str| {
        text.replacen(
            "x = 200.0\ny = 0.0\nz = 80.0",
            "x = 150.0\ny = 0.0\nz = 80.0",
            1,
        )
    };
    assert!(Calibration::from_toml(&close_park(EXAMPLE)).is_ok());
    check(
        &close_park(&reference),
        &["1 calibrated point(s)", "the park pose (x 150.0", "theta"],
    );
}

#[test]
fn a_lift_to_the_travel_height_through_the_parallelograms_limit_is_refused() {
    // A reference arm whose upper arm may lean back to 120 deg but whose links open at most
    // 158.4 deg: straight above a spot 110 mm from the base axis the angle between them grows
    // to 158.6 deg at z 31 and shrinks again, so the spot (z 10, 157.2 deg) and the point
    // above it at the travel height (z 40, 158.25 deg) are both in reach, the lift between
    // them is not: the driver would send the tool to z 30 on the way up.
    let arm = edited(
        "model = \"magician\"",
        "model = \"reference\"\ntheta2 = { min = 5.0, max = 120.0 }\n\
         elbow = { min = 5.0, max = 158.4 }",
    );
    assert!(Calibration::from_toml(&arm).is_ok());
    let near_bin = format!("{arm}\n[[bins]]\nx = 77.8\ny = 77.8\nz = 10.0\n");
    check(
        &near_bin,
        &[
            "the arm's path leaves its reach at 1 point(s)",
            "lifting from bin 3 to the safe height (x 77.8, y 77.8, z 30.0)",
            "the elbow (theta2 - theta1)",
            "outside its range 5..158.4 deg",
        ],
    );
}

#[test]
fn the_arm_can_be_corrected_in_the_file() {
    // A rear arm that may only lean 40 deg forward cannot reach the far rank.
    check(
        &edited(
            "model = \"magician\"",
            "model = \"magician\"\nj2 = { min = 0.0, max = 40.0 }",
        ),
        &["square a1", "needs J2 at", "outside its range 0..40 deg"],
    );
    // A longer tool reaches further down, which the same board does not mind.
    let longer_tool = edited(
        "model = \"magician\"",
        "model = \"magician\"\n[arm.dimensions]\nupper_arm_mm = 135.0\nforearm_mm = 147.0\n\
         shoulder_height_mm = 139.0\ntool_forward_mm = 60.0\ntool_drop_mm = 70.0",
    );
    let calibration = Calibration::from_toml(&longer_tool).unwrap();
    let hal::arm::ArmModel::Magician(arm) = calibration.arm() else {
        panic!("a Magician")
    };
    assert!((arm.dimensions.tool_drop_mm - 70.0).abs() < f64::EPSILON);
    check(
        &edited(
            "model = \"magician\"",
            "model = \"magician\"\nreach_mm = 300.0",
        ),
        &["cannot be read", "reach_mm"],
    );
    check(
        &edited("model = \"magician\"", "model = \"scara\""),
        &["cannot be read", "scara"],
    );
}
