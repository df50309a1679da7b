//! Reading the layers: defaults < file < environment.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use config::{Config, Environment, File, FileFormat};

use crate::file_check::{check_file, in_operator_words, locate};
use crate::sections::Settings;
use crate::setting_error::{Origin, SettingError};

/// Environment variables with this prefix override the file: `CHECKERBOT_PLAY__LEVEL=2`.
pub const ENV_PREFIX: &str = "CHECKERBOT";

/// Settings that cannot be used; the old settings stay in force where there are some.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The settings file cannot be read (missing, no permission).
    #[error("cannot read the settings file {}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Settings that cannot be used, each placed where it is written (file and line, or
    /// environment variable) with its key, its value and what is allowed.
    #[error("{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid {
        /// Each one.
        errors: Vec<SettingError>,
    },
}

impl From<SettingError> for LoadError {
    fn from(error: SettingError) -> LoadError {
        LoadError::Invalid {
            errors: vec![error],
        }
    }
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
    let env: HashMap<String, String> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with(&format!("{ENV_PREFIX}_")) && k.contains("__"))
        .collect();
    let text = match file {
        Some(path) => {
            Some(
                std::fs::read_to_string(path).map_err(|source| LoadError::Unreadable {
                    path: path.to_path_buf(),
                    source,
                })?,
            )
        }
        None => None,
    };
    let mut builder = Config::builder();
    if let Some(text) = &text {
        builder = builder.add_source(File::from_str(text, FileFormat::Toml));
    }
    builder = builder.add_source(
        Environment::with_prefix(ENV_PREFIX)
            .prefix_separator("_")
            .separator("__")
            .try_parsing(true)
            // The one list an operator may need to set from the unit's environment:
            // `CHECKERBOT_OPERATOR__HOSTNAMES=robot.local,10.0.0.5`.
            .list_separator(",")
            .with_list_parse_key("operator.hostnames")
            .source(Some(env.clone())),
    );
    let file = file.zip(text.as_deref());
    settings_from(builder, file, &env)
}

/// The settings a TOML text gives over the defaults, environment aside: what [`load`] makes of
/// a file holding `text`, for callers that hold the text itself (the fuzz target in `fuzz/`).
pub fn parse(text: &str) -> Result<Settings, LoadError> {
    settings_from(
        Config::builder().add_source(File::from_str(text, FileFormat::Toml)),
        Some((Path::new("(settings text)"), text)),
        &HashMap::new(),
    )
}

/// The environment variable that sets `key` (`play.level`): `CHECKERBOT_PLAY__LEVEL`.
fn variable(key: &str) -> String {
    format!("{ENV_PREFIX}_{}", key.to_uppercase().replace('.', "__"))
}

/// Checks the file (`path` holding `text`) on its own, then builds the layers, reads them into
/// settings and validates those, placing each error where it is written.
fn settings_from(
    builder: config::ConfigBuilder<config::builder::DefaultState>,
    file: Option<(&Path, &str)>,
    env: &HashMap<String, String>,
) -> Result<Settings, LoadError> {
    if let Some((path, text)) = file {
        check_file(path, text)?;
    }
    // The file is sound, so what the layers still refuse comes from the environment.
    let settings: Settings = builder
        .build()
        .and_then(config::Config::try_deserialize)
        .map_err(|error| environment_error(&error, env))?;
    let errors: Vec<SettingError> = settings
        .validate()
        .into_iter()
        .map(|problem| {
            let written_in_file = file.and_then(|(path, text)| {
                let related = || {
                    let key = problem.related.as_deref()?;
                    locate(text, key).map(|(line, _)| (path, line, None))
                };
                locate(text, &problem.key)
                    .map(|(line, value)| (path, line, Some(value)))
                    .or_else(related)
            });
            let env_name = variable(&problem.key);
            match (written_in_file, env.get(&env_name)) {
                // The environment wins over the file.
                (_, Some(value)) => SettingError::from_problem(
                    problem,
                    Origin::Environment { variable: env_name },
                    Some(value.clone()),
                ),
                (Some((path, line, value)), None) => SettingError::from_problem(
                    problem,
                    Origin::File {
                        path: path.to_path_buf(),
                        line: Some(line),
                    },
                    value,
                ),
                (None, None) => SettingError::from_problem(problem, Origin::Default, None),
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(settings)
    } else {
        Err(LoadError::Invalid { errors })
    }
}

/// An error of the `config` crate once the file is known to be sound: an environment
/// variable that cannot be read, named with its key and value.
fn environment_error(error: &config::ConfigError, env: &HashMap<String, String>) -> SettingError {
    let text = error.to_string();
    // The crate appends "for key `play.level`" to what it cannot deserialize.
    let key = text
        .split_once("for key `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(key, _)| key.to_owned());
    let message = text
        .split_once(" for key `")
        .map_or(text.as_str(), |(message, _)| message);
    let variable_name = key.as_deref().map(variable);
    let value = variable_name
        .as_ref()
        .and_then(|name| env.get(name))
        .cloned();
    // The same value written in a file says what is wrong in the file's words ("unknown value
    // `evil`, expected `friendly` or `rival`" rather than the crate's "enum Attitude does not
    // have variant constructor evil").
    let as_in_a_file = key
        .as_deref()
        .zip(value.as_deref())
        .and_then(|(key, value)| {
            let text = format!("{key} = {}", toml::Value::String(value.to_owned()));
            check_file(Path::new("(environment)"), &text).err()
        });
    SettingError {
        origin: Origin::Environment {
            variable: variable_name.unwrap_or_else(|| format!("{ENV_PREFIX}_*")),
        },
        key,
        value,
        message: as_in_a_file.map_or_else(|| in_operator_words(message), |error| error.message),
    }
}
