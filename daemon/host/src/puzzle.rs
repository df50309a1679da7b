//! Puzzle mode (`game.mode = "puzzle"`): instead of a game from the start, the board is set up
//! with a known combination (see `puzzles.rs`) and the visitor, to move, is challenged to find
//! the winning shot. Each of the visitor's moves is checked against the solution: the shot's
//! move is praised and the robot answers with the forced reply (the arm plays it), the whole
//! shot ends the puzzle; another move is put back by the visitor, who tries again, and after a
//! second miss the robot shows the solution by playing it with the arm. Then the next puzzle is
//! set up like any next game's start.

use emotions::{Input, Millis};
use rules::recognition;
use rules::{Move, Position, notation};
use speech::PuzzleSpeech;

use crate::puzzles::Puzzle;
use crate::set_up::SetUpTarget;
use crate::{Action, BoardLighting, Host, LogEvent, State};

/// Misses after which the robot shows the solution.
const MISSES_BEFORE_SHOWING: u32 = 2;

/// A puzzle on the board.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PuzzleRun {
    puzzle: Puzzle,
    /// The next move of the solution.
    step: usize,
    /// The visitor's moves that were not the shot.
    misses: u32,
    /// The robot plays the rest of the solution itself.
    showing: bool,
}

impl Host {
    /// Puzzle mode with `puzzles` (from the next game on), or play from the start when empty.
    pub fn set_puzzles(&mut self, puzzles: Vec<Puzzle>) {
        if puzzles != self.puzzles {
            self.puzzles = puzzles;
            self.next_puzzle = 0;
        }
    }

    /// Whether a puzzle is on the board.
    pub fn in_puzzle(&self) -> bool {
        self.puzzle.is_some()
    }

    /// The next puzzle to set up, as a position to set up, the robot playing the defender.
    pub(crate) fn next_puzzle_target(&self) -> Option<SetUpTarget> {
        let puzzle = self
            .puzzles
            .get(self.next_puzzle % self.puzzles.len().max(1))?;
        Some(SetUpTarget {
            position: puzzle.position,
            robot: !puzzle.position.turn(),
        })
    }

    /// A puzzle's game has started from its position: the challenge is said.
    pub(crate) fn begin_puzzle(&mut self, now: Millis, out: &mut Vec<Action>) {
        let Some(puzzle) = self
            .puzzles
            .get(self.next_puzzle % self.puzzles.len().max(1))
            .cloned()
        else {
            return;
        };
        self.next_puzzle += 1;
        let solver = puzzle.position.turn();
        self.puzzle = Some(Box::new(PuzzleRun {
            puzzle,
            step: 0,
            misses: 0,
            showing: false,
        }));
        let (language, variant) = (self.language, self.variant);
        let challenge = speech::explain_puzzle(language, variant, PuzzleSpeech::Challenge(solver));
        self.feel_explaining(Input::PuzzleSetUp, || Some(challenge), now, out);
        self.state = State::VisitorTurn;
    }

    /// The visitor's move `mv` in a puzzle, from `before`: the shot's move goes on (or ends
    /// the puzzle), any other is put back.
    pub(crate) fn puzzle_move(
        &mut self,
        before: Position,
        mv: Move,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let Some(run) = self.puzzle.as_mut() else {
            return;
        };
        let expected = run.puzzle.solution.get(run.step).copied();
        let (language, variant) = (self.language, self.variant);
        if expected == Some(mv) {
            run.step += 1;
            let reply = run.puzzle.solution.get(run.step).copied();
            self.set_lights(BoardLighting::DARK, out);
            self.game.play(&mv).expect("recognised moves are legal");
            out.push(Action::Log(LogEvent::VisitorMove {
                mv: notation::move_text(variant, &mv),
            }));
            let words = if reply.is_some() {
                PuzzleSpeech::GoOn
            } else {
                PuzzleSpeech::Solved
            };
            let said = speech::explain_puzzle(language, variant, words);
            self.feel_explaining(Input::Praise, || Some(said), now, out);
            match reply {
                Some(reply) => {
                    if let Some(run) = self.puzzle.as_mut() {
                        run.step += 1;
                    }
                    self.play_puzzle_move(reply, out);
                }
                None => self.end_puzzle("puzzle solved", out),
            }
            return;
        }
        run.misses += 1;
        if run.misses >= MISSES_BEFORE_SHOWING {
            run.showing = true;
        }
        let showing = run.showing;
        let after = recognition::outcome(&before, &mv);
        let (restore, clear) = (before.occupied() - after, after - before.occupied());
        out.push(Action::Log(LogEvent::PuzzleMiss {
            mv: notation::move_text(variant, &mv),
            expected: expected
                .map(|expected| notation::move_text(variant, &expected))
                .unwrap_or_default(),
            showing,
        }));
        let words = if showing {
            PuzzleSpeech::Show(restore)
        } else {
            PuzzleSpeech::TryAgain(restore)
        };
        let said = speech::explain_puzzle(language, variant, words);
        self.feel_explaining(Input::PuzzleMissed, || Some(said), now, out);
        self.set_lights(BoardLighting::fix(clear, restore), out);
        self.state = State::Rearranging {
            target: before.occupied(),
        };
    }

    /// The board is back as it was before a miss: the robot shows the solution, if it is to.
    /// Returns whether it does.
    pub(crate) fn puzzle_board_back(&mut self, out: &mut Vec<Action>) -> bool {
        if !self.puzzle.as_ref().is_some_and(|run| run.showing) {
            return false;
        }
        self.next_puzzle_arm_move(out);
        true
    }

    /// The arm finished a move of the puzzle's: the visitor's turn after a reply, the next move
    /// of a solution being shown, or the end of the puzzle when it is all shown. Returns false
    /// when no puzzle is on.
    pub(crate) fn puzzle_arm_done(&mut self, out: &mut Vec<Action>) -> bool {
        let Some(run) = &self.puzzle else {
            return false;
        };
        if !run.showing {
            self.state = State::VisitorTurn;
        } else if run.step < run.puzzle.solution.len() {
            self.next_puzzle_arm_move(out);
        } else {
            self.end_puzzle("puzzle: the solution shown", out);
        }
        true
    }

    /// The arm plays the solution's next move.
    fn next_puzzle_arm_move(&mut self, out: &mut Vec<Action>) {
        let Some(run) = self.puzzle.as_mut() else {
            return;
        };
        let Some(mv) = run.puzzle.solution.get(run.step).copied() else {
            return;
        };
        run.step += 1;
        self.play_puzzle_move(mv, out);
    }

    /// The arm plays `mv`, a move of the solution (the defender's reply, or any move while the
    /// solution is shown).
    fn play_puzzle_move(&mut self, mv: Move, out: &mut Vec<Action>) {
        let before = *self.game.position();
        self.game.play(&mv).expect("solutions are legal");
        out.push(Action::Log(LogEvent::RobotMove {
            mv: notation::move_text(self.variant, &mv),
            v: 0.0,
            think_ms: 0,
        }));
        self.state = State::RobotMoving { before, mv };
        out.push(Action::MoveArm { before, mv });
    }

    /// The puzzle is over (solved, or its solution shown): archived as an unfinished game from
    /// its position, and the next puzzle is set up like a next game's start.
    fn end_puzzle(&mut self, reason: &str, out: &mut Vec<Action>) {
        out.push(Action::GameFinished(self.record("*")));
        out.push(Action::Log(LogEvent::GameOver {
            result: "*".to_owned(),
            reason: reason.to_owned(),
            pdn: None,
        }));
        self.set_lights(BoardLighting::DARK, out);
        self.after_game();
    }
}
