//! checkerbot's personality: how the robot feels about the game, what its face shows and when
//! it speaks.
//!
//! Pure logic, no I/O and no clock: the host passes every [`Input`] with the time it happened
//! ([`Millis`]) to [`Mind::step`], and gets back a [`FaceState`] and maybe a [`LineRequest`]. The
//! same settings, seed and inputs always give the same faces and lines, so scripted games with a
//! fake clock test the whole personality. [`Frame::render`] turns a face into LED rows and servo
//! angles; [`Frame::preview`] draws it as text for `checkerbot sim`. The eyes of every emotion
//! are pictured in this crate's `README.md`.
//!
//! ```
//! use emotions::{Emotion, Evaluation, Frame, Input, Millis, Mind, Settings};
//!
//! let mut mind = Mind::new(Settings::default(), 42);
//! mind.step(Input::GameStarted, Millis(0));
//! mind.step(Input::VisitorMove { captured: 0 }, Millis(5_000));
//! mind.step(Input::RobotThinking, Millis(5_100));
//! let first = Evaluation { v: 0.5, v_pred: None, expected_reply: false, captures: 0 };
//! mind.step(Input::RobotMove(first), Millis(8_000));
//! mind.step(Input::ArmDone, Millis(12_000));
//! // The visitor blunders: v jumps from 0.5 to 0.8, although the search expected 0.5.
//! let blunder = Evaluation { v: 0.8, v_pred: Some(0.5), expected_reply: false, captures: 2 };
//! let out = mind.step(Input::RobotMove(blunder), Millis(20_000));
//! assert_eq!(out.face.expression.emotion, Emotion::Surprised);
//! println!("{}", Frame::render(&out.face, &mind.settings().face).preview());
//! ```
//!
//! # The model
//!
//! From each [`Evaluation`] (the robot's win probability `v` after the visitor's move) the
//! model reads `delta = v - v_prev` (joy or distress), `surprise = |v - v_pred|` (what its
//! search did not foresee) and `level = 2v - 1` (hope or fear). A continuous [`Mood`] moves with
//! them and with events (captures, rule breaks, game end; a repeat within 5 s counts half) and
//! decays toward rest (half-lives 20 s, 60 s, 8 s). Reactions to events show for a while (a
//! move or mistake 4 s, a game end 10 s, surprise 2 s before what follows it); otherwise the
//! face follows the mood's pleasure. The face holds an expression at least 1.5 s unless a new
//! event's reaction of a higher rule or clearly stronger (+0.25) comes; a drifting mood or a
//! reaction running out always waits for the hold. A mood expression stays until pleasure is
//! 0.1 past its threshold. Together these keep noisy values from making the face flicker. All
//! numbers are [`Settings`] defaults.
//!
//! # The table: emotion x attitude x game situation
//!
//! Rules are listed in priority order; for a robot move the first matching row of rules 3-6
//! wins. "Line" is the [`Category`] requested; the `sounds` crate holds its friendly and rival
//! phrasings. Intensities start at 0.5 at a threshold and reach 1 at the "full" point.
//!
//! | # | Situation | Friendly | Rival | Line |
//! |---|-----------|----------|-------|------|
//! | 1 | Game starts | happy 0.75 | happy 0.75 | `game_start` |
//! | 1 | Game ends, robot won | happy 1 | happy 1 | `win` (always) |
//! | 1 | Game ends, robot lost | sad 1 | angry 1 | `loss` (always) |
//! | 1 | Game ends in a draw | neutral | neutral | `draw` (always) |
//! | 2 | Visitor breaks a rule | surprised 0.75 | disgusted 0.75 | `illegal_move` with the reason, or `must_capture` (always) |
//! | 2 | ...again within 60 s | surprised 1 | angry 1 | as above |
//! | – | The arm made the robot's move | unchanged | unchanged | `robot_move` with the move, when `announce_moves` asks (always) |
//! | – | The coach rated the visitor's move a mistake or a blunder, and the robot's move asked for no line | unchanged | unchanged | `advice` with what the move allows (always) |
//! | – | The visitor asked for a hint (a long press) | unchanged | unchanged | `hint` with the hint, or that none is left (always) |
//! | – | The visitor found the only good move (every other lost about a piece) | unchanged | unchanged | `praise`, after the robot's move line (always) |
//! | – | The coach rated the visitor's move a blunder and offers to take it back | unchanged | unchanged | `take_back` with what the move allows and how to take it back (always) |
//! | – | The button pressed before any move | unchanged | unchanged | `illegal_move` with `no_move` (always) |
//! | – | Captured pieces left on the board, a piece missing or extra, or the board disagrees after the arm moved | unchanged | unchanged | `fix_board`, with the reason where the visitor's press showed it (always) |
//! | 3 | `surprise >= 0.25` (full at 0.5): the search did not foresee the value | surprised for 2 s, then the matching row below | same | see the line rules below |
//! | 4 | `delta <= -0.15` and `v < 0.35`, after the reply the robot expected (its own blunder) | afraid | angry | `self_blunder` |
//! | 4 | ...after another reply (the visitor's strong move) | happy: praise (rule 5) | angry | `opponent_strong_move` ("Brilliant move!" / grudging) |
//! | 5 | Visitor's strong move (`delta <= -0.15`, unexpected reply) with `v >= 0.35` | happy: praise | angry (rule 6) | `opponent_strong_move` |
//! | 5 | `delta >= 0.15`: the visitor blundered | happy | happy | `opponent_blunder` (sympathy / gloating) |
//! | 5 | `delta >= 0.08`: things got better | happy | happy | `good_move_self` |
//! | 5 | The robot captures (full at 3 pieces) | happy | happy | `capture` |
//! | 6 | `delta <= -0.08`: things got worse | sad | angry | — (`self_blunder` from -0.15) |
//! | – | The visitor captures | mood: pleasure -0.1 per piece | mood: pleasure -0.35 per piece | `lost_piece` |
//! | – | The robot starts thinking | gaze at the board | same | `thinking` |
//! | 5 | At rest, pleasure `>= 0.3` (full at 1) | happy | happy | — |
//! | 6 | At rest, pleasure `<= -0.3` | sad | angry | — |
//! | 7 | Otherwise | neutral | neutral | — |
//! | – | No game, nobody at the board for 20 s after a game | neutral | neutral | `goodbye` (once) |
//! | – | No game, nobody at the board for 45 s | neutral | neutral | `idle`, then every 60 s |
//!
//! Line rules for a robot move, most specific first: `opponent_strong_move`, `self_blunder`,
//! `opponent_blunder` (by the size of the swing, 0.15); then `surprise` if the value was
//! unforeseen but the swing small; then `capture`; then `good_move_self`. At rest, pleasure
//! drifts toward `0.35 x confidence`, and confidence toward `2v - 1`: a robot that has been
//! winning for a while smiles, one that has been losing looks glum (friendly) or cross (rival).
//!
//! The friendly robot is never angry or disgusted and the rival never sad or afraid: the
//! attitude decides which of the pair the negative rules show. Surprise and fear come only from
//! the exceptional thresholds of rules 3 and 4.
//!
//! # Speaking
//!
//! A line of a category is said with probability `speak_base x intensity` (0.7 by default;
//! procedural lines like `game_start`, `thinking`, `idle` and `goodbye` have intensity 1), at
//! most once per the category's cooldown and never within 4 s of the previous line. The dice
//! are the [`Mind`]'s own, seeded. Game ends, rule breaks and board fixes always speak. The
//! `sounds` crate picks the phrasing and avoids repeating recent lines.
//!
//! # Where it looks
//!
//! | Doing | Gaze | Neck |
//! |-------|------|------|
//! | The arm moves | board | down |
//! | Speaking (2.5 s after a line starts) | visitor | up |
//! | Thinking | board | down |
//! | The visitor's turn | visitor | up |
//! | No game | centre | up |
#![warn(missing_docs)]

mod announce;
mod attention;
mod attitude;
mod blink;
mod category;
mod display;
mod emotion;
mod face;
mod input;
mod language;
mod lines;
mod millis;
mod mind;
mod mood;
mod reaction;
mod render;
mod rng;
mod rules;
mod settings;
mod signals;
mod strength;
mod voice;

pub use announce::AnnounceMoves;
pub use attitude::{Attitude, UnknownAttitude};
pub use category::Category;
pub use emotion::{Emotion, Expression};
pub use face::{FaceState, Gaze, NeckPose};
pub use input::{Evaluation, Input, Mistake, RobotResult};
pub use language::{Language, UnknownLanguage};
pub use millis::Millis;
pub use mind::{Mind, Output};
pub use mood::Mood;
pub use render::Frame;
pub use settings::{
    ByAttitude, Cooldowns, ExpressionSettings, FaceSettings, Impulse, Impulses, MoodSettings,
    Settings, SettingsError, VoiceSettings,
};
pub use voice::LineRequest;
