//! The coach: how much the visitor's last move cost them, and what it allows.
//!
//! The robot already searches after every visitor move; its win probability before the move
//! (from its previous search) and after it give the visitor's expected score on both sides of
//! the move. The search's own value is used, not the level's calibrated one: the coach rates
//! what the move did to the position, not how likely this robot is to win it anyway. A drop is
//! rated on lichess's scale, and for a mistake or a blunder the robot's own line says what the
//! move allows: a capture at once, pieces won a few moves later, a king, or at least the better
//! move the robot had expected.

use rules::{Bitboard, Move, Position, notation};
use serde::{Deserialize, Serialize};
use speech::{Lesson, Utterance};
use thiserror::Error;

use crate::snapshot::RatingSnapshot;
use crate::{Action, Host, LogEvent, SearchReply};

/// A game this one-sided is decided: below it before the move (already lost) or above one
/// minus it after the move (still won), a move is not rated, so a visitor who is far ahead or
/// far behind is not nagged.
const DECIDED: f32 = 0.1;

/// How many plies of the robot's line the coach reads: the robot's reply, the visitor's
/// answer, and so on; far enough for a two-move shot, short enough to be the move's fault.
const LINE_PLIES: usize = 5;

/// How much better than every other move the visitor's move must be to be praised: more than
/// a piece (a man is 0.12 at even chances on the search's curve), so a plain defence of an
/// attacked man is not praised.
const PRAISE_GAP: f32 = 0.15;

/// The fewest legal moves a praised choice was made among: with two, the other is often just
/// a piece left hanging.
const PRAISE_CHOICES: usize = 3;

/// The most praise in one game, so it stays worth hearing.
const PRAISE_PER_GAME: usize = 2;

/// How close to the best alternative the visitor's move must be to count as the best.
const PRAISE_SLACK: f32 = 0.02;

/// The visitor's expected score before their costliest move from which the robot says they had
/// been doing well until then: near even or better.
const DOING_WELL: f32 = 0.4;

/// The coach's settings (`[coach]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoachSettings {
    /// Whether the robot rates the visitor's moves and says what a mistake allows.
    pub enabled: bool,
    /// The least drop of the visitor's expected score that counts as an inaccuracy.
    pub inaccuracy: f32,
    /// The least drop that counts as a mistake: said aloud with what it allows.
    pub mistake: f32,
    /// The least drop that counts as a blunder.
    pub blunder: f32,
    /// How many of a game's moves the visitor may ask a hint for (a long press of the
    /// button); 0 turns hints off.
    pub hints_per_game: u32,
    /// Whether the robot offers to take a blunder back before it answers.
    pub take_backs: bool,
}

impl Default for CoachSettings {
    /// lichess's scale: 0.1, 0.2 and 0.3 of a game's expected score; three hints a game, as
    /// many as a child needs to learn from and too few to play the game on them.
    fn default() -> CoachSettings {
        CoachSettings {
            enabled: true,
            inaccuracy: 0.1,
            mistake: 0.2,
            blunder: 0.3,
            hints_per_game: 3,
            take_backs: true,
        }
    }
}

/// Coach settings that cannot work.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum CoachSettingsError {
    /// A threshold outside (0, 1].
    #[error("must be more than 0 and at most 1")]
    OutOfRange {
        /// The key in `[coach]`.
        field: &'static str,
        /// Its value.
        value: f32,
    },
    /// A threshold not above the one below it.
    #[error("must be greater than coach.{lower}")]
    Order {
        /// The key in `[coach]`.
        field: &'static str,
        /// The key it must exceed.
        lower: &'static str,
    },
}

impl CoachSettings {
    /// Checks that each threshold is in (0, 1] and above the one below it.
    pub fn validate(&self) -> Result<(), CoachSettingsError> {
        let fields = [
            ("inaccuracy", self.inaccuracy),
            ("mistake", self.mistake),
            ("blunder", self.blunder),
        ];
        for (field, value) in fields {
            if !(value > 0.0 && value <= 1.0) {
                return Err(CoachSettingsError::OutOfRange { field, value });
            }
        }
        for pair in fields.windows(2) {
            if pair[1].1 <= pair[0].1 {
                return Err(CoachSettingsError::Order {
                    field: pair[1].0,
                    lower: pair[0].0,
                });
            }
        }
        Ok(())
    }

