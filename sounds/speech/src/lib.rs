//! What the robot says about the board, in words: why the visitor's move was refused, which
//! squares to clear and to fill, what went wrong with the robot's own move, and what the coach
//! sees in a visitor's move that lost ground, in English, Russian and Ukrainian.
//!
//! A sentence is an [`Utterance`]: [`Word`]s, each a fixed phrase or a square name with the
//! [`FragmentId`] of its recorded audio. The `sounds` crate plays the fragments one after the
//! other; the text (the words joined) goes to the event log and the operator page. Every
//! fragment a language can need is listed by [`fragments`], which is what
//! `sounds/render-packs` renders.
//!
//! Grammar lives in the phrases, not in code that inflects words: square names are
//! indeclinable names in apposition after the word "square" ("на поле f4", "с поля 32"), so
//! only the noun before them changes, and each phrase comes in a form for one square and a
//! form for several.
//!
//! A crate of its own, and pure, so the game host can put the visitor's message in their
//! language without the audio stack.
#![warn(missing_docs)]

mod catalogue;
mod compose;
mod explain;
mod hint;
mod language;
mod lesson;
mod square_words;
mod utterance;
mod vocabulary;

pub use catalogue::{Fragment, fragments};
pub use explain::{
    PuzzleSpeech, explain_arm_check, explain_crown_by_hand, explain_fix, explain_hint,
    explain_lesson, explain_praise, explain_puzzle, explain_recognition, explain_robot_move,
    explain_take_back_offer, explain_turning_point,
};
pub use hint::Hint;
pub use lesson::Lesson;
pub use utterance::{FragmentId, Gap, Utterance, Word};
