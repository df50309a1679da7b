//! Reading the layers: defaults < file < environment.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use config::{Config, Environment, File, FileFormat};

use crate::sections::Settings;
use crate::validate::Problem;

/// Environment variables with this prefix override the file: `CHECKERBOT_PLAY__LEVEL=2`.
pub const ENV_PREFIX: &str = "CHECKERBOT";

/// Settings that cannot be used; the old settings stay in force where there are some.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file or an environment variable cannot be read or has an unknown key or a value
    /// of the wrong type; the message names the key.
    #[error("{}: {error}", path.as_ref().map_or_else(|| "environment".to_owned(), |p| p.display().to_string()))]
    Read {
        /// The file, if one was given.
        path: Option<PathBuf>,
        /// The config crate's error (its text names the key); shown in this error's message
        /// rather than chained, so it is printed once.
        error: config::ConfigError,
    },
    /// Values out of range.
    #[error("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid {
        /// Each one.
        problems: Vec<Problem>,
    },
}

/// Loads the settings from `file` (if given; it must exist then) and the process environment.
pub fn load(file: Option<&Path>) -> Result<Settings, LoadError> {
    load_with_env(file, std::env::vars())
}

/// Loads the settings from `file` and the given environment (tests pass their own).
pub fn load_with_env(
    file: Option<&Path>,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<Settings, LoadError> {
    let mut builder = Config::builder();
    if let Some(path) = file {
        builder = builder.add_source(File::from(path).format(FileFormat::Toml).required(true));
    }
    let env: HashMap<String, String> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with(&format!("{ENV_PREFIX}_")) && k.contains("__"))
        .collect();
    builder = builder.add_source(
        Environment::with_prefix(ENV_PREFIX)
            .prefix_separator("_")
            .separator("__")
            .try_parsing(true)
            .source(Some(env)),
    );
    settings_from(builder, file)
}

/// The settings a TOML text gives over the defaults, environment aside: what [`load`] makes of
/// a file holding `text`, for callers that hold the text itself (the fuzz target in `fuzz/`).
pub fn parse(text: &str) -> Result<Settings, LoadError> {
    settings_from(
        Config::builder().add_source(File::from_str(text, FileFormat::Toml)),
        Some(Path::new("(settings text)")),
    )
}

/// Builds the layers, reads them into settings and validates those; `file` names the source
/// in errors (`None`: the environment).
fn settings_from(
    builder: config::ConfigBuilder<config::builder::DefaultState>,
    file: Option<&Path>,
) -> Result<Settings, LoadError> {
    let read = |error| LoadError::Read {
        path: file.map(Path::to_path_buf),
        error,
    };
    let settings: Settings = builder
        .build()
        .map_err(read)?
        .try_deserialize()
        .map_err(read)?;
    let problems = settings.validate();
    if problems.is_empty() {
        Ok(settings)
    } else {
        Err(LoadError::Invalid { problems })
    }
}
