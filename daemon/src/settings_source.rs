//! Where the settings come from: `--config`, or the system's file when it exists. Every
//! command that reads the settings (`run`, `doctor`, `calibrate`) asks here, so they agree.

use std::path::{Path, PathBuf};

/// Where the settings are read from when `--config` is not given.
pub const SYSTEM_CONFIG: &str = "/etc/checkerbot/checkerbot.toml";

/// The settings file to read: the given one, or the system's when it exists.
pub fn config_path(given: Option<&Path>) -> Option<PathBuf> {
    given
        .map(Path::to_path_buf)
        .or_else(|| Some(PathBuf::from(SYSTEM_CONFIG)).filter(|p| p.exists()))
}