    /// How bad a move was that took the visitor's expected score from `before` to `after`;
    /// `None` for a move that cost little, or when the game was decided anyway.
    pub fn rate(&self, before: f32, after: f32) -> Option<AdviceKind> {
        if !self.enabled || before < DECIDED || after > 1.0 - DECIDED {
            return None;
        }
        let drop = before - after;
        [
            (self.blunder, AdviceKind::Blunder),
            (self.mistake, AdviceKind::Mistake),
            (self.inaccuracy, AdviceKind::Inaccuracy),
        ]
        .into_iter()
        .find(|&(threshold, _)| drop >= threshold)
        .map(|(_, kind)| kind)
    }
}

/// What the coach says about a move: the `kind` of an `advice` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdviceKind {
    /// The move cost a little; logged, not said.
    Inaccuracy,
    /// The move cost a lot; said with what it allows.
    Mistake,
    /// The move threw the game away, or much of it; said with what it allows.
    Blunder,
    /// The visitor asked for a hint (a long press), and one step of it was given.
    Hint,
    /// The visitor took a blunder back, as the robot offered.
    #[serde(rename = "takeback")]
    TakeBack,
    /// After a game the visitor did not win: the move of theirs that cost the most.
    TurningPoint,
    /// The visitor found the only good move: every other lost about a piece or more.
    Praise,
}

impl AdviceKind {
    /// The name in the event log and the game's record.
    pub const fn as_str(self) -> &'static str {
        match self {
            AdviceKind::Inaccuracy => "inaccuracy",
            AdviceKind::Mistake => "mistake",
            AdviceKind::Blunder => "blunder",
            AdviceKind::Hint => "hint",
            AdviceKind::TakeBack => "takeback",
            AdviceKind::TurningPoint => "turning_point",
            AdviceKind::Praise => "praise",
        }
    }

    /// Whether the robot says it aloud: mistakes and blunders, not every small slip.
    pub fn is_said(self) -> bool {
        !matches!(self, AdviceKind::Inaccuracy | AdviceKind::TakeBack)
    }
}

/// What the robot had expected the visitor to play, and the line it expected after it.
#[derive(Debug, Clone, Copy)]
pub struct ExpectedLine<'a> {
    /// The position before the visitor's move, the visitor to move.
    pub before: &'a Position,
    /// The visitor's move the robot expected (better than the one played), then the robot's
    /// answer, and so on.
    pub moves: &'a [Move],
}

impl ExpectedLine<'_> {
    /// Whether the robot makes a king within the plies the coach reads after the expected
    /// move: then a king in the line after the move played is no fault of that move.
    fn robot_crowns(&self) -> bool {
        let robot = !self.before.turn();
        let mut position = *self.before;
        for mv in self.moves.iter().take(LINE_PLIES + 1) {
            let mover = position.turn();
            let Ok(next) = position.play(mv) else { break };
            if mover == robot && mv.promotes() {
                return true;
            }
            position = next;
        }
        false
    }
}

/// What the visitor's move allows, read from the robot's line after it: the most concrete
/// lesson the line shows, or the move the robot had expected (the first of `expected`, when
/// the visitor played another). A king counts only when the line the robot had expected makes
/// none: a man that was going to crown anyway is not what the move let through. `after` is
/// the position after the visitor's move, the robot to move.
pub fn lesson(
    after: &Position,
    line: &[Move],
    expected: Option<ExpectedLine<'_>>,
) -> Option<Lesson> {
    let visitor = !after.turn();
    let mut position = *after;
    // Pieces each side takes along the line, and the robot's first king.
    let (mut won, mut lost) = (Bitboard::EMPTY, 0);
    let mut king = None;
    for mv in line.iter().take(LINE_PLIES) {
        let mover = position.turn();
        let Ok(next) = position.play(mv) else { break };
        if mover == visitor {
            lost += mv.captured().count();
        } else {
            won |= mv.captured();
            if mv.promotes() && king.is_none() {
                king = Some(mv.to());
            }
        }
        position = next;
    }
    let gains = won.count() > lost;
    let first = line.first().filter(|mv| after.is_legal(mv));
    if let Some(reply) = first.filter(|mv| mv.is_capture() && gains) {
        return Some(Lesson::Capture(*reply));
    }
    // Pieces that stand where they are now, so the visitor can see which ones.
    let standing = won & after.pieces(visitor);
    if gains && !standing.is_empty() {
        return Some(Lesson::PiecesLost(standing));
    }
    if let Some(square) = king.filter(|_| !expected.is_some_and(|e| e.robot_crowns())) {
        return Some(Lesson::King(square));
    }
    expected
        .and_then(|e| e.moves.first())
        .map(|better| Lesson::Better(*better))
}

