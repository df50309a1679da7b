//! Other draughts programs as the robot's player (`play.engine`, `checkerbot-lab match`'s
//! `hub:` players): [`hub::HubEngine`] runs an engine that speaks the Hub protocol as a child
//! process and asks it for moves, behind `player`'s [`ExternalEngine`], which the robot's
//! [`Brain`] consults at the levels the settings name and falls back from.
//!
//! **Architecture invariant**: this is where an external engine's I/O and clock live (a child
//! process, a reader thread, a deadline), so that `player` keeps neither. Everything an engine
//! does wrong (it cannot be started, dies, hangs past its time and a grace, answers an illegal
//! move or no move) is an [`EngineFault`] naming it, never a panic or a wait without end; the
//! process is killed when it hangs and started again for the next move. The text of the
//! protocol is `engine_protocols::hub`'s.
//!
//! **API boundary**: [`configure`] (the engine the settings ask for, set on a brain), [`start`]
//! (an engine from its [`EngineSpec`]), [`check`] (`checkerbot doctor`'s greeting test),
//! [`hub::HubEngine`].
#![warn(missing_docs)]

pub mod hub;

use std::time::Duration;

use checkerbot_config::{EngineSpec, Settings};
use player::{Brain, EngineFault, ExternalEngine};
use rules::Variant;

/// The engine `spec` names, asked for moves of `move_time` each. Nothing is started yet: the
/// process starts at the first move, so a brain can be set up without waiting for it.
pub fn start(spec: &EngineSpec, move_time: Duration) -> Box<dyn ExternalEngine> {
    match spec {
        EngineSpec::Hub { .. } => Box::new(hub::HubEngine::new(spec, move_time)),
    }
}

/// Sets on `brain` the engine `settings` ask for at their level (`play.engine`,
/// `play.engine_levels`, `play.move_time_ms`), or none. An engine already set and asked the
/// same way is kept, process and all, so a reload that changes something else does not
/// restart it.
pub fn configure(brain: &mut Brain, settings: &Settings) {
    let move_time = Duration::from_millis(settings.play.move_time_ms);
    let wanted = settings
        .play
        .engine_at(settings.play.level)
        .map(|spec| start(&spec, move_time));
    let same = match (brain.engine(), &wanted) {
        (Some(set), Some(wanted)) => set.describe() == wanted.describe(),
        (None, None) => true,
        _ => false,
    };
    if !same {
        if let Some(engine) = &wanted {
            tracing::info!(
                "the external engine {} plays the robot's moves",
                engine.describe()
            );
        }
        brain.set_engine(wanted);
    }
}

/// Starts the engine for `variant`, greets it (`hub` answered by `wait`, `init` by `ready`) and
/// ends it: what `checkerbot doctor` checks. Returns how the engine names itself.
pub fn check(spec: &EngineSpec, variant: Variant) -> Result<String, EngineFault> {
    match spec {
        EngineSpec::Hub { .. } => hub::HubEngine::new(spec, Duration::from_secs(1)).greet(variant),
    }
}
