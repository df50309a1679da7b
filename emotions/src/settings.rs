//! Every number the model uses, with the defaults from `docs/design/emotion-model.md`.
//!
//! Operators tune the robot in the daemon's TOML file; the `config` crate embeds [`Settings`]
//! as a section. Every struct reads missing fields from its default, so a file names only what
//! it changes, and unknown fields are refused so a typo does not pass silently.

use serde::{Deserialize, Serialize};

use crate::announce::AnnounceMoves;
use crate::attitude::Attitude;
use crate::category::Category;
use crate::millis::Millis;

/// The robot's whole personality.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Friend or rival.
    pub attitude: Attitude,
    /// When the robot says its own moves aloud.
    pub announce_moves: AnnounceMoves,
    /// How the continuous state moves and fades.
    pub mood: MoodSettings,
    /// What each event does to the continuous state.
    pub impulses: Impulses,
    /// The thresholds and times of the discrete expression rules.
    pub expression: ExpressionSettings,
    /// When to speak.
    pub voice: VoiceSettings,
    /// Blinking, brows and neck.
    pub face: FaceSettings,
}

/// The continuous state: pleasure and confidence in `[-1, 1]`, arousal in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MoodSettings {
    /// Time for pleasure to fall halfway back to its resting level.
    pub pleasure_half_life_ms: Millis,
    /// Time for confidence to fall halfway back to 0 (it lasts longest: it is the robot's view
    /// of the whole game, not of one move).
    pub confidence_half_life_ms: Millis,
    /// Time for arousal to fall halfway back to 0.
    pub arousal_half_life_ms: Millis,
    /// Pleasure gained per unit rise of the win probability (a drop takes it away).
    pub pleasure_per_v: f32,
    /// Fraction of the way confidence moves toward `2v - 1` on each evaluation.
    pub confidence_pull: f32,
    /// Resting pleasure per unit of confidence: a robot that is clearly winning smiles at rest,
    /// one that is clearly losing looks glum.
    pub pleasure_from_confidence: f32,
    /// Arousal gained per unit of surprise `|v - v_pred|`.
    pub arousal_per_surprise: f32,
    /// An event repeated within `repeat_within_ms` moves the state only this much (x0.5)...
    pub repeat_factor: f32,
    /// ...of what it moved it the first time...
    pub repeat_within_ms: Millis,
    /// ...and recovers linearly to full effect by this time after the previous one.
    pub repeat_recovered_ms: Millis,
}

impl Default for MoodSettings {
    fn default() -> Self {
        MoodSettings {
            pleasure_half_life_ms: Millis(20_000),
            confidence_half_life_ms: Millis(60_000),
            arousal_half_life_ms: Millis(8_000),
            pleasure_per_v: 2.0,
            confidence_pull: 0.5,
            pleasure_from_confidence: 0.35,
            arousal_per_surprise: 1.5,
            repeat_factor: 0.5,
            repeat_within_ms: Millis(5_000),
            repeat_recovered_ms: Millis(20_000),
        }
    }
}

/// A change of the continuous state caused by one event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Impulse {
    /// Added to pleasure.
    pub pleasure: f32,
    /// Added to arousal.
    pub arousal: f32,
}

impl Impulse {
    const fn new(pleasure: f32, arousal: f32) -> Impulse {
        Impulse { pleasure, arousal }
    }
}

/// One event's impulse for each attitude.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ByAttitude {
    /// For the friendly robot.
    pub friendly: Impulse,
    /// For the rival.
    pub rival: Impulse,
}

impl ByAttitude {
    /// The impulse for `attitude`.
    pub fn get(&self, attitude: Attitude) -> Impulse {
        match attitude {
            Attitude::Friendly => self.friendly,
            Attitude::Rival => self.rival,
        }
    }
}

/// Emotion events as data (the Cozmo way): what each kind of event does to the state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Impulses {
    /// A game begins.
    pub game_start: ByAttitude,
    /// Per piece the robot captures.
    pub capture: ByAttitude,
    /// Per piece the visitor captures.
    pub lost_piece: ByAttitude,
    /// A rule break by the visitor.
    pub mistake: ByAttitude,
    /// The robot won.
    pub win: ByAttitude,
    /// The robot lost.
    pub loss: ByAttitude,
    /// A draw.
    pub draw: ByAttitude,
}

