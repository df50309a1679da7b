//! A man the robot crowned when the arm had no spare king left to put on its square: the
//! visitor is asked to turn it over. The board's sensors cannot tell a man from a king, so
//! the game does not wait for it; the robot only says it, with the square.

use emotions::{Input, Millis};
use rules::Square;

use crate::{Action, Host};

impl Host {
    /// The robot's move just made crowned its man on `square`, and the arm had no spare king
    /// to put there: the robot asks the visitor to turn the man over (the square is among
    /// those the robot's move lit).
    pub fn crown_by_hand(&mut self, square: Square, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        let (language, variant) = (self.language, self.variant);
        let explanation = || Some(speech::explain_crown_by_hand(language, variant, square));
        self.feel_explaining(Input::CrownByHand, explanation, now, &mut out);
        out
    }
}
