//! What the operator may do to a game from the operator page: start a new one, pause, resign for
//! the robot, take back the visitor's last move, and settle an ambiguous move.
//!
//! Each is refused, with a reason a person can act on, when it makes no sense now; a refused
//! command changes nothing. While the robot's search or arm works, commands that change the
//! game wait for it (refused with "try again"), since a move half made cannot be undone.

use emotions::{Input, Millis};
use rules::recognition;
use rules::{Bitboard, Color, Move, notation};

use super::{Action, BoardLighting, Host, LogEvent, OperatorAction, State};

/// Why the host refused an operator command; it changed nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

fn refused<T>(why: &str) -> Result<T, Refused> {
    Err(Refused(why.to_owned()))
}

fn operator_log(action: OperatorAction, detail: String) -> Action {
    Action::Log(LogEvent::Operator { action, detail })
}

impl Host {
    /// The moves that fit the visitor's last press equally (empty unless the last press was
    /// ambiguous), with [`Host::choice_label`]s the operator picks from.
    pub fn ambiguous(&self) -> &[Move] {
        &self.ambiguous
    }

    /// How a candidate of an ambiguous press is named on the page and in [`Host::resolve`]:
    /// the move and the pieces it takes.
    pub fn choice_label(&self, mv: &Move) -> String {
        let text = notation::move_text(self.variant, mv);
        if mv.is_capture() {
            let mut taken = self.names(mv.captured());
            // Numbers read best in order; algebraic names already come rank by rank.
            taken.sort_by_key(|name| name.parse::<usize>().ok());
            format!("{text} (taking {})", taken.join(", "))
        } else {
            text
        }
    }

    /// Refuses while the robot's search or arm is at work on the game.
    pub(super) fn ensure_idle(&self) -> Result<(), Refused> {
        match self.state {
            State::RobotThinking if self.held_reply.is_none() => {
                refused("the robot is thinking; try again when its move is on the board")
            }
            State::RobotMoving { .. } | State::Resuming { .. } => {
                refused("the arm is making the robot's move; try again when it has finished")
            }
            _ => Ok(()),
        }
    }

    fn ensure_game(&self) -> Result<(), Refused> {
        if matches!(self.state, State::WaitingForSetup | State::ResettingBoard) {
            return refused("no game is in progress: the next one starts when the board is set up");
        }
        Ok(())
    }

    /// Ends the game in progress unfinished; the next starts when the board is set up.
    pub fn new_game(&mut self, now: Millis) -> Result<Vec<Action>, Refused> {
        self.ensure_game()?;
        self.ensure_idle()?;
        let mut out = vec![operator_log(OperatorAction::NewGame, String::new())];
        out.extend(self.abandon("new game (operator)", now));
        Ok(out)
    }

    /// Stops the game where it is: presses and setup scans are ignored, a search that finishes
    /// is held, an arm already moving finishes its move.
    pub fn pause(&mut self) -> Result<Vec<Action>, Refused> {
        self.ensure_game()?;
        if self.paused {
            return refused("the game is already paused");
        }
        self.paused = true;
        Ok(vec![operator_log(OperatorAction::Pause, String::new())])
    }

    /// Goes on after [`Host::pause`]: a search reply held meanwhile is played now.
    pub fn go_on(&mut self, now: Millis) -> Result<Vec<Action>, Refused> {
        if !self.paused {
            return refused("the game is not paused");
        }
        self.paused = false;
        let mut out = vec![operator_log(OperatorAction::GoOn, String::new())];
        if let Some(reply) = self.held_reply.take() {
            self.robot_moves(&reply, now, &mut out);
        }
        Ok(out)
    }

    /// The robot resigns: the visitor wins the game.
    pub fn resign(&mut self, now: Millis) -> Result<Vec<Action>, Refused> {
        self.ensure_game()?;
        self.ensure_idle()?;
        let mut out = vec![operator_log(OperatorAction::Resign, String::new())];
        let result = match self.robot {
            Color::White => "0-1",
            Color::Black => "1-0",
        };
        self.end_game(
            result,
            "the robot resigned (operator)",
            emotions::RobotResult::Loss,
            now,
            &mut out,
        );
        Ok(out)
    }

