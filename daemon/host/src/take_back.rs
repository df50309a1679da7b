//! Take-backs: after a blunder the robot holds its reply and offers to take the move back.
//!
//! The visitor puts the pieces back (the board's reads notice it, or the next press) and tries
//! another move, or presses the button on the board as it is to go on. A press that shows
//! another move from the position before the blunder takes it back and plays that move at
//! once. The game's record keeps only the move finally played, with what was taken back in a
//! comment on it.

use emotions::{Input, Millis};
use rules::recognition::{self, Recognition};
use rules::{Bitboard, Move, Position, notation};

use crate::coach::Advice;
use crate::snapshot::OfferSnapshot;
use crate::{Action, AdviceKind, BoardLighting, Host, LogEvent, SearchReply, State};

/// A take-back on offer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Offer {
    /// The robot's answer to the blunder, played if the visitor goes on.
    reply: SearchReply,
    /// The position before the blunder.
    before: Position,
    /// The coach's rating of the blunder.
    advice: Advice,
}

impl Offer {
    /// The journal's form of the offer.
    pub(crate) fn snapshot(&self, variant: rules::Variant) -> OfferSnapshot {
        OfferSnapshot {
            line: self
                .reply
                .pv
                .iter()
                .map(|mv| notation::move_text(variant, mv))
                .collect(),
            v: self.reply.v,
            raw_v: Some(self.reply.raw_v),
        }
    }

    /// The board as it was before the blunder.
    pub(crate) fn board_before(&self) -> Bitboard {
        self.before.occupied()
    }
}

/// What the visitor took back in this game.
#[derive(Debug, Clone, Default)]
pub(crate) struct TakenBack {
    /// Every (ply, move) offered for a take-back: a move played again after its take-back is
    /// the visitor's choice, and is not offered twice.
    offered: Vec<(usize, Move)>,
    /// What was taken back, and at which ply: the comment for the move finally played there.
    taken: Vec<(usize, String)>,
}

impl TakenBack {
    /// The notes on the moves finally played where others were taken back, one per ply.
    pub(crate) fn notes(&self) -> Vec<rules::pdn::MoveNote> {
        let mut notes: Vec<rules::pdn::MoveNote> = Vec::new();
        for (ply, text) in &self.taken {
            crate::record::merge_note(
                &mut notes,
                rules::pdn::MoveNote {
                    ply: *ply,
                    mark: None,
                    comment: Some(text.clone()),
                },
            );
        }
        notes
    }

    /// Forgets what was taken back at `ply` or later (the operator took those moves back).
    pub(crate) fn truncate(&mut self, plies: usize) {
        self.taken.retain(|(ply, _)| *ply < plies);
    }
}

/// The most take-backs offered at one turn: a visitor who blunders again and again from the
/// same position is not held there trying every move, the robot plays on.
pub(crate) const TAKE_BACKS_PER_TURN: usize = 2;

impl Host {
    /// Whether the robot offers to take back the move `advice` rates: a blunder, with
    /// take-backs on, the coach on (or a level as forgiving as 1-2), not offered before, and
    /// fewer than [`TAKE_BACKS_PER_TURN`] offered at this turn.
    pub(crate) fn offers_take_back(&self, advice: &Advice) -> bool {
        let ply = self.game.moves().len() - 1;
        let offered = &self.taken_back.offered;
        advice.kind == AdviceKind::Blunder
            && self.coach.take_backs
            && (self.coach.enabled || self.forgiving)
            && !offered.contains(&(ply, advice.visitor_move()))
            && offered.iter().filter(|(at, _)| *at == ply).count() < TAKE_BACKS_PER_TURN
    }

    /// Holds `reply`, says what the blunder allows and how to take it back, and lights the
    /// squares to put right for it.
    pub(crate) fn offer_take_back(
        &mut self,
        reply: &SearchReply,
        advice: Advice,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let ply = self.game.moves().len() - 1;
        let lesson = self.log_advice(&advice, ply, out);
        self.hold_for_take_back(reply.clone(), advice, lesson, now, out);
    }

