//! The learned evaluation (`<models_dir>/<variant>-eval.onnx`) as the brain uses it: read
//! once, and handed to the alpha-beta searcher, which then scores its quiet leaves with it
//! instead of the hand-written evaluation.
//!
//! Level 5 and the adaptive level read it: the adaptive level's full-strength moves are level
//! 5's, and the costs it measures and plays are scored by the same search. Levels 1 to 4 keep
//! the hand-written evaluation: their strength was measured with it. A missing file is one
//! line of the log (some variants have none yet); a damaged one is a warning naming the file
//! and the fault. Either way the robot plays on with the hand-written evaluation, as it does
//! without a network.
//!
//! Level 5's v is its search's through a map fitted to how its games ended (see `levels.rs`).
//! A learned evaluation scores on its own scale, so it carries its own map for level 5 in its
//! metadata, as the networks do (`checkerbot.calibration`, `training/stamp_calibration.py`);
//! a file without one reports the raw v.

use std::path::PathBuf;
use std::sync::Arc;

use checkerbot_config::{PlayLevel, Settings};
use evalnet::{EvalNet, EvalNetError};
use network::calibration::{LevelCalibrations, META_CALIBRATION, ValueCalibration};
use rules::Variant;

/// Where the settings' learned evaluation for `variant` is: beside the networks.
pub(crate) fn evaluation_path(settings: &Settings, variant: Variant) -> PathBuf {
    settings
        .paths
        .models_dir()
        .join(format!("{}-eval.onnx", variant.name()))
}

/// The learned evaluation the settings ask for, loaded or not, and why not.
#[derive(Debug, Default)]
pub(crate) struct LoadedEvaluation {
    /// The file read, or `None` when the level uses none.
    path: Option<PathBuf>,
    /// The network and its map for level 5's v, or why there is none (a missing file, a
    /// damaged one).
    loaded: Option<Result<Usable, String>>,
}

/// A learned evaluation read and checked.
#[derive(Debug)]
struct Usable {
    network: Arc<EvalNet>,
    /// Its map for level 5's v, if it carries one.
    map: Option<ValueCalibration>,
}

impl LoadedEvaluation {
    /// The evaluation `settings` ask for: at level 5 and the adaptive level, the variant's
    /// file, read and checked.
    pub(crate) fn load(settings: &Settings) -> LoadedEvaluation {
        let Some(path) = wanted(settings) else {
            return LoadedEvaluation::default();
        };
        let level = match settings.play.level {
            PlayLevel::Adaptive => "the adaptive level",
            PlayLevel::Fixed(_) => "level 5",
        };
        let loaded = if path.exists() {
            EvalNet::load(&path)
                .map_err(|err| match err {
                    // It names the file already.
                    EvalNetError::Io { .. } => err.to_string(),
                    _ => format!("{}: {err}", path.display()),
                })
                .and_then(|net| {
                    let map = level_5_map(&net)
                        .map_err(|err| format!("{}: {META_CALIBRATION}: {err}", path.display()))?;
                    Ok(Usable {
                        network: Arc::new(net),
                        map,
                    })
                })
                .inspect_err(|reason| {
                    tracing::warn!("{level} plays with the hand-written evaluation: {reason}");
                })
        } else {
            let reason = format!("no file {}", path.display());
            tracing::info!("{level} plays with the hand-written evaluation: {reason}");
            Err(reason)
        };
        if let Ok(Usable { network: net, .. }) = &loaded {
            tracing::info!(
                "learned evaluation ({} hidden units) from {}",
                net.hidden(),
                path.display()
            );
        }
        LoadedEvaluation {
            path: Some(path),
            loaded: Some(loaded),
        }
    }

    /// Applies a reload: the file is read again only when the level, the variant or the
    /// folder changed.
    pub(crate) fn reconfigure(&mut self, settings: &Settings) {
        if wanted(settings) != self.path {
            *self = LoadedEvaluation::load(settings);
        }
    }

    /// The network, if one was read.
    pub(crate) fn network(&self) -> Option<Arc<EvalNet>> {
        let usable = self.loaded.as_ref()?.as_ref().ok()?;
        Some(Arc::clone(&usable.network))
    }

    /// The map from level 5's raw v to the v it reports while it searches with this network:
    /// the file's own, else none (the raw v).
    pub(crate) fn calibration(&self) -> ValueCalibration {
        match &self.loaded {
            Some(Ok(Usable { map: Some(map), .. })) => *map,
            _ => ValueCalibration::IDENTITY,
        }
    }

    /// For `checkerbot doctor`: `None` when the level uses none, else the file read or why
    /// there is none.
    pub(crate) fn status(&self) -> Option<Result<String, &str>> {
        Some(match self.loaded.as_ref()? {
            Ok(_) => Ok(self
                .path
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default()),
            Err(reason) => Err(reason.as_str()),
        })
    }
}

/// Level 5's map in the network's metadata: `None` without one, an error when it does not
/// parse.
fn level_5_map(net: &EvalNet) -> Result<Option<ValueCalibration>, String> {
    let Some(text) = net.metadata(META_CALIBRATION) else {
        return Ok(None);
    };
    let maps: LevelCalibrations = text.parse().map_err(|err| format!("{err}"))?;
    Ok(maps.for_level(5))
}

/// The file level 5 and the adaptive level read under `settings`; none at the other levels.
fn wanted(settings: &Settings) -> Option<PathBuf> {
    matches!(
        settings.play.level,
        PlayLevel::Fixed(5) | PlayLevel::Adaptive
    )
    .then(|| evaluation_path(settings, settings.game.variant))
}
