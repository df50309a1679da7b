//! A setting the robot cannot use, said in the operator's words: where it is written (the file
//! and line, or the environment variable), the key, the value as written, and what is wrong
//! with what is allowed.

use std::fmt;
use std::path::PathBuf;

use crate::validate::Problem;

/// Where a setting was written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// In the settings file, at `line` (from 1) when it is known.
    File {
        /// The file.
        path: PathBuf,
        /// The line.
        line: Option<usize>,
    },
    /// In an environment variable such as `CHECKERBOT_PLAY__LEVEL`.
    Environment {
        /// The variable's name.
        variable: String,
    },
    /// Nowhere: the built-in default (a combination of defaults and other settings).
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File {
                path,
                line: Some(line),
            } => write!(f, "{}, line {line}", path.display()),
            Origin::File { path, line: None } => write!(f, "{}", path.display()),
            Origin::Environment { variable } => write!(f, "environment variable {variable}"),
            Origin::Default => f.write_str("the built-in defaults"),
        }
    }
}

/// One setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError {
    /// Where it is written.
    pub origin: Origin,
    /// The key, as in the file (`play.level`); `None` when the file cannot be read as TOML at
    /// all.
    pub key: Option<String>,
    /// The value as written (`9`, `"evil"`); `None` for an unknown key, a secret, or a file
    /// that is not TOML.
    pub value: Option<String>,
    /// What is wrong, and what is allowed.
    pub message: String,
}

impl SettingError {
    /// A range problem, placed where its key is written.
    pub(crate) fn from_problem(problem: Problem, origin: Origin, written: Option<String>) -> Self {
        SettingError {
            origin,
            key: Some(problem.key),
            value: written.or(problem.value),
            message: problem.message,
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.origin)?;
        match (&self.key, &self.value) {
            (Some(key), Some(value)) => write!(f, "{key} = {value}: ")?,
            (Some(key), None) => write!(f, "{key}: ")?,
            (None, _) => {}
        }
        f.write_str(&self.message)
    }
}