impl Default for Impulses {
    fn default() -> Self {
        let both = |friendly, rival| ByAttitude { friendly, rival };
        Impulses {
            game_start: both(Impulse::new(0.35, 0.3), Impulse::new(0.2, 0.4)),
            capture: both(Impulse::new(0.25, 0.3), Impulse::new(0.3, 0.35)),
            lost_piece: both(Impulse::new(-0.1, 0.15), Impulse::new(-0.35, 0.3)),
            mistake: both(Impulse::new(-0.05, 0.3), Impulse::new(-0.25, 0.4)),
            win: both(Impulse::new(0.8, 0.5), Impulse::new(0.9, 0.6)),
            loss: both(Impulse::new(-0.4, 0.3), Impulse::new(-0.8, 0.6)),
            draw: both(Impulse::new(0.0, 0.1), Impulse::new(-0.1, 0.2)),
        }
    }
}

/// The discrete rule list (first match wins) and how long its results stay on the face.
///
/// Every rule that fires starts at intensity 0.5 at its threshold and reaches 1 at its "full"
/// point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpressionSettings {
    /// Surprise `|v - v_pred|` at which the robot is surprised.
    pub surprise: f32,
    /// Surprise at which surprise is at full intensity.
    pub surprise_full: f32,
    /// A drop of v at least this large...
    pub fear_drop: f32,
    /// ...leaving v below this makes the robot afraid (friendly) or angry (rival).
    pub fear_below: f32,
    /// A rise of v at least this large makes the robot happy.
    pub happy_delta: f32,
    /// A drop of v at least this large makes the robot sad (friendly) or angry (rival).
    pub sad_delta: f32,
    /// A change of v this large gives a v-driven rule full intensity.
    pub delta_full: f32,
    /// A change of v at least this large is a blunder or a strong move, for the lines.
    pub swing: f32,
    /// Pleasure at which the resting face turns happy.
    pub happy_pleasure: f32,
    /// Pleasure at or below minus this turns the resting face sad (friendly) or angry (rival).
    pub sad_pleasure: f32,
    /// Pleasure (either sign) at which a mood expression is at full intensity.
    pub pleasure_full: f32,
    /// A mood expression stays until pleasure is this much past its threshold the other way.
    pub mood_hysteresis: f32,
    /// Captured pieces that make the capture joy (and its line) full.
    pub capture_full: f32,
    /// Shortest time an expression stays, unless a higher rule or a clearly stronger one comes.
    pub hold_ms: Millis,
    /// "Clearly stronger": the intensity by which a same-or-lower rule must beat the shown
    /// expression to replace it within the hold.
    pub switch_margin: f32,
    /// How long surprise shows before the reaction that follows it.
    pub surprise_ms: Millis,
    /// How long a reaction to a move or a mistake shows before the mood takes over.
    pub reaction_ms: Millis,
    /// How long the reaction to the end of a game shows.
    pub game_end_ms: Millis,
    /// Intensity of the joy at the start of a game.
    pub game_start_intensity: f32,
    /// Intensity of the reaction to the end of a game.
    pub game_end_intensity: f32,
    /// Intensity of the reaction to a first rule break; a repeated one is at 1.
    pub mistake_intensity: f32,
    /// A rule break within this time of the previous one is "repeated": the rival turns from
    /// disgusted to angry.
    pub escalation_ms: Millis,
}

impl Default for ExpressionSettings {
    fn default() -> Self {
        ExpressionSettings {
            surprise: 0.25,
            surprise_full: 0.5,
            fear_drop: 0.15,
            fear_below: 0.35,
            happy_delta: 0.08,
            sad_delta: 0.08,
            delta_full: 0.4,
            swing: 0.15,
            happy_pleasure: 0.3,
            sad_pleasure: 0.3,
            pleasure_full: 1.0,
            mood_hysteresis: 0.1,
            capture_full: 3.0,
            hold_ms: Millis(1_500),
            switch_margin: 0.25,
            surprise_ms: Millis(2_000),
            reaction_ms: Millis(4_000),
            game_end_ms: Millis(10_000),
            game_start_intensity: 0.75,
            game_end_intensity: 1.0,
            mistake_intensity: 0.75,
            escalation_ms: Millis(60_000),
        }
    }
}

