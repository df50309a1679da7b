//! Lights under the board: one light per playing square, so the robot can show a visitor which
//! squares to clear, which to fill, and where its own move went.
//!
//! A board may have none; [`BoardLights::has_lights`] says so before anything is sent, so the
//! daemon neither sends what cannot be shown nor reads the board more often for nothing.

use std::future::Future;

use crate::ErrorType;
use crate::occupancy::{BoardSize, SquareOutOfRange};

/// Whether a light is dark, lit, or blinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LightMode {
    /// Dark.
    #[default]
    Off,
    /// Lit steadily.
    On,
    /// Blinking, in phase with every other blinking light, to ask for something to be done.
    Blinking,
}

/// The colour of a lit square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LightColour {
    /// Put a piece here.
    #[default]
    Green,
    /// Take the piece off here.
    Red,
    /// The robot's own move.
    Blue,
    /// Anything else a host wants to point at.
    White,
}

/// One square's light.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Light {
    /// Dark, lit or blinking.
    pub mode: LightMode,
    /// Its colour; a dark light's colour is always [`LightColour::Green`], so that equal
    /// pictures are equal values.
    pub colour: LightColour,
}

impl Light {
    /// A dark square.
    pub const OFF: Light = Light {
        mode: LightMode::Off,
        colour: LightColour::Green,
    };

    /// A light in `mode` and `colour`; [`LightMode::Off`] gives [`Light::OFF`] whatever the
    /// colour.
    pub const fn new(mode: LightMode, colour: LightColour) -> Light {
        match mode {
            LightMode::Off => Light::OFF,
            _ => Light { mode, colour },
        }
    }

    /// Whether the light shows anything.
    pub const fn is_lit(self) -> bool {
        !matches!(self.mode, LightMode::Off)
    }
}

/// The most squares any board has.
const MAX_SQUARES: usize = 72;

/// What every light of one board shows: the whole picture at once, so a lost or repeated
/// message can never leave a stray light behind.
///
/// Squares are numbered like an [`Occupancy`](crate::Occupancy) scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareLights {
    size: BoardSize,
    lights: [Light; MAX_SQUARES],
}

impl SquareLights {
    /// Every light of a `size` board dark.
    pub const fn dark(size: BoardSize) -> SquareLights {
        SquareLights {
            size,
            lights: [Light::OFF; MAX_SQUARES],
        }
    }

    /// The board these lights are for.
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The light of `square`; squares past the board are dark.
    pub fn get(&self, square: usize) -> Light {
        if square < self.size.square_count() {
            self.lights[square]
        } else {
            Light::OFF
        }
    }

    /// Sets the light of `square`.
    pub fn set(&mut self, square: usize, light: Light) -> Result<(), SquareOutOfRange> {
        if square >= self.size.square_count() {
            return Err(SquareOutOfRange {
                size: self.size,
                square,
            });
        }
        self.lights[square] = Light::new(light.mode, light.colour);
        Ok(())
    }

    /// The lit squares and their lights, in square order.
    pub fn lit(&self) -> impl Iterator<Item = (usize, Light)> + '_ {
        self.lights[..self.size.square_count()]
            .iter()
            .enumerate()
            .filter(|(_, light)| light.is_lit())
            .map(|(square, light)| (square, *light))
    }

    /// Whether every light is dark.
    pub fn is_dark(&self) -> bool {
        self.lit().next().is_none()
    }
}

/// Lights under the squares of a board.
pub trait BoardLights: ErrorType {
    /// Whether this board has lights at all. When it has none, [`show_lights`] is refused and
    /// callers should not ask.
    ///
    /// [`show_lights`]: BoardLights::show_lights
    fn has_lights(&self) -> bool;

    /// Shows `lights` in place of whatever the board showed.
    fn show_lights(
        &mut self,
        lights: SquareLights,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

impl<T: BoardLights + ?Sized> BoardLights for &mut T {
    fn has_lights(&self) -> bool {
        T::has_lights(self)
    }

    fn show_lights(
        &mut self,
        lights: SquareLights,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::show_lights(self, lights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dark_light_has_one_value_whatever_colour_it_was_given() {
        let mut lights = SquareLights::dark(BoardSize::Squares32);
        lights
            .set(3, Light::new(LightMode::Off, LightColour::Red))
            .unwrap();
        assert_eq!(lights, SquareLights::dark(BoardSize::Squares32));
        assert!(lights.is_dark());
    }

    #[test]
    fn only_the_boards_squares_can_be_lit() {
        let mut lights = SquareLights::dark(BoardSize::Squares50);
        let blink = Light::new(LightMode::Blinking, LightColour::Green);
        lights.set(49, blink).unwrap();
        assert!(lights.set(50, blink).is_err());
        assert_eq!(lights.lit().collect::<Vec<_>>(), vec![(49, blink)]);
        assert_eq!(lights.get(60), Light::OFF);
    }
}
