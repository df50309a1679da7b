#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod alsa_messages;
mod chooser;
mod error;
mod fragments;
mod library;
mod line;
mod next_line;
mod overrides;
mod pack;
mod playback;
mod playback_thread;
mod rng;
mod saying;
mod settings;
mod speaker;
mod voice;

pub use chooser::LineChooser;
pub use emotions::Language;
pub use error::PackError;
pub use fragments::FRAGMENTS_DIR;
pub use library::Library;
pub use line::{Line, LineAttitude};
pub use overrides::RECORDING_EXTENSIONS;
pub use pack::INDEX_FILE;
pub use playback::Playback;
pub use saying::{Clip, Saying, gap_length};
pub use settings::{SettingsError, SoundSettings};
pub use speaker::{Output, Speaker};
pub use voice::{Said, Voice};
