//! From the host's lighting to what the controller shows: one light per sensor, numbered like
//! a scan.
//!
//! The host decides by purpose (clear, fill, the robot's move, a hint) with a colour and a mode for
//! each; this is only the change of numbering and types, because `hal` knows no squares of
//! the engine and the host knows no device.

use hal::device::{Light, LightColour, LightMode, SquareLights};
use host::BoardLighting;
use rules::Geometry;

use crate::robot::occupancy_map::board_size;

/// What the controller last showed of the host's lighting.
#[derive(Debug, Default)]
pub struct ShownLights {
    /// What the controller shows; `None` after a reconnection (it starts dark) or before the
    /// first picture.
    pub sent: Option<BoardLighting>,
    /// Whether the last picture failed, so a failing board is reported once, not at every
    /// change.
    pub failing: bool,
}

/// The lights of a board of `geometry` for `lighting`.
pub fn square_lights(geometry: &Geometry, lighting: &BoardLighting) -> SquareLights {
    let mut lights = SquareLights::dark(board_size(geometry));
    for lit in lighting.lit() {
        let mode = match lit.mode {
            host::LightMode::On => LightMode::On,
            host::LightMode::Blinking => LightMode::Blinking,
        };
        let colour = match lit.colour {
            host::LightColour::Green => LightColour::Green,
            host::LightColour::Red => LightColour::Red,
            host::LightColour::Blue => LightColour::Blue,
            host::LightColour::White => LightColour::White,
        };
        lights
            .set(geometry.index(lit.square), Light::new(mode, colour))
            .expect("a square of the geometry has a light");
    }
    lights
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Variant;

    #[test]
    fn each_purpose_lights_its_sensors_square_in_its_colour() {
        for variant in Variant::ALL {
            let geometry = variant.geometry();
            let [clear, fill, moved] = [5, 9, 2].map(|i| geometry.square(i).unwrap());
            let lighting = BoardLighting::fix(
                rules::Bitboard::from_square(clear),
                rules::Bitboard::from_square(fill),
            );
            let lights = square_lights(geometry, &lighting);
            assert_eq!(lights.size().square_count(), geometry.square_count());
            let red = Light::new(LightMode::Blinking, LightColour::Red);
            let green = Light::new(LightMode::Blinking, LightColour::Green);
            assert_eq!(
                lights.lit().collect::<Vec<_>>(),
                vec![(5, red), (9, green)],
                "{variant:?}"
            );
            let robot_move = BoardLighting::robot_move(moved, clear);
            let blue = Light::new(LightMode::On, LightColour::Blue);
            assert_eq!(
                square_lights(geometry, &robot_move)
                    .lit()
                    .collect::<Vec<_>>(),
                vec![(2, blue), (5, blue)],
                "{variant:?}"
            );
        }
    }
}