/// When the robot speaks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VoiceSettings {
    /// Chance of speaking at intensity 1; a line is said with probability
    /// `speak_base x intensity`.
    pub speak_base: f32,
    /// No line starts within this time of the previous one (lines that always speak excepted).
    pub min_gap_ms: Millis,
    /// Per-category wait before the same category may speak again.
    pub cooldown_ms: Cooldowns,
    /// With no game and nobody at the board for this long, the robot invites passers-by (and
    /// again every `cooldown_ms.idle`).
    pub idle_after_ms: Millis,
    /// After a game, with nobody at the board for this long, the robot says goodbye once.
    pub goodbye_after_ms: Millis,
    /// How long the head stays up facing the visitor after a line starts.
    pub speaking_ms: Millis,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        VoiceSettings {
            speak_base: 0.7,
            min_gap_ms: Millis(4_000),
            cooldown_ms: Cooldowns::default(),
            idle_after_ms: Millis(45_000),
            goodbye_after_ms: Millis(20_000),
            speaking_ms: Millis(2_500),
        }
    }
}

/// Per-category cooldowns. Categories that always speak (illegal moves, must capture, fix the
/// board, win, loss, draw) have none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cooldowns {
    /// Wait between `game_start` lines.
    pub game_start: Millis,
    /// Wait between `thinking` lines.
    pub thinking: Millis,
    /// Wait between `good_move_self` lines.
    pub good_move_self: Millis,
    /// Wait between `opponent_strong_move` lines.
    pub opponent_strong_move: Millis,
    /// Wait between `opponent_blunder` lines.
    pub opponent_blunder: Millis,
    /// Wait between `self_blunder` lines.
    pub self_blunder: Millis,
    /// Wait between `capture` lines.
    pub capture: Millis,
    /// Wait between `lost_piece` lines.
    pub lost_piece: Millis,
    /// Wait between `surprise` lines.
    pub surprise: Millis,
    /// Wait between `idle` lines.
    pub idle: Millis,
    /// Wait between `goodbye` lines.
    pub goodbye: Millis,
}

impl Cooldowns {
    /// The cooldown of `category`.
    pub fn get(&self, category: Category) -> Millis {
        match category {
            Category::GameStart => self.game_start,
            Category::Thinking => self.thinking,
            Category::GoodMoveSelf => self.good_move_self,
            Category::OpponentStrongMove => self.opponent_strong_move,
            Category::OpponentBlunder => self.opponent_blunder,
            Category::SelfBlunder => self.self_blunder,
            Category::Capture => self.capture,
            Category::LostPiece => self.lost_piece,
            Category::Surprise => self.surprise,
            Category::Idle => self.idle,
            Category::Goodbye => self.goodbye,
            // The lines said every time wait for nothing.
            _ => {
                debug_assert!(category.always_speaks(), "{category:?} has no cooldown");
                Millis::ZERO
            }
        }
    }
}

impl Default for Cooldowns {
    fn default() -> Self {
        Cooldowns {
            game_start: Millis::ZERO,
            thinking: Millis(45_000),
            good_move_self: Millis(30_000),
            opponent_strong_move: Millis(20_000),
            opponent_blunder: Millis(20_000),
            self_blunder: Millis(20_000),
            capture: Millis(15_000),
            lost_piece: Millis(15_000),
            surprise: Millis(15_000),
            idle: Millis(60_000),
            goodbye: Millis::ZERO,
        }
    }
}

/// Blinking, brows and neck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FaceSettings {
    /// Mean time between blinks of a calm robot (each gap is drawn from half to one and a half
    /// times this).
    pub blink_every_ms: Millis,
    /// How long the eyes stay shut.
    pub blink_ms: Millis,
    /// Fraction by which full arousal shortens the time between blinks: an excited robot
    /// blinks more.
    pub blink_arousal_speedup: f32,
    /// Intensity from which the eyes take their strong shape.
    pub strong_from: f32,
    /// Brow rotation, in degrees, of an emotion at full intensity.
    pub brow_max_deg: f32,
    /// Neck tilt (degrees, positive up) while waiting or speaking.
    pub neck_up_deg: f32,
    /// Neck tilt (degrees, negative toward the board) while the arm moves or the robot thinks.
    pub neck_down_deg: f32,
}

impl Default for FaceSettings {
    fn default() -> Self {
        FaceSettings {
            blink_every_ms: Millis(4_000),
            blink_ms: Millis(150),
            blink_arousal_speedup: 0.5,
            strong_from: 0.75,
            brow_max_deg: 30.0,
            neck_up_deg: 10.0,
            neck_down_deg: -25.0,
        }
    }
}

