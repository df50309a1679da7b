//! The model: one step per input, a pure function of the state, the input and the time.

use crate::attention::{Activity, attention};
use crate::attitude::Attitude;
use crate::blink::Blink;
use crate::category::Category;
use crate::display::Display;
use crate::emotion::Expression;
use crate::face::FaceState;
use crate::input::{Input, Mistake, RobotResult};
use crate::lines;
use crate::millis::Millis;
use crate::mood::{Feelings, Mood, Stimulus};
use crate::reaction::Reaction;
use crate::rules;
use crate::settings::Settings;
use crate::signals::{Signals, Swing};
use crate::voice::{LineRequest, Voice};

/// What one step produces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Output {
    /// What the face shows now.
    pub face: FaceState,
    /// A line to say, if the robot speaks now.
    pub line: Option<LineRequest>,
}

/// The robot's emotional state and everything it remembers to decide the next face and line.
///
/// [`Mind::step`] reads no clock and no global randomness: the same settings, seed, inputs and
/// times always give the same outputs, and a clone steps exactly like the original. That is the
/// `step(state, input, now) -> (state, expression, line)` of the design, with the state
/// updated in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Mind {
    settings: Settings,
    feelings: Feelings,
    display: Display,
    reaction: Option<Reaction>,
    voice: Voice,
    blink: Blink,
    /// The win probability at the previous evaluation of this game.
    previous_v: Option<f32>,
    /// The last rule break, for the rival's escalation.
    last_mistake: Option<Millis>,
    activity: Activity,
    arm_moving: bool,
    /// The last sign of someone at the board.
    last_seen: Millis,
    goodbye_due: bool,
    next_idle: Millis,
    speaking_until: Millis,
}

