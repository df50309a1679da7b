//! Range checks that types alone cannot express, with messages naming key, value and range.

use std::fmt;

use crate::PlayLevel;
use crate::host_name::HostName;
use crate::sections::Settings;

/// The shortest token accepted for the operator page's control actions.
pub const MIN_TOKEN_LEN: usize = 8;

/// One setting that is out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The key, as in the file: `play.level`.
    pub key: String,
    /// The value, written as in the file (`9`, `"/opt/models"`); `None` for a secret.
    pub value: Option<String>,
    /// What is wrong and what is allowed.
    pub message: String,
    /// The other key of an order between two (`coach.mistake` for "`coach.blunder` must be
    /// greater than `coach.mistake`"): where the problem comes from when the file sets that
    /// one and not `key`.
    pub related: Option<String>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(value) => write!(f, "{} = {value}: {}", self.key, self.message),
            None => write!(f, "{}: {}", self.key, self.message),
        }
    }
}

/// What a ranged key allows, in the operator's words: said when its value is out of range and
/// when it has the wrong type.
pub(crate) fn allowed(key: &str) -> Option<&'static str> {
    Some(match key {
        "play.level" => "levels run from 1 (gentle) to 5 (strongest), or write \"adaptive\"",
        "play.adaptive_target" => {
            "the visitor's expected score the adaptive level aims at is 0.2 to 0.8"
        }
        "play.move_time_ms" => "the robot's time a move is 100 to 60000 milliseconds",
        "play.threads" => "the search runs on 1 to 64 threads",
        "sensor.debounce_reads" => "the reads that must agree are 1 to 50",
        "sensor.read_interval_ms" => "the time between reads is 1 to 1000 milliseconds",
        "devices.baud" => {
            "use one of 9600, 19200, 38400, 57600, 115200 (the Dobot's), 230400, 460800, 921600"
        }
        "sounds.volume" => "the volume is 0 (silent) to 1 (full)",
        _ => return None,
    })
}

/// A path as TOML writes it.
fn quoted(path: &std::path::Path) -> String {
    format!("{:?}", path.display().to_string())
}

/// The problems found so far.
#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    /// Records a problem with `key` unless `ok`.
    fn check(&mut self, ok: bool, key: &str, value: Option<String>, message: String) {
        if !ok {
            self.0.push(Problem {
                key: key.to_owned(),
                value,
                message,
                related: None,
            });
        }
    }

    /// Names the other key of the last problem's order (see [`Problem::related`]).
    fn relate_last(&mut self, related: Option<String>) {
        if let Some(problem) = self.0.last_mut() {
            problem.related = related;
        }
    }

    /// A ranged number: `allowed(key)` says the range.
    fn in_range(&mut self, ok: bool, key: &str, value: &dyn ToString, prefix: &str) {
        let allowed = allowed(key).unwrap_or_default();
        self.check(
            ok,
            key,
            Some(value.to_string()),
            format!("{prefix}{allowed}"),
        );
    }
}

