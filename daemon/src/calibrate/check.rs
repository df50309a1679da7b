//! Checking a calibration file without the arm: what `checkerbot calibrate --check` and
//! `checkerbot doctor` report. The checks themselves are [`Calibration::from_toml`]'s (shape,
//! order, mirroring, reach of every point, travel height); this adds the file's presence and
//! whether its board is the one the settings play on.

use std::path::Path;

use hal::arm::{Calibration, Corner};

/// What a good calibration holds, one fact per line; or why it is refused, with what to do.
pub fn check_calibration(path: &Path, side: usize) -> Result<Vec<String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "{} does not exist: run `checkerbot calibrate` to teach the arm where the board \
                 is (or start from hal/data/calibration.example.toml)",
                path.display()
            ));
        }
        Err(err) => return Err(format!("cannot read {}: {err}", path.display())),
    };
    let calibration = Calibration::from_toml(&text)
        .map_err(|err| format!("{} is refused: {err}", path.display()))?;
    let found = calibration.side();
    if found != side {
        return Err(format!(
            "{} is for a {found}x{found} board, but the settings' game.variant plays on \
             {side}x{side}: run `checkerbot calibrate` on the {side}x{side} board, or correct \
             game.variant",
            path.display()
        ));
    }
    Ok(describe(&calibration))
}

/// The calibration in a few lines.
pub fn describe(calibration: &Calibration) -> Vec<String> {
    let side = calibration.side();
    let corners = Corner::ALL
        .into_iter()
        .map(|corner| {
            format!(
                "{} {}",
                corner.square(side),
                calibration.corners().corner(corner)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let near_left = calibration.corners().corner(Corner::NearLeft);
    let near_right = calibration.corners().corner(Corner::NearRight);
    let pitch = near_left.horizontal_distance(near_right) / (side - 1) as f64;
    vec![
        format!("{side}x{side} board, squares {pitch:.1} mm apart: {corners}"),
        format!(
            "travel height z {:.1} mm; {} trophy-bin point(s); {} spare-king slot(s); park at {}",
            calibration.safe_z(),
            calibration.bins().len(),
            calibration.king_slots().len(),
            calibration.park()
        ),
        format!(
            "all {} points the arm may be sent to are within its reach",
            calibration.named_points().len()
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hal/data/calibration.example.toml"
    );

    #[test]
    fn the_example_passes_on_its_board_and_is_refused_on_another() {
        let lines = check_calibration(Path::new(EXAMPLE), 8).unwrap();
        assert!(
            lines[0].starts_with("8x8 board, squares 19.0 mm apart"),
            "{lines:?}"
        );
        let refused = check_calibration(Path::new(EXAMPLE), 10).unwrap_err();
        assert!(refused.contains("is for a 8x8 board"), "{refused}");
        assert!(refused.contains("10x10"), "{refused}");
    }

    #[test]
    fn a_missing_file_says_how_to_make_one() {
        let refused = check_calibration(Path::new("/nonexistent/calibration.toml"), 8).unwrap_err();
        assert!(refused.contains("/nonexistent/calibration.toml does not exist"));
        assert!(refused.contains("checkerbot calibrate"));
    }
}
