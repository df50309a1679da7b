//! Hints: a long press of the visitor's button at their turn asks which piece to move, and a
//! second one the whole move. `coach.hints_per_game` bounds how many of a game's moves may be
//! hinted, so a child cannot hunt for the best move every time (as `ChessUp` does).
//!
//! The hint comes from a search of its own ([`Action::Hint`]), not from the robot's last one:
//! at the weak levels the robot's own expectation is weak too, and a hint must be good.

use emotions::{Input, Millis};
use rules::{Bitboard, Move, notation};
use speech::Hint;

use crate::{Action, AdviceKind, BoardLighting, Device, Host, LogEvent, SearchReply, State};

/// The hints of one game.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hints {
    /// Moves hinted (or being hinted) in this game.
    given: u32,
    /// The hint for the visitor's turn now, if one was asked for.
    current: Option<CurrentHint>,
}

/// The hint asked for at one of the visitor's turns.
#[derive(Debug, Clone, Copy)]
struct CurrentHint {
    /// The ply it is for: the game's length when it was asked.
    ply: usize,
    /// The move and the visitor's win probability with it, once the search found them.
    found: Option<(Move, f32)>,
}

impl Hints {
    /// The hints of a resumed game, `given` of them given before the restart.
    pub(crate) fn resumed(given: u32) -> Hints {
        Hints {
            given,
            current: None,
        }
    }

    /// How many of the game's moves were hinted.
    pub(crate) fn given(&self) -> u32 {
        self.given
    }

    /// A hint search that will not be answered (stopped for the robot's own, or ended while
    /// paused): it was not given, so it does not count, and the visitor may ask again.
    pub(crate) fn forget_search(&mut self) {
        if self.current.is_some_and(|hint| hint.found.is_none()) {
            self.current = None;
            self.given = self.given.saturating_sub(1);
        }
    }
}

impl Host {
    /// Whether a long press with the board at `scan` asks for a hint: at the visitor's turn,
    /// with the coach on and hints allowed, before any piece has moved.
    pub fn asks_for_hint(&self, scan: Bitboard) -> bool {
        self.state == State::VisitorTurn
            && self.coach.enabled
            && self.coach.hints_per_game > 0
            && scan & self.variant.geometry().all() == self.game.position().occupied()
    }

    /// The visitor asked for a hint: the piece to move once the search answers, the whole move
    /// when the piece was already shown, or that the game's hints are used up.
    pub(crate) fn hint_asked(&mut self, now: Millis, out: &mut Vec<Action>) {
        let ply = self.game.moves().len();
        match self.hints.current.filter(|hint| hint.ply == ply) {
            // The search is on; its answer will be the hint.
            Some(CurrentHint { found: None, .. }) => {}
            Some(CurrentHint {
                found: Some((mv, v)),
                ..
            }) => self.give_hint(Hint::Move(mv), mv, v, now, out),
            None if self.hints.given >= self.coach.hints_per_game => {
                out.push(Action::Log(LogEvent::NoHintsLeft {
                    hints_per_game: self.coach.hints_per_game,
                }));
                let explanation =
                    speech::explain_hint(self.language, self.variant, &Hint::NoneLeft);
                self.feel_explaining(Input::Hint, || Some(explanation), now, out);
            }
            None => {
                self.hints.given += 1;
                self.hints.current = Some(CurrentHint { ply, found: None });
                let positions = self.game.positions();
                out.push(Action::Hint {
                    position: *self.game.position(),
                    history: positions[..positions.len() - 1].to_vec(),
                });
            }
        }
    }

    /// The hint's search answered: show and say the piece to move.
    pub(crate) fn hint_found(&mut self, reply: &SearchReply, now: Millis, out: &mut Vec<Action>) {
        let ply = self.game.moves().len();
        let Some(hint) = self.hints.current.as_mut().filter(|hint| hint.ply == ply) else {
            return;
        };
        if hint.found.is_some() {
            return;
        }
        if !self.game.position().is_legal(&reply.mv) {
            self.hints.forget_search();
            out.push(Action::Log(LogEvent::Fault {
                device: Device::Brain,
                message: "the hint's search returned an illegal move; no hint given".to_owned(),
            }));
            return;
        }
        hint.found = Some((reply.mv, reply.raw_v));
        self.give_hint(
            Hint::Piece(reply.mv.from()),
            reply.mv,
            reply.raw_v,
            now,
            out,
        );
    }

    /// Says `hint` (a step of the hint `mv`, which keeps the visitor's win probability `v`),
    /// lights its squares and logs it.
    fn give_hint(&mut self, hint: Hint, mv: Move, v: f32, now: Millis, out: &mut Vec<Action>) {
        let squares = match hint {
            Hint::Move(_) => Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to()),
            _ => Bitboard::from_square(mv.from()),
        };
        let explanation = speech::explain_hint(self.language, self.variant, &hint);
        out.push(Action::Log(LogEvent::Advice {
            kind: AdviceKind::Hint,
            mv: notation::move_text(self.variant, &mv),
            squares: self.names(squares),
            text: explanation.text(),
            expected_before: v,
            expected_after: v,
        }));
        self.feel_explaining(Input::Hint, || Some(explanation), now, out);
        self.set_lights(BoardLighting::hint(squares), out);
    }
}