/// The coach's rating of the visitor's last move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Advice {
    pub(crate) kind: AdviceKind,
    visitor_move: Move,
    expected_before: f32,
    expected_after: f32,
    lesson: Option<Lesson>,
}

impl Advice {
    /// The journal's form of this rating of the move at `ply`.
    pub(crate) fn snapshot(&self, ply: usize) -> RatingSnapshot {
        RatingSnapshot {
            ply,
            kind: self.kind,
            expected_before: self.expected_before,
            expected_after: self.expected_after,
        }
    }

    /// A rating from the journal, of `visitor_move`; what the move allowed is not kept, since
    /// it was said when the move was made.
    pub(crate) fn resumed(rating: &RatingSnapshot, visitor_move: Move) -> Advice {
        Advice {
            kind: rating.kind,
            visitor_move,
            expected_before: rating.expected_before,
            expected_after: rating.expected_after,
            lesson: None,
        }
    }

    /// The same rating, with what the move allows read anew.
    pub(crate) fn with_lesson(self, lesson: Option<Lesson>) -> Advice {
        Advice { lesson, ..self }
    }

    /// The move rated.
    pub(crate) fn visitor_move(&self) -> Move {
        self.visitor_move
    }

    /// The squares the lesson is about (none without a lesson): to say them and to light them.
    pub(crate) fn lesson_squares(&self) -> Bitboard {
        self.lesson
            .map_or(Bitboard::EMPTY, |lesson| lesson.squares())
    }

    /// The visitor's expected score before the move.
    pub(crate) fn expected_before(&self) -> f32 {
        self.expected_before
    }

    /// The visitor's expected score after the move.
    pub(crate) fn expected_after(&self) -> f32 {
        self.expected_after
    }

    /// The rating as a note on the visitor's move (ply `ply`) in the game's record, with the
    /// lesson `text`.
    pub(crate) fn note(&self, ply: usize, text: &str) -> rules::pdn::MoveNote {
        let mark = match self.kind {
            AdviceKind::Mistake => Some(rules::pdn::MoveMark::Mistake),
            AdviceKind::Blunder => Some(rules::pdn::MoveMark::Blunder),
            AdviceKind::Inaccuracy
            | AdviceKind::Hint
            | AdviceKind::TakeBack
            | AdviceKind::TurningPoint
            | AdviceKind::Praise => None,
        };
        let word = self.kind.as_str();
        let scores = format!(
            "{word}: the visitor's expected score {:.2} -> {:.2}",
            self.expected_before, self.expected_after
        );
        let comment = if text.is_empty() {
            scores
        } else {
            format!("{scores}. {text}")
        };
        rules::pdn::MoveNote {
            ply,
            mark,
            comment: Some(comment),
        }
    }
}

impl Host {
    /// How much the visitor's last move cost them, before the robot answers it with `reply`:
    /// `None` when the coach is off (at a forgiving level: unless it is a blunder, to offer a
    /// take-back), the robot moved last (no visitor move to rate), there was no earlier search
    /// to compare with, or the move cost little.
    pub(crate) fn advice(&self, reply: &SearchReply) -> Option<Advice> {
        let prediction = self.prediction.as_ref()?;
        let positions = self.game.positions();
        let visitor_move = *self.game.moves().last()?;
        let before = *positions.get(positions.len().checked_sub(2)?)?;
        if before.turn() == self.robot {
            return None;
        }
        let (expected_before, expected_after) = (1.0 - prediction.raw_v, 1.0 - reply.raw_v);
        let coach = CoachSettings {
            enabled: self.coach.enabled || self.forgiving,
            ..self.coach
        };
        let kind = coach
            .rate(expected_before, expected_after)
            .filter(|&kind| self.coach.enabled || kind == AdviceKind::Blunder)?;
        let expected = (prediction.reply() != Some(visitor_move) && prediction.reply().is_some())
            .then_some(ExpectedLine {
                before: &before,
                moves: &prediction.line,
            });
        Some(Advice {
            kind,
            visitor_move,
            expected_before,
            expected_after,
            lesson: lesson(self.game.position(), &reply.pv, expected),
        })
    }

