//! checkerbot's settings: what an operator tunes in `checkerbot.toml`.
//!
//! Sources are layered: built-in defaults, then the TOML file, then environment variables
//! `CHECKERBOT_<SECTION>__<KEY>` (for example `CHECKERBOT_PLAY__LEVEL=2`). Every section
//! refuses unknown keys, so a typo such as `atitude` is an error naming the key instead of a
//! setting silently ignored. [`Settings::validate`] then checks ranges and names what is
//! allowed. `config/checkerbot.toml` in the repository documents every key with its default.
#![warn(missing_docs)]

mod engine_spec;
mod file_check;
mod host_name;
mod load;
mod sections;
mod setting_error;
mod validate;

pub use engine_spec::{EngineSpec, EngineSpecError};
pub use host_name::{HostName, HostNameError};
pub use load::{ENV_PREFIX, LoadError, load, load_with_env, parse};
// The level is the host's type (its events name it), like the coach's settings.
pub use host::{PlayLevel, PlayLevelError};
pub use sections::{
    ArmKind, DeviceSettings, EngineLevels, GameMode, GameSettings, OperatorSettings, PathSettings,
    PlaySettings, RobotSide, SensorSettings, Settings,
};
pub use setting_error::{Origin, SettingError};
pub use validate::Problem;
