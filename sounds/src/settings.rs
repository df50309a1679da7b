//! What the operator sets about the voice.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::library::Library;
use emotions::Language;

/// The `[sounds]` settings. Every field has a default, so a config names only what it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SoundSettings {
    /// The language the robot speaks.
    pub language: Language,
    /// Playback volume in `[0, 1]`; the speaker can change it while running.
    pub volume: f32,
    /// How many of the last lines said are not repeated (see [`LineChooser`](crate::LineChooser)).
    pub no_repeat: usize,
    /// The directory holding one pack directory per language.
    pub packs_dir: PathBuf,
    /// The operator's recordings and phrasings (see the crate docs), if any.
    pub overrides_dir: Option<PathBuf>,
}

impl Default for SoundSettings {
    fn default() -> Self {
        SoundSettings {
            language: Language::English,
            volume: 0.8,
            no_repeat: 8,
            packs_dir: PathBuf::from(Library::BUNDLED),
            overrides_dir: None,
        }
    }
}

/// A sound setting the robot cannot work with.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// The volume is outside `[0, 1]`: louder would clip the speech.
    #[error("sounds setting volume = {0} must be within [0, 1]")]
    Volume(f32),
}

impl SoundSettings {
    /// Checks what an operator could get wrong, so the config loader can refuse it before the
    /// robot speaks too loudly or not at all.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if (0.0..=1.0).contains(&self.volume) {
            Ok(())
        } else {
            Err(SettingsError::Volume(self.volume))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_names_only_what_it_changes_and_bad_values_are_refused() {
        let settings: SoundSettings = toml::from_str("language = \"uk\"\nvolume = 0.5").unwrap();
        assert_eq!(settings.language, Language::Ukrainian);
        assert!((settings.volume - 0.5).abs() < 1e-6);
        assert_eq!(settings.no_repeat, SoundSettings::default().no_repeat);
        assert!(settings.validate().is_ok());

        for volume in [-0.1, 1.5, f32::NAN] {
            let loud = SoundSettings {
                volume,
                ..SoundSettings::default()
            };
            assert!(loud.validate().is_err(), "{volume}");
        }
        assert!(toml::from_str::<SoundSettings>("language = \"de\"").is_err());
        assert!(toml::from_str::<SoundSettings>("volume = \"loud\"").is_err());
        assert!(toml::from_str::<SoundSettings>("speed = 1").is_err());
    }
}