impl Mind {
    /// A calm robot with no game, its dice seeded with `seed`.
    pub fn new(settings: Settings, seed: u64) -> Mind {
        let blink = Blink::new(seed.rotate_left(32) ^ 0xB11C_B11C_B11C_B11C, &settings.face);
        Mind {
            feelings: Feelings::new(),
            display: Display::new(),
            reaction: None,
            voice: Voice::new(seed),
            blink,
            previous_v: None,
            last_mistake: None,
            activity: Activity::NoGame,
            arm_moving: false,
            last_seen: Millis::ZERO,
            goodbye_due: false,
            next_idle: Millis::ZERO,
            speaking_until: Millis::ZERO,
            settings,
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings (a config reload); the state carries on.
    pub fn set_settings(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// The continuous state, for the operator page.
    pub fn mood(&self) -> Mood {
        self.feelings.mood()
    }

    /// What the face shows after the last step.
    pub fn expression(&self) -> Expression {
        self.display.shown().expression
    }

    /// Takes in `input`, which happened at `now`, and returns the face and maybe a line.
    pub fn step(&mut self, input: Input, now: Millis) -> Output {
        self.feelings.advance(now, &self.settings.mood);
        let reaction_before = self.reaction;
        let line = match self.take_in(input, now) {
            Some(line) => Some(line),
            None => self.pass_time(now),
        };
        if line.is_some() {
            self.speaking_until = now.plus(self.settings.voice.speaking_ms);
        }

        let shown = self.display.shown().expression.emotion;
        let wanted = self
            .reaction
            .and_then(|reaction| reaction.at(now))
            .unwrap_or_else(|| {
                rules::mood(
                    self.feelings.mood().pleasure,
                    self.settings.attitude,
                    shown,
                    &self.settings.expression,
                )
            });
        let fresh = self.reaction != reaction_before;
        self.display
            .offer(wanted, fresh, now, &self.settings.expression);

        let (gaze, neck) = attention(self.activity, self.arm_moving, now < self.speaking_until);
        let eyes_closed =
            self.blink
                .eyes_closed(now, self.feelings.mood().arousal, &self.settings.face);
        Output {
            face: FaceState {
                expression: self.display.shown().expression,
                gaze,
                neck,
                eyes_closed,
            },
            line,
        }
    }

    fn take_in(&mut self, input: Input, now: Millis) -> Option<LineRequest> {
        match input {
            Input::Tick => None,
            Input::VisitorActivity => {
                self.last_seen = now;
                None
            }
            Input::GameStarted => self.game_started(now),
            Input::VisitorMove { captured } => {
                self.last_seen = now;
                let (category, intensity) =
                    lines::after_visitor_move(captured, &self.settings.expression)?;
                self.feel(Stimulus::LostPiece, captured, now);
                self.say(category, intensity, None, now)
            }
            Input::VisitorMistake(mistake) => self.mistake(mistake, now),
            Input::RobotThinking => {
                self.activity = Activity::Thinking;
                self.say(Category::Thinking, 1.0, None, now)
            }
            Input::RobotMove(evaluation) => {
                self.activity = Activity::VisitorTurn;
                self.arm_moving = true;
                let s = &self.settings;
                let signals = Signals::read(self.previous_v, &evaluation, &s.expression);
                self.previous_v = Some(signals.v);
                let praise =
                    s.attitude == Attitude::Friendly && signals.swing == Swing::VisitorStrongMove;
                let change = if praise {
                    signals.delta.abs()
                } else {
                    signals.delta
                };
                self.feelings.appraise(
                    s.mood.pleasure_per_v * change,
                    signals.level,
                    signals.surprise,
                    &s.mood,
                );
                self.feel(Stimulus::Capture, evaluation.captures, now);
                let s = &self.settings;
                let reaction =
                    rules::robot_move(&signals, evaluation.captures, s.attitude, &s.expression);
                if let Some(reaction) = Reaction::after_move(reaction, now, &s.expression) {
                    self.reaction = Some(reaction);
                }
                let (category, intensity) =
                    lines::after_robot_move(&signals, evaluation.captures, &s.expression)?;
                self.say(category, intensity, None, now)
            }
            Input::ArmDone => {
                self.arm_moving = false;
                self.last_seen = now;
                let s = &self.settings;
                if s.announce_moves.applies(s.attitude) {
                    self.say(Category::RobotMove, 1.0, None, now)
                } else {
                    None
                }
            }
            Input::BoardMismatch => self.say(Category::FixBoard, 1.0, None, now),
            Input::Advice => self.say(Category::Advice, 1.0, None, now),
            Input::Hint => {
                self.last_seen = now;
                self.say(Category::Hint, 1.0, None, now)
            }
            Input::TakeBackOffered => self.say(Category::TakeBack, 1.0, None, now),
            Input::Praise => self.say(Category::Praise, 1.0, None, now),
            Input::GameOver(outcome) => self.game_over(outcome, now),
            Input::TidyingUp => {
                self.last_seen = now;
                self.say(Category::TidyUp, 1.0, None, now)
            }
            Input::PuzzleSetUp => {
                self.activity = Activity::VisitorTurn;
                self.last_seen = now;
                self.say(Category::Puzzle, 1.0, None, now)
            }
            Input::PuzzleMissed => {
                self.last_seen = now;
                self.say(Category::PuzzleMiss, 1.0, None, now)
            }
            Input::CrownByHand => self.say(Category::CrownByHand, 1.0, None, now),
        }
    }

    fn game_started(&mut self, now: Millis) -> Option<LineRequest> {
        self.activity = Activity::VisitorTurn;
        self.previous_v = None;
        self.last_mistake = None;
        self.last_seen = now;
        self.goodbye_due = false;
        self.feelings.reset_confidence();
        self.feel(Stimulus::GameStart, 1, now);
        let candidate = rules::game_started(&self.settings.expression);
        self.reaction = Some(Reaction::single(
            candidate,
            now,
            self.settings.expression.reaction_ms,
        ));
        self.say(Category::GameStart, 1.0, None, now)
    }

    fn mistake(&mut self, mistake: Mistake, now: Millis) -> Option<LineRequest> {
        self.last_seen = now;
        if mistake.breaks_rules() {
            let s = &self.settings.expression;
            let repeated = self
                .last_mistake
                .is_some_and(|last| now.since(last) < s.escalation_ms);
            self.last_mistake = Some(now);
            let candidate = rules::mistake(self.settings.attitude, repeated, s);
            self.reaction = Some(Reaction::single(candidate, now, s.reaction_ms));
            self.feel(Stimulus::Mistake, 1, now);
        }
        self.say(mistake.category(), 1.0, Some(mistake), now)
    }

    fn game_over(&mut self, outcome: RobotResult, now: Millis) -> Option<LineRequest> {
        self.activity = Activity::NoGame;
        self.last_seen = now;
        self.goodbye_due = true;
        let (stimulus, category) = match outcome {
            RobotResult::Win => (Stimulus::Win, Category::Win),
            RobotResult::Loss => (Stimulus::Loss, Category::Loss),
            RobotResult::Draw => (Stimulus::Draw, Category::Draw),
        };
        self.feel(stimulus, 1, now);
        let s = &self.settings.expression;
        let candidate = rules::game_over(outcome, self.settings.attitude, s);
        self.reaction = Some(Reaction::single(candidate, now, s.game_end_ms));
        self.say(category, 1.0, None, now)
    }

    /// Lines nobody asked for: goodbye once after a game when the visitor has gone quiet, then
    /// an invitation to passers-by every idle cooldown.
    fn pass_time(&mut self, now: Millis) -> Option<LineRequest> {
        if self.activity != Activity::NoGame {
            return None;
        }
        let quiet = now.since(self.last_seen);
        let voice = &self.settings.voice;
        if self.goodbye_due && quiet >= voice.goodbye_after_ms {
            self.goodbye_due = false;
            return self.say(Category::Goodbye, 1.0, None, now);
        }
        if quiet >= voice.idle_after_ms && now >= self.next_idle {
            self.next_idle = now.plus(voice.cooldown_ms.idle);
            return self.say(Category::Idle, 1.0, None, now);
        }
        None
    }

    fn feel(&mut self, stimulus: Stimulus, count: u8, now: Millis) {
        if count > 0 {
            let s = &self.settings;
            self.feelings.feel(
                stimulus,
                f32::from(count),
                s.attitude,
                &s.impulses,
                &s.mood,
                now,
            );
        }
    }

    fn say(
        &mut self,
        category: Category,
        intensity: f32,
        mistake: Option<Mistake>,
        now: Millis,
    ) -> Option<LineRequest> {
        self.voice
            .speaks(category, intensity, now, &self.settings.voice)
            .then_some(LineRequest {
                category,
                attitude: self.settings.attitude,
                mistake,
            })
    }
}