/// A setting the model cannot work with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// A value outside its range.
    #[error("emotions setting {field} = {value} must be {expected}")]
    OutOfRange {
        /// The setting's path in the TOML section.
        field: &'static str,
        /// The value found.
        value: f64,
        /// The allowed range.
        expected: &'static str,
    },
    /// Two settings in the wrong order.
    #[error("emotions setting {field} must be greater than {lower}")]
    Order {
        /// The setting that must be greater.
        field: &'static str,
        /// The setting it must exceed.
        lower: &'static str,
    },
}

impl Settings {
    /// Checks the ranges an operator could get wrong. The model itself stays well-behaved with
    /// any values (it clamps), but a setting out of range means the robot will not act as the
    /// operator expects, so the config loader refuses it.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let m = &self.mood;
        unit("mood.confidence_pull", m.confidence_pull)?;
        unit("mood.pleasure_from_confidence", m.pleasure_from_confidence)?;
        unit("mood.repeat_factor", m.repeat_factor)?;
        non_negative("mood.pleasure_per_v", m.pleasure_per_v)?;
        non_negative("mood.arousal_per_surprise", m.arousal_per_surprise)?;
        ordered(
            "mood.repeat_recovered_ms",
            m.repeat_recovered_ms.0 as f32,
            "mood.repeat_within_ms",
            m.repeat_within_ms.0 as f32,
        )?;

        check_impulses(&self.impulses)?;

        let e = &self.expression;
        for (field, value) in [
            ("expression.surprise", e.surprise),
            ("expression.fear_drop", e.fear_drop),
            ("expression.fear_below", e.fear_below),
            ("expression.happy_delta", e.happy_delta),
            ("expression.sad_delta", e.sad_delta),
            ("expression.swing", e.swing),
            ("expression.happy_pleasure", e.happy_pleasure),
            ("expression.sad_pleasure", e.sad_pleasure),
            ("expression.switch_margin", e.switch_margin),
            ("expression.game_start_intensity", e.game_start_intensity),
            ("expression.game_end_intensity", e.game_end_intensity),
            ("expression.mistake_intensity", e.mistake_intensity),
        ] {
            unit(field, value)?;
        }
        ordered(
            "expression.surprise_full",
            e.surprise_full,
            "expression.surprise",
            e.surprise,
        )?;
        for (lower, value) in [
            ("expression.fear_drop", e.fear_drop),
            ("expression.happy_delta", e.happy_delta),
            ("expression.sad_delta", e.sad_delta),
        ] {
            ordered("expression.delta_full", e.delta_full, lower, value)?;
        }
        for (lower, value) in [
            ("expression.happy_pleasure", e.happy_pleasure),
            ("expression.sad_pleasure", e.sad_pleasure),
        ] {
            ordered("expression.pleasure_full", e.pleasure_full, lower, value)?;
            ordered(
                lower,
                value,
                "expression.mood_hysteresis",
                e.mood_hysteresis,
            )?;
        }
        non_negative("expression.mood_hysteresis", e.mood_hysteresis)?;
        ordered("expression.capture_full", e.capture_full, "one piece", 1.0)?;

        unit("voice.speak_base", self.voice.speak_base)?;

        let f = &self.face;
        unit("face.blink_arousal_speedup", f.blink_arousal_speedup)?;
        unit("face.strong_from", f.strong_from)?;
        for (field, value) in [
            ("face.brow_max_deg", f.brow_max_deg),
            ("face.neck_up_deg", f.neck_up_deg),
            ("face.neck_down_deg", f.neck_down_deg),
        ] {
            within(field, value, -90.0, 90.0, "within [-90, 90] degrees")?;
        }
        if f.blink_every_ms <= f.blink_ms {
            return Err(SettingsError::Order {
                field: "face.blink_every_ms",
                lower: "face.blink_ms",
            });
        }
        Ok(())
    }
}

/// The impulses' ranges, each value named by its whole key so that an error points at the
/// line to fix.
fn check_impulses(i: &Impulses) -> Result<(), SettingsError> {
    macro_rules! check_impulse {
        ($name:literal, $impulse:expr) => {
            for (pleasure, arousal, one) in [
                (
                    concat!("impulses.", $name, ".friendly.pleasure"),
                    concat!("impulses.", $name, ".friendly.arousal"),
                    $impulse.friendly,
                ),
                (
                    concat!("impulses.", $name, ".rival.pleasure"),
                    concat!("impulses.", $name, ".rival.arousal"),
                    $impulse.rival,
                ),
            ] {
                signed_unit(pleasure, one.pleasure)?;
                unit(arousal, one.arousal)?;
            }
        };
    }
    check_impulse!("game_start", i.game_start);
    check_impulse!("capture", i.capture);
    check_impulse!("lost_piece", i.lost_piece);
    check_impulse!("mistake", i.mistake);
    check_impulse!("win", i.win);
    check_impulse!("loss", i.loss);
    check_impulse!("draw", i.draw);
    Ok(())
}

