//! The sections of the settings file.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use rules::Variant;

use host::PlayLevel;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Everything an operator can set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Which game and which side.
    pub game: GameSettings,
    /// How strongly the robot plays.
    pub play: PlaySettings,
    /// The robot's personality (attitude and every threshold of the emotion model).
    pub emotions: emotions::Settings,
    /// The coach: rating the visitor's moves and saying what a mistake allows.
    pub coach: host::CoachSettings,
    /// The voice: language, volume, packs.
    pub sounds: sounds::SoundSettings,
    /// Serial devices.
    pub devices: DeviceSettings,
    /// The Hall-sensor board.
    pub sensor: SensorSettings,
    /// Where state is kept.
    pub paths: PathSettings,
    /// The operator web page.
    pub operator: OperatorSettings,
}

/// Which game and which side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameSettings {
    /// The variant played at this stand.
    #[serde(
        serialize_with = "variant_name",
        deserialize_with = "variant_from_name"
    )]
    pub variant: Variant,
    /// The robot's side.
    pub robot: RobotSide,
    /// After a game, the robot puts the pieces back to the next game's start itself (with a
    /// calibrated rack); otherwise the visitor or the operator does.
    pub reset_board: bool,
    /// Games from the start, or puzzles: known combinations the visitor is to find.
    pub mode: GameMode,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            variant: Variant::Russian,
            robot: RobotSide::Alternate,
            reset_board: false,
            mode: GameMode::Play,
        }
    }
}

/// What the robot offers at its stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameMode {
    /// Games from the start.
    Play,
    /// Puzzles: the robot sets up a known combination and the visitor finds the winning shot
    /// (the variant's shipped puzzles; a variant without any plays games).
    Puzzle,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's serialize_with passes a reference"
)]
fn variant_name<S: Serializer>(variant: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(variant.name())
}

fn variant_from_name<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

/// The robot's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RobotSide {
    /// Always White.
    White,
    /// Always Black.
    Black,
    /// Changes every game; the visitor moves first in the first game.
    Alternate,
}

/// How strongly the robot plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlaySettings {
    /// 1 (gentle, for small children) to 5 (as strong as the machine allows), or adaptive.
    pub level: PlayLevel,
    /// The visitor's expected score the adaptive level aims at: a little under one half, so
    /// that the visitor usually just loses or just wins.
    pub adaptive_target: f32,
    /// The longest the robot thinks about one move, in milliseconds (an external engine is
    /// given this time too).
    pub move_time_ms: u64,
    /// Another draughts program that plays the robot's moves (`hub:COMMAND ARGS` or
    /// `dxp:HOST:PORT`, see
    /// [`EngineSpec`](crate::EngineSpec)); empty: the robot's own player. Read with
    /// [`PlaySettings::engine`].
    pub engine: String,
    /// At which levels the external engine plays.
    pub engine_levels: EngineLevels,
    /// The folder of the endgame tables with distances (`checkerbot-lab egdb build --variant
    /// russian --pieces 5 --out DIR`); empty: none. Russian only: at level 5 and in the
    /// adaptive level's full-strength moves, a position within the tables is played from them
    /// (a won ending won by the shortest way) instead of searched. Not checked here: a missing
    /// folder or a damaged table is the player's warning, and the robot plays on without
    /// them, as it does without a network. Read with [`PlaySettings::egdb_dir`].
    pub egdb_dir: PathBuf,
    /// Whether level 5 (and the adaptive level, whose full-strength moves are level 5's
    /// search) searches the visitor's position while the visitor thinks, so that the robot's
    /// next search finds the replies' subtrees in its table. The visitor's press stops it at
    /// once. With it, the exact move depends on how long the visitor thought.
    pub ponder: bool,
    /// How many threads level 5's search runs on (Lazy SMP, sharing one table): its moves
    /// against the clock and its pondering, and the adaptive level's full-strength moves. The
    /// coach's scoring, hints and the weaker levels stay on one thread, so that they replay
    /// exactly, and so does everything in `sim --fast` on its paused clock. More threads than
    /// the machine has free cores only slow the search down.
    pub threads: usize,
}

/// At which levels `play.engine` plays; at the others the robot's own player does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineLevels {
    /// Level 5 only, the strongest: the engine replaces the robot's own strongest player.
    #[serde(rename = "5")]
    Strongest,
    /// Every level, the adaptive one included.
    #[serde(rename = "all")]
    All,
}

impl PlaySettings {
    /// The external engine that plays at `level`, if one is set for it (a text that
    /// [`Settings::validate`] refuses reads as none).
    pub fn engine_at(&self, level: PlayLevel) -> Option<crate::EngineSpec> {
        let plays = match self.engine_levels {
            EngineLevels::All => true,
            EngineLevels::Strongest => level == PlayLevel::Fixed(5),
        };
        plays.then(|| self.engine()).flatten()
    }

    /// The endgame tables' folder, if one is set (an empty text is none).
    pub fn egdb_dir(&self) -> Option<&Path> {
        let dir = self.egdb_dir.as_path();
        (!dir.as_os_str().is_empty()).then_some(dir)
    }

    /// The external engine set, whatever the level.
    pub fn engine(&self) -> Option<crate::EngineSpec> {
        if self.engine.trim().is_empty() {
            return None;
        }
        crate::EngineSpec::parse(&self.engine).ok()
    }
}