    /// Offers again, after a restart, the take-back the journal says was on offer: `reply` is
    /// the answer the robot held, `advice` the blunder's rating kept in the journal. It was
    /// logged and noted before the restart; it is said again, with what the reply's line
    /// shows it allows.
    pub(crate) fn offer_take_back_again(
        &mut self,
        reply: SearchReply,
        advice: Advice,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let advice =
            advice.with_lesson(crate::coach::lesson(self.game.position(), &reply.pv, None));
        let (lesson, _) = self.advice_event(&advice);
        self.hold_for_take_back(reply, advice, lesson, now, out);
    }

    /// The offer itself: the state that holds `reply`, the words (`lesson`, then how to take
    /// the move back) and the lights.
    fn hold_for_take_back(
        &mut self,
        reply: SearchReply,
        advice: Advice,
        lesson: Option<speech::Utterance>,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let ply = self.game.moves().len() - 1;
        let lesson_squares = advice.lesson_squares();
        let before = self.game.positions()[ply];
        let (was, is) = (before.occupied(), self.game.position().occupied());
        self.taken_back.offered.push((ply, advice.visitor_move()));
        self.state = State::OfferingTakeBack(Box::new(Offer {
            reply,
            before,
            advice,
        }));
        let mut explanation = lesson.unwrap_or_default();
        explanation.extend(speech::explain_take_back_offer(
            self.language,
            self.variant,
            was - is,
        ));
        self.feel_explaining(Input::TakeBackOffered, || Some(explanation), now, out);
        self.set_lights(
            BoardLighting::take_back(is - was, was - is, lesson_squares),
            out,
        );
    }

    /// A press while a take-back is on offer.
    pub(crate) fn offer_answered(
        &mut self,
        offer: &Offer,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let scan = scan & self.variant.geometry().all();
        let (was, is) = (offer.board_before(), self.game.position().occupied());
        if scan == is {
            // Going on: the robot plays the reply it held; the blunder was said already.
            self.set_lights(BoardLighting::DARK, out);
            self.play_reply(&offer.reply, None, now, out);
            return;
        }
        if scan == was {
            self.accept_take_back(offer, now, out);
            return;
        }
        // Nearer the board before the blunder: taken back, and the press is a press at that
        // position (another move, or a mistake explained there).
        if (scan ^ was).count() < (scan ^ is).count()
            || matches!(
                recognition::recognize(&offer.before, scan),
                Recognition::Move(_)
            )
        {
            self.accept_take_back(offer, now, out);
            self.visitor_pressed(scan, now, out);
            return;
        }
        // Nearer the board as it is: what to put right to go on.
        self.ask_for(is, scan, now, out);
    }

    /// A read of the board while a take-back is on offer: the pieces back where they were take
    /// the move back; otherwise the lights show what is still to put back.
    pub(crate) fn offer_scanned(
        &mut self,
        offer: &Offer,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let scan = scan & self.variant.geometry().all();
        let was = offer.board_before();
        if scan == was {
            self.accept_take_back(offer, now, out);
            return;
        }
        self.set_lights(BoardLighting::fix(scan - was, was - scan), out);
        if self.last_scan != Some(scan) {
            self.last_scan = Some(scan);
            self.feel(Input::VisitorActivity, now, out);
        }
    }

    /// Takes the blunder back: the visitor is to move again in the position before it.
    fn accept_take_back(&mut self, offer: &Offer, now: Millis, out: &mut Vec<Action>) {
        let mv = self
            .game
            .undo()
            .expect("a take-back follows the visitor's move");
        let ply = self.game.moves().len();
        self.notes.retain(|note| note.ply != ply);
        self.ratings.retain(|(rated, _)| *rated != ply);
        let text = notation::move_text(self.variant, &mv);
        let advice = &offer.advice;
        self.taken_back.taken.push((
            ply,
            format!(
                "{text} taken back (blunder: the visitor's expected score {:.2} -> {:.2})",
                advice.expected_before(),
                advice.expected_after()
            ),
        ));
        out.push(Action::Log(LogEvent::Advice {
            kind: AdviceKind::TakeBack,
            mv: text,
            squares: self.names(Bitboard::from_square(mv.from())),
            text: String::new(),
            expected_before: advice.expected_before(),
            expected_after: advice.expected_before(),
        }));
        self.state = State::VisitorTurn;
        self.set_lights(BoardLighting::DARK, out);
        self.feel(Input::VisitorActivity, now, out);
    }
}