fn within(
    field: &'static str,
    value: f32,
    low: f32,
    high: f32,
    expected: &'static str,
) -> Result<(), SettingsError> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(SettingsError::OutOfRange {
            field,
            value: f64::from(value),
            expected,
        })
    }
}

fn unit(field: &'static str, value: f32) -> Result<(), SettingsError> {
    within(field, value, 0.0, 1.0, "within [0, 1]")
}

fn signed_unit(field: &'static str, value: f32) -> Result<(), SettingsError> {
    within(field, value, -1.0, 1.0, "within [-1, 1]")
}

fn non_negative(field: &'static str, value: f32) -> Result<(), SettingsError> {
    within(field, value, 0.0, f32::MAX, "a finite number >= 0")
}

fn ordered(
    field: &'static str,
    value: f32,
    lower: &'static str,
    lower_value: f32,
) -> Result<(), SettingsError> {
    if value > lower_value {
        Ok(())
    } else {
        Err(SettingsError::Order { field, lower })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp, reason = "the values are exact by construction")]
    fn defaults_are_valid_and_are_the_documented_numbers() {
        let s = Settings::default();
        s.validate().unwrap();
        assert_eq!(s.mood.pleasure_half_life_ms, Millis(20_000));
        assert_eq!(s.mood.confidence_half_life_ms, Millis(60_000));
        assert_eq!(s.mood.arousal_half_life_ms, Millis(8_000));
        assert_eq!(s.expression.surprise, 0.25);
        assert_eq!(s.expression.surprise_full, 0.5);
        assert_eq!(s.expression.hold_ms, Millis(1_500));
    }

    #[test]
    fn a_line_said_every_time_has_no_cooldown_and_every_other_has_a_setting() {
        // Set every setting: a category that is not said every time and has none would fail
        // `get`'s debug assertion, and one that is would not be zero.
        let cooldowns: Cooldowns = serde_json::from_value(serde_json::json!({
            "game_start": 1, "thinking": 1, "good_move_self": 1, "opponent_strong_move": 1,
            "opponent_blunder": 1, "self_blunder": 1, "capture": 1, "lost_piece": 1,
            "surprise": 1, "idle": 1, "goodbye": 1,
        }))
        .unwrap();
        for category in Category::ALL {
            let wait = cooldowns.get(category);
            assert_eq!(
                wait == Millis::ZERO,
                category.always_speaks(),
                "{category:?}"
            );
        }
    }

    #[test]
    fn a_partial_section_keeps_the_other_defaults() {
        let s: Settings = serde_json::from_str(
            r#"{"attitude": "rival", "expression": {"hold_ms": 2000},
                "voice": {"cooldown_ms": {"thinking": 1000}}}"#,
        )
        .unwrap();
        assert_eq!(s.attitude, Attitude::Rival);
        assert_eq!(s.expression.hold_ms, Millis(2_000));
        assert_eq!(
            s.expression,
            ExpressionSettings {
                hold_ms: Millis(2_000),
                ..ExpressionSettings::default()
            }
        );
        assert_eq!(s.voice.cooldown_ms.get(Category::Thinking), Millis(1_000));
        assert_eq!(s.voice.cooldown_ms.get(Category::Idle), Millis(60_000));
        let round_trip: Settings =
            serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(round_trip, s);
    }

    #[test]
    fn typos_and_bad_ranges_are_refused() {
        let typo = serde_json::from_str::<Settings>(r#"{"expression": {"hold": 2000}}"#);
        assert!(typo.unwrap_err().to_string().contains("unknown field"));

        let mut s = Settings::default();
        s.voice.speak_base = 1.5;
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "emotions setting voice.speak_base = 1.5 must be within [0, 1]"
        );

        let mut s = Settings::default();
        s.expression.surprise_full = 0.2;
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "emotions setting expression.surprise_full must be greater than expression.surprise"
        );

        let mut s = Settings::default();
        s.impulses.win.rival.pleasure = f32::NAN;
        assert!(s.validate().is_err());
    }
}
