//! "Set up this position": the operator gives a position (as FEN) and the next game is played
//! from it instead of the start. The host keeps the position until the board shows it, then
//! starts that game with whoever the position says is to move; who sets the board up (the arm
//! with its rack, or people asked for the squares) is the runtime's choice.

use emotions::Millis;
use rules::{Bitboard, Color, Position, fen};

use super::{Action, Host, LogEvent, OperatorAction, Refused, State};

/// A position the operator asked for, waiting to be on the board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SetUpTarget {
    /// The position to play from.
    pub(crate) position: Position,
    /// The robot's colour in that game.
    pub(crate) robot: Color,
}

impl Host {
    /// The colour the robot plays in a game set up from `position` when the operator names
    /// none: the settings' colour when it is fixed; with colours alternating, the side not to
    /// move, so that the visitor, who came to play, moves first.
    pub fn robot_for_set_up(&self, position: &Position) -> Color {
        match self.robot_color {
            crate::RobotColor::Fixed(color) => color,
            crate::RobotColor::Alternate => !position.turn(),
        }
    }

    /// The next game is played from `position`, the robot playing `robot`. A game in progress
    /// ends unfinished first (archived with `*`), but not while the robot's search or arm is at
    /// work on it; nor while the arm sets the board up. A position where the side to move has
    /// no move is refused: its game would be over before it began. The board is then set up
    /// (see [`Host::ask_for_set_up`] when people must do it) and the game starts once it shows
    /// the position.
    pub fn set_up(
        &mut self,
        position: Position,
        robot: Color,
        now: Millis,
    ) -> Result<Vec<Action>, Refused> {
        if self.state == State::ResettingBoard {
            return Err(Refused(
                "the arm is setting the board up; try again when it has finished".to_owned(),
            ));
        }
        if position.legal_moves().is_empty() {
            return Err(Refused(format!(
                "{} is to move in this position but has no move: the game would be over \
                 before it began",
                position.turn()
            )));
        }
        let in_game = self.state != State::WaitingForSetup;
        if in_game {
            self.ensure_idle()?;
        }
        let mut out = vec![Action::Log(LogEvent::Operator {
            action: OperatorAction::SetUp,
            detail: format!("{} (the robot plays {robot})", fen::write(&position)),
        })];
        if in_game {
            out.extend(self.abandon("a position set up (operator)", now));
        }
        self.set_up = Some(Box::new(SetUpTarget { position, robot }));
        Ok(out)
    }

    /// People set up the operator's position: says which squares to clear and to fill, from
    /// the board as `scan` shows it (and lights them). Nothing when no position is waiting.
    pub fn ask_for_set_up(&mut self, scan: Bitboard, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        if self.state != State::WaitingForSetup {
            return out;
        }
        let Some((target, _)) = self.pending_set_up() else {
            return out;
        };
        let scan = scan & self.variant.geometry().all();
        if scan == target.position.occupied() {
            self.start_game(now, &mut out);
        } else {
            self.ask_for(target.position.occupied(), scan, now, &mut out);
        }
        out
    }

    /// Whether `scan` shows the board ready for the next game: the operator's position's
    /// squares exactly, or else the variant's start.
    pub(crate) fn set_up_complete(&self, scan: Bitboard) -> bool {
        match self.pending_set_up() {
            Some((target, _)) => scan & self.variant.geometry().all() == target.position.occupied(),
            None => rules::recognition::check_setup(self.variant, scan).is_complete(),
        }
    }

    /// The position the next game is to be played from, if not the variant's start: the
    /// operator's, or else puzzle mode's next puzzle (then `true`); only in the current
    /// variant.
    pub(crate) fn pending_set_up(&self) -> Option<(SetUpTarget, bool)> {
        let operator = self.set_up.as_deref().map(|target| (*target, false));
        let puzzle = || self.next_puzzle_target().map(|target| (target, true));
        operator
            .or_else(puzzle)
            .filter(|(target, _)| target.position.variant() == self.variant)
    }
}