impl Settings {
    /// Every out-of-range setting (empty when all is well).
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Problems::default();
        self.check_numbers(&mut problems);
        self.check_paths(&mut problems);
        self.check_operator(&mut problems);
        self.check_emotions_and_sounds(&mut problems);
        self.check_engine(&mut problems);
        problems.0
    }

    fn check_engine(&self, problems: &mut Problems) {
        let engine = &self.play.engine;
        if !engine.trim().is_empty()
            && let Err(err) = crate::EngineSpec::parse(engine)
        {
            problems.check(
                false,
                "play.engine",
                Some(format!("{engine:?}")),
                format!(
                    "{err} (or leave it empty for the robot's own player; see the operator \
                     guide, \"External engines\")"
                ),
            );
        }
        if let Some(crate::EngineSpec::Dxp { .. }) = self.play.engine()
            && self.game.variant != rules::Variant::International
        {
            problems.check(
                false,
                "play.engine",
                Some(format!("{engine:?}")),
                format!(
                    "is a DXP engine, and DXP plays International only, not {}; set \
                     game.variant = \"international\" or use a hub: engine",
                    self.game.variant
                ),
            );
        }
    }

    fn check_numbers(&self, problems: &mut Problems) {
        let level = self.play.level;
        problems.in_range(
            level
                .fixed()
                .is_none_or(|level| PlayLevel::FIXED.contains(&level)),
            "play.level",
            &level,
            "not a level; ",
        );
        let target = self.play.adaptive_target;
        problems.in_range(
            (0.2..=0.8).contains(&target),
            "play.adaptive_target",
            &target,
            "",
        );
        let time = self.play.move_time_ms;
        problems.in_range(
            (100..=60_000).contains(&time),
            "play.move_time_ms",
            &time,
            "",
        );
        let threads = self.play.threads;
        problems.in_range((1..=64).contains(&threads), "play.threads", &threads, "");
        let reads = self.sensor.debounce_reads;
        problems.in_range(
            (1..=50).contains(&reads),
            "sensor.debounce_reads",
            &reads,
            "",
        );
        let interval = self.sensor.read_interval_ms;
        problems.in_range(
            (1..=1_000).contains(&interval),
            "sensor.read_interval_ms",
            &interval,
            "",
        );
        let baud = self.devices.baud;
        let standard = [
            9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
        ];
        problems.in_range(
            standard.contains(&baud),
            "devices.baud",
            &baud,
            "not a standard rate; ",
        );
    }

    fn check_paths(&self, problems: &mut Problems) {
        if let Some(dir) = &self.paths.models_dir {
            problems.check(
                !dir.as_os_str().is_empty(),
                "paths.models_dir",
                Some(quoted(dir)),
                "is empty; name the folder of the .onnx networks or leave the key out".to_owned(),
            );
            problems.check(
                !dir.is_file(),
                "paths.models_dir",
                Some(quoted(dir)),
                "is a file; name the folder that holds the .onnx networks".to_owned(),
            );
        }
        if let Some(lib) = &self.paths.onnxruntime {
            problems.check(
                !lib.as_os_str().is_empty(),
                "paths.onnxruntime",
                Some(quoted(lib)),
                "is empty; name the library file or leave the key out".to_owned(),
            );
            problems.check(
                !lib.is_dir(),
                "paths.onnxruntime",
                Some(quoted(lib)),
                format!(
                    "is a folder; name the library file itself, such as \
                     {}/libonnxruntime.so.1.32.0",
                    lib.display()
                ),
            );
        }
    }

    fn check_operator(&self, problems: &mut Problems) {
        if let Some(token) = &self.operator.token {
            // The token is a secret: it is not repeated in the message.
            problems.check(
                token.trim().len() >= MIN_TOKEN_LEN && !token.chars().any(char::is_whitespace),
                "operator.token",
                None,
                format!(
                    "must be at least {MIN_TOKEN_LEN} characters without spaces (the page sends \
                     it as `Authorization: Bearer <token>`); choose a longer one or leave the \
                     key out"
                ),
            );
        }
        for name in &self.operator.hostnames {
            if let Err(err) = HostName::parse(name) {
                problems.check(
                    false,
                    "operator.hostnames",
                    None,
                    format!(
                        "{name:?} {err} (the names the operator page is reached by besides its \
                         address and localhost)"
                    ),
                );
            }
        }
        let bind = self.operator.bind;
        // Said at operator.bind, the line that opened the page to the network.
        problems.check(
            !self.operator.enabled || bind.ip().is_loopback() || self.operator.token.is_some(),
            "operator.bind",
            Some(format!("\"{bind}\"")),
            "is not a loopback address, so operator.token is required, or anyone on the \
             network could steer the robot; set a token or bind to 127.0.0.1"
                .to_owned(),
        );
    }

    fn check_emotions_and_sounds(&self, problems: &mut Problems) {
        if let Err(err) = self.emotions.validate() {
            let (key, value, message, related) = match err {
                emotions::SettingsError::OutOfRange {
                    field,
                    value,
                    expected,
                } => (
                    format!("emotions.{field}"),
                    Some(value.to_string()),
                    format!("must be {expected}"),
                    None,
                ),
                emotions::SettingsError::Order { field, lower } => (
                    format!("emotions.{field}"),
                    None,
                    format!("must be greater than emotions.{lower}"),
                    Some(format!("emotions.{lower}")),
                ),
            };
            problems.check(false, &key, value, message);
            problems.relate_last(related);
        }
        if let Err(err) = self.coach.validate() {
            let (key, value, related) = match err {
                host::CoachSettingsError::OutOfRange { field, value } => {
                    (field, Some(value.to_string()), None)
                }
                host::CoachSettingsError::Order { field, lower } => {
                    (field, None, Some(format!("coach.{lower}")))
                }
            };
            problems.check(false, &format!("coach.{key}"), value, err.to_string());
            problems.relate_last(related);
        }
        if let Err(sounds::SettingsError::Volume(volume)) = self.sounds.validate() {
            problems.in_range(false, "sounds.volume", &volume, "");
        }
    }
}
