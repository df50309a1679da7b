//! The host's side of setting the board up after a game (`game.reset_board`): the arm's work
//! is the runtime's (it plans with the arm's stock and checks each batch with a scan); the host
//! only knows that no game is on while it runs, shows and says that the robot tidies up, and
//! afterwards starts the next game at once, or asks for the squares still to fill.

use emotions::{Input, Millis};
use rules::{Bitboard, Position, Variant};

use crate::{Action, Host, State};

impl Host {
    /// The variant of the next game: the one whose start the board is set up for.
    pub fn next_variant(&self) -> Variant {
        self.next_game.map_or(self.variant, |(variant, _)| variant)
    }

    /// The next game's start, which a reset sets up: the position the operator asked for
    /// (see `set_up.rs`), or else puzzle mode's next puzzle, or else the variant's start.
    pub fn next_start(&self) -> Position {
        let variant = self.next_variant();
        let operator = self.set_up.as_deref().map(|target| target.position);
        let puzzle = || self.next_puzzle_target().map(|target| target.position);
        operator
            .or_else(puzzle)
            .filter(|position| position.variant() == variant)
            .unwrap_or_else(|| Position::new(variant))
    }

    /// Whether the arm is setting the board up.
    pub fn is_resetting(&self) -> bool {
        self.state == State::ResettingBoard
    }

    /// The arm starts setting the board up for the next game: only between games. The face and
    /// the voice say so; the people at the board are asked for nothing meanwhile.
    pub fn begin_reset(&mut self, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        if self.state != State::WaitingForSetup {
            return out;
        }
        self.state = State::ResettingBoard;
        self.feel(Input::TidyingUp, now, &mut out);
        out
    }

    /// The arm has done what it could and the board shows `scan`: the next game starts at once
    /// when it is the start, otherwise the robot says which squares to fill (and to clear) and
    /// waits for them as for any setup.
    pub fn end_reset(&mut self, scan: Bitboard, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        if self.state != State::ResettingBoard {
            return out;
        }
        self.state = State::WaitingForSetup;
        self.begin_next_game_settings();
        let scan = scan & self.variant.geometry().all();
        if self.set_up_complete(scan) {
            self.start_game(now, &mut out);
        } else {
            let start = self.next_start().occupied();
            self.ask_for(start, scan, now, &mut out);
        }
        out
    }
}
