//! Range checks that types alone cannot express, with messages naming key, value and range.

use std::fmt;

use crate::sections::Settings;

/// The shortest token accepted for the operator page's control actions.
pub const MIN_TOKEN_LEN: usize = 8;

/// One setting that is out of range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The key, as in the file: `play.level`.
    pub key: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl Settings {
    /// Every out-of-range setting (empty when all is well).
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut check = |ok: bool, key: &str, message: String| {
            if !ok {
                problems.push(Problem {
                    key: key.to_owned(),
                    message,
                });
            }
        };
        let level = self.play.level;
        check(
            (1..=5).contains(&level),
            "play.level",
            format!("{level} is not a level; levels run from 1 (gentle) to 5 (strongest)"),
        );
        let time = self.play.move_time_ms;
        check(
            (100..=60_000).contains(&time),
            "play.move_time_ms",
            format!("{time} ms is outside 100..60000"),
        );
        let reads = self.sensor.debounce_reads;
        check(
            (1..=50).contains(&reads),
            "sensor.debounce_reads",
            format!("{reads} reads is outside 1..50"),
        );
        let interval = self.sensor.read_interval_ms;
        check(
            (1..=1_000).contains(&interval),
            "sensor.read_interval_ms",
            format!("{interval} ms is outside 1..1000"),
        );
        let baud = self.devices.baud;
        check(
            [
                9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600,
            ]
            .contains(&baud),
            "devices.baud",
            format!("{baud} is not a standard rate such as 115200"),
        );
        if let Some(dir) = &self.paths.models_dir {
            check(
                !dir.as_os_str().is_empty(),
                "paths.models_dir",
                "is empty; name the folder of the .onnx networks or leave the key out".to_owned(),
            );
            check(
                !dir.is_file(),
                "paths.models_dir",
                format!(
                    "{} is a file; name the folder that holds the .onnx networks",
                    dir.display()
                ),
            );
        }
        if let Some(lib) = &self.paths.onnxruntime {
            check(
                !lib.as_os_str().is_empty(),
                "paths.onnxruntime",
                "is empty; name the library file or leave the key out".to_owned(),
            );
            check(
                !lib.is_dir(),
                "paths.onnxruntime",
                format!(
                    "{} is a folder; name the library file itself, such as {}/libonnxruntime.so.1.32.0",
                    lib.display(),
                    lib.display()
                ),
            );
        }
        if let Some(token) = &self.operator.token {
            check(
                token.trim().len() >= MIN_TOKEN_LEN && !token.chars().any(char::is_whitespace),
                "operator.token",
                format!(
                    "must be at least {MIN_TOKEN_LEN} characters without spaces (the page sends \
                     it as `Authorization: Bearer <token>`); choose a longer one or leave the \
                     key out"
                ),
            );
        }
        let bind = self.operator.bind;
        check(
            !self.operator.enabled || bind.ip().is_loopback() || self.operator.token.is_some(),
            "operator.token",
            format!(
                "is required when operator.bind ({bind}) is not a loopback address, or anyone on \
                 the network could steer the robot; set a token or bind to 127.0.0.1"
            ),
        );
        if let Err(err) = self.emotions.validate() {
            check(false, "emotions", err.to_string());
        }
        if let Err(err) = self.sounds.validate() {
            check(false, "sounds", err.to_string());
        }
        problems
    }
}