impl Default for PlaySettings {
    fn default() -> PlaySettings {
        PlaySettings {
            level: PlayLevel::Fixed(3),
            adaptive_target: 0.45,
            move_time_ms: 2_000,
            engine: String::new(),
            engine_levels: EngineLevels::Strongest,
            egdb_dir: PathBuf::new(),
            ponder: true,
            threads: 1,
        }
    }
}

/// Which arm drives the pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmKind {
    /// A Dobot Magician on its own serial port.
    Dobot,
    /// The reference robot's arm, driven by the board controller.
    Controller,
    /// The simulator (no hardware).
    Sim,
}

/// Serial devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeviceSettings {
    /// Which arm.
    pub arm: ArmKind,
    /// The arm's serial port; a udev symlink survives re-plugging.
    pub arm_port: PathBuf,
    /// The board controller's serial port.
    pub board_port: PathBuf,
    /// Baud rate of both links.
    pub baud: u32,
}

impl Default for DeviceSettings {
    fn default() -> DeviceSettings {
        DeviceSettings {
            arm: ArmKind::Dobot,
            arm_port: PathBuf::from("/dev/checkerbot-arm"),
            board_port: PathBuf::from("/dev/checkerbot-board"),
            baud: 115_200,
        }
    }
}

/// The Hall-sensor board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SensorSettings {
    /// A scan counts only when this many reads in a row agree.
    pub debounce_reads: u32,
    /// Time between reads while debouncing, in milliseconds.
    pub read_interval_ms: u64,
    /// A square that keeps changing this long is reported as a faulty sensor.
    pub flicker_fault_ms: u64,
}

impl Default for SensorSettings {
    fn default() -> SensorSettings {
        SensorSettings {
            debounce_reads: 3,
            read_interval_ms: 40,
            flicker_fault_ms: 3_000,
        }
    }
}

/// Where state is kept, and where the networks and ONNX Runtime are found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PathSettings {
    /// The game journal, the PDN archive and the counters.
    pub state_dir: PathBuf,
    /// The folder of the networks (`<variant>-gen<N>.onnx`). Unset: found by
    /// [`PathSettings::models_dir`]'s rule, so that the same default works from `cargo run` in
    /// the repository and from an installed package.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models_dir: Option<PathBuf>,
    /// The ONNX Runtime library file (`libonnxruntime.so.1.32.0`). Unset: `ORT_DYLIB_PATH`, then
    /// next to the executable (or its `lib/`), then the repository's `target/onnxruntime/`
    /// (where `scripts/install-deps` puts it), then the system's library path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub onnxruntime: Option<PathBuf>,
}

impl Default for PathSettings {
    fn default() -> PathSettings {
        PathSettings {
            state_dir: PathBuf::from("/var/lib/checkerbot"),
            models_dir: None,
            onnxruntime: None,
        }
    }
}

impl PathSettings {
    /// Where an installed package keeps the networks.
    pub const INSTALLED_MODELS: &'static str = "/usr/share/checkerbot/models";

    /// The networks' folder: the configured one, else the first folder that exists of
    /// 1. `<executable's folder>/../share/checkerbot/models` (an installed binary: `/usr/bin`
    ///    gives `/usr/share/checkerbot/models`, `/usr/local/bin` gives `/usr/local/share/...`);
    /// 2. the source tree's `models/` (`cargo run`, and tests, on the machine that built it);
    /// 3. [`Self::INSTALLED_MODELS`].
    ///
    /// When none exists the answer is the last, so the message about a missing model names the
    /// place a package would use.
    pub fn models_dir(&self) -> PathBuf {
        if let Some(dir) = &self.models_dir {
            return dir.clone();
        }
        let installed_here = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().and_then(Path::parent).map(Path::to_path_buf))
            .map(|prefix| prefix.join("share").join("checkerbot").join("models"));
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(|root| root.join("models"));
        installed_here
            .into_iter()
            .chain(source)
            .find(|dir| dir.is_dir())
            .unwrap_or_else(|| PathBuf::from(Self::INSTALLED_MODELS))
    }

    /// Where `scripts/install-deps` puts ONNX Runtime for development runs: the repository's
    /// `target/onnxruntime/` as it was when this binary was built.
    pub fn source_onnxruntime_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map_or_else(PathBuf::new, |root| root.join("target").join("onnxruntime"))
    }
}

/// The operator web page served by `checkerbot run`: off unless enabled, on localhost unless
/// bound elsewhere, and a token before anyone on the network may steer the robot.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OperatorSettings {
    /// Serve the page.
    pub enabled: bool,
    /// Address and port to listen on.
    pub bind: SocketAddr,
    /// The secret control actions need (`Authorization: Bearer <token>`). Unset: control
    /// actions are open, which is allowed on a loopback address only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The names the page is also reached by, besides its bind address, the loopback names and
    /// the address a request arrives at (`"robot.local"`, `"robot.example:443"` behind a
    /// proxy): a request naming any other host is refused, which is what stops DNS rebinding.
    /// Each is a [`crate::HostName`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
}

/// Written without the token, so that printing the settings never shows it.
impl fmt::Debug for OperatorSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OperatorSettings")
            .field("enabled", &self.enabled)
            .field("bind", &self.bind)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("hostnames", &self.hostnames)
            .finish()
    }
}

impl Default for OperatorSettings {
    fn default() -> OperatorSettings {
        OperatorSettings {
            enabled: false,
            bind: SocketAddr::from((Ipv4Addr::LOCALHOST, 8080)),
            token: None,
            hostnames: Vec::new(),
        }
    }
}
