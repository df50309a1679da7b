//! Other draughts programs as the robot's player (`play.engine`, `checkerbot-lab match`'s
//! `hub:` and `dxp:` players): [`hub::HubEngine`] runs an engine that speaks the Hub protocol
//! as a child process and asks it for moves, [`dxp::DxpEngine`] plays DXP games with an engine
//! that listens on a TCP port, both behind `player`'s [`ExternalEngine`], which the robot's
//! [`Brain`] consults at the levels the settings name and falls back from.
//!
//! **Architecture invariant**: this is where an external engine's I/O and clock live (a child
//! process, a reader thread, a socket, a deadline), so that `player` keeps neither. Everything
//! an engine does wrong (it cannot be started or reached, dies, hangs past its time and a
//! grace, answers an illegal move or no move) is an [`EngineFault`] naming it, never a panic
//! or a wait without end; a process is killed when it hangs and started again for the next
//! move, a connection closed and opened again. The text of the protocols is `engine_protocols`'.
//!
//! **API boundary**: [`configure`] (the engine the settings ask for, set on a brain), [`start`]
//! (an engine from its [`EngineSpec`]), [`check`] (`checkerbot doctor`'s test), [`grace`],
//! [`hub::HubEngine`], [`dxp::DxpEngine`].
#![warn(missing_docs)]

pub mod dxp;
pub mod hub;

use std::time::Duration;

use checkerbot_config::{EngineSpec, Settings};
use player::{Brain, EngineFault, ExternalEngine, FaultKind};
use rules::Variant;

/// The engine `spec` names, asked for moves of `move_time` each. Nothing is started yet: the
/// process starts at the first move, so a brain can be set up without waiting for it.
pub fn start(spec: &EngineSpec, move_time: Duration) -> Box<dyn ExternalEngine> {
    match spec {
        EngineSpec::Hub { .. } => Box::new(hub::HubEngine::new(spec, move_time)),
        EngineSpec::Dxp { .. } => Box::new(dxp::DxpEngine::new(spec, move_time)),
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

/// Reaches the engine for `variant` and ends it again: what `checkerbot doctor` checks. A Hub
/// engine is started and greeted (`hub` answered by `wait`, `init` by `ready`); a DXP engine's
/// address is resolved and connected to, and a game asked for and ended. Says what answered, in
/// words that follow the engine's name: `answers as "Scan 3.1"`, `connects to 127.0.0.1:27531
/// and accepts a game as "Kingsrow"`.
pub fn check(spec: &EngineSpec, variant: Variant) -> Result<String, EngineFault> {
    match spec {
        EngineSpec::Hub { .. } => hub::HubEngine::new(spec, Duration::from_secs(1))
            .greet(variant)
            .map(|id| format!("answers as {id:?}")),
        EngineSpec::Dxp { .. } if variant != Variant::International => Err(EngineFault {
            engine: spec.program_name(),
            kind: FaultKind::Start,
            detail: format!("DXP plays international only, not {variant}"),
        }),
        EngineSpec::Dxp { .. } => dxp::DxpEngine::new(spec, Duration::from_secs(1)).check(),
    }
}

/// How long an engine may overrun its move time before it is taken to hang: half the move
/// time, at least a second (a process's start, a connection and a loaded machine's scheduling
/// are not the engine's fault, and a search ends at its next iteration's check).
pub fn grace(move_time: Duration) -> Duration {
    (move_time / 2).max(Duration::from_secs(1))
}