    /// Takes back the visitor's last move and the robot's reply to it; the game goes on when
    /// the board shows the position before that move (the operator or the visitor puts the
    /// pieces back and presses the button).
    pub fn take_back(&mut self) -> Result<Vec<Action>, Refused> {
        self.ensure_game()?;
        self.ensure_idle()?;
        if !matches!(self.state, State::VisitorTurn | State::Rearranging { .. }) {
            return refused("a move can be taken back at the visitor's turn only");
        }
        let visitor = !self.robot;
        let positions = self.game.positions();
        let Some(last_visitor_ply) = (0..self.game.moves().len())
            .rev()
            .find(|&ply| positions[ply].turn() == visitor)
        else {
            return refused("the visitor has not moved yet in this game");
        };
        let mut taken = Vec::new();
        while self.game.moves().len() > last_visitor_ply {
            let mv = self.game.undo().expect("counted above");
            taken.push(notation::move_text(self.variant, &mv));
        }
        taken.reverse();
        self.prediction = None;
        let plies = self.game.moves().len();
        self.notes.retain(|note| note.ply < plies);
        self.taken_back.truncate(plies);
        self.ratings.retain(|(ply, _)| *ply < plies);
        self.ambiguous.clear();
        let target = self.game.position().occupied();
        self.state = State::Rearranging { target };
        // The squares to change are lit from the next scan on.
        let mut out = Vec::new();
        self.set_lights(BoardLighting::DARK, &mut out);
        out.insert(
            0,
            operator_log(
                OperatorAction::TakeBack,
                format!(
                    "took back {}; put the pieces back and press the button",
                    taken.join(" ")
                ),
            ),
        );
        Ok(out)
    }

    /// Settles an ambiguous press: plays the candidate named `label` (see
    /// [`Host::choice_label`]); the game goes on when the board shows that move's outcome
    /// (the captured pieces taken off).
    pub fn resolve(&mut self, label: &str, now: Millis) -> Result<Vec<Action>, Refused> {
        if self.state != State::VisitorTurn || self.ambiguous.is_empty() {
            return refused("there is no ambiguous move to settle now");
        }
        let Some(mv) = self
            .ambiguous
            .iter()
            .copied()
            .find(|mv| self.choice_label(mv) == label)
        else {
            let labels: Vec<String> = self
                .ambiguous
                .iter()
                .map(|mv| self.choice_label(mv))
                .collect();
            return refused(&format!(
                "{label:?} is not one of the moves that fit: {}",
                labels.join(", ")
            ));
        };
        let before = *self.game.position();
        self.game.play(&mv).expect("candidates are legal moves");
        self.ambiguous.clear();
        let mut out = vec![
            operator_log(OperatorAction::Resolve, label.to_owned()),
            Action::Log(LogEvent::VisitorMove {
                mv: notation::move_text(self.variant, &mv),
            }),
        ];
        let captured = mv.captured().count() as u8;
        self.feel(Input::VisitorMove { captured }, now, &mut out);
        if !self.check_game_over(now, &mut out) {
            self.state = State::Rearranging {
                target: recognition::outcome(&before, &mv),
            };
        }
        Ok(out)
    }

    /// A press while waiting for the board to show `target`: go on when it does, else say
    /// which squares differ.
    pub(super) fn rearranged(
        &mut self,
        target: Bitboard,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let scan = scan & self.variant.geometry().all();
        if scan == target {
            self.set_lights(BoardLighting::DARK, out);
            if self.puzzle_board_back(out) {
                return;
            }
            if self.game.position().turn() == self.robot {
                self.think(now, out);
            } else {
                self.state = State::VisitorTurn;
            }
            return;
        }
        self.ask_for(target, scan, now, out);
    }

    /// The board at `scan` is not `target`: logs it, says which squares to clear and to fill,
    /// and lights them.
    pub(super) fn ask_for(
        &mut self,
        target: Bitboard,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let (missing, extra) = (target - scan, scan - target);
        out.push(Action::Log(LogEvent::BoardMismatch {
            missing: self.names(missing),
            extra: self.names(extra),
        }));
        let explanation = speech::explain_fix(self.language, self.variant, extra, missing);
        self.feel_explaining(Input::BoardMismatch, || Some(explanation), now, out);
        self.set_lights(BoardLighting::fix(extra, missing), out);
    }
}