    /// Logs `advice` about the visitor's move at `ply` and notes it in the game's record;
    /// returns its lesson in words.
    pub(crate) fn log_advice(
        &mut self,
        advice: &Advice,
        ply: usize,
        out: &mut Vec<Action>,
    ) -> Option<Utterance> {
        let (explanation, event) = self.advice_event(advice);
        if let LogEvent::Advice { text, .. } = &event {
            self.add_note(advice.note(ply, text));
        }
        self.ratings.push((ply, *advice));
        out.push(Action::Log(event));
        explanation
    }

    /// Praise for the visitor's last move, when it was the best of their choices by a piece or
    /// more over every other, in a game not yet decided: logged, and returned in words.
    pub(crate) fn praise(&mut self, out: &mut Vec<Action>) -> Option<Utterance> {
        let alternatives = self.alternatives.take()?;
        let praised = self
            .ratings
            .iter()
            .filter(|(_, advice)| advice.kind == AdviceKind::Praise)
            .count();
        if alternatives.len() < PRAISE_CHOICES || praised >= PRAISE_PER_GAME {
            return None;
        }
        let played = *self.game.moves().last()?;
        let (_, v) = *alternatives.iter().find(|(mv, _)| *mv == played)?;
        let others = alternatives.iter().filter(|(mv, _)| *mv != played);
        let best_other = others.map(|(_, v)| *v).fold(f32::NEG_INFINITY, f32::max);
        let decided = !(DECIDED..=1.0 - DECIDED).contains(&v);
        if decided || v + PRAISE_SLACK < best_other || v - best_other < PRAISE_GAP {
            return None;
        }
        let explanation = speech::explain_praise(self.language, self.variant);
        let squares = Bitboard::from_square(played.from()) | Bitboard::from_square(played.to());
        out.push(Action::Log(LogEvent::Advice {
            kind: AdviceKind::Praise,
            mv: notation::move_text(self.variant, &played),
            squares: self.names(squares),
            text: explanation.text(),
            expected_before: v,
            expected_after: v,
        }));
        let ply = self.game.moves().len() - 1;
        self.ratings.push((
            ply,
            Advice {
                kind: AdviceKind::Praise,
                visitor_move: played,
                expected_before: v,
                expected_after: v,
                lesson: None,
            },
        ));
        Some(explanation)
    }

    /// The visitor's costliest mistake or blunder of the game, said after a game they did not
    /// win, and its `advice` event; `None` when there was none.
    pub(crate) fn turning_point(&self) -> Option<(Utterance, LogEvent)> {
        let drop = |advice: &Advice| advice.expected_before - advice.expected_after;
        let (_, advice) = self
            .ratings
            .iter()
            .filter(|(_, advice)| matches!(advice.kind, AdviceKind::Mistake | AdviceKind::Blunder))
            // The earliest of equal drops: where the game turned first.
            .rev()
            .max_by(|(_, a), (_, b)| drop(a).total_cmp(&drop(b)))?;
        let mv = advice.visitor_move;
        let explanation = speech::explain_turning_point(
            self.language,
            self.variant,
            &mv,
            advice.expected_before >= DOING_WELL,
        );
        let squares = Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to());
        let event = LogEvent::Advice {
            kind: AdviceKind::TurningPoint,
            mv: notation::move_text(self.variant, &mv),
            squares: self.names(squares),
            text: explanation.text(),
            expected_before: advice.expected_before,
            expected_after: advice.expected_after,
        };
        Some((explanation, event))
    }

    /// The lesson of `advice` in words, and its `advice` event.
    pub(crate) fn advice_event(&self, advice: &Advice) -> (Option<Utterance>, LogEvent) {
        let explanation = advice
            .lesson
            .map(|lesson| speech::explain_lesson(self.language, self.variant, &lesson));
        let event = LogEvent::Advice {
            kind: advice.kind,
            mv: notation::move_text(self.variant, &advice.visitor_move),
            squares: self.names(advice.lesson_squares()),
            text: explanation
                .as_ref()
                .map(Utterance::text)
                .unwrap_or_default(),
            expected_before: advice.expected_before,
            expected_after: advice.expected_after,
        };
        (explanation, event)
    }
}
