//! Starting the robot: a fresh host, or the unfinished game from the journal.

use emotions::{Millis, Mind};
use rules::Variant;

use crate::state::{Journal, StateDir};
use host::{Action, Host, RobotColor};

/// The host to run and what to do first.
#[derive(Debug)]
pub struct Startup {
    /// The host, waiting for setup or back in its game.
    pub host: Host,
    /// Actions that continue a resumed game (a search, a board check).
    pub actions: Vec<Action>,
    /// The resumed game's archive id.
    pub game_id: Option<String>,
}

/// Resumes the journaled game if there is one that fits the rules and is not archived yet,
/// else starts fresh. A journal that cannot be resumed is moved aside (never deleted) with a
/// warning.
pub fn start_or_resume(
    state: Option<&StateDir>,
    variant: Variant,
    robot_color: RobotColor,
    mind: impl Fn() -> Mind,
    coach: host::CoachSettings,
    now: Millis,
) -> anyhow::Result<Startup> {
    let fresh = || {
        let mut host = Host::new(variant, robot_color, mind());
        host.set_coach(coach);
        Startup {
            host,
            actions: Vec::new(),
            game_id: None,
        }
    };
    let Some(state) = state else {
        return Ok(fresh());
    };
    let journal: Journal = match state.load_journal() {
        Ok(Some(journal)) => journal,
        Ok(None) => return Ok(fresh()),
        Err(err) => {
            let aside = state.set_journal_aside()?;
            tracing::warn!(
                "{err:#}; starting a new game (the journal is kept as {})",
                aside.display()
            );
            return Ok(fresh());
        }
    };
    if state.is_archived(&journal.game_id)? {
        // Stopped between archiving the finished game and removing its journal (which may
        // be a ply short of the end).
        tracing::info!(
            "the journaled game {} is over and archived",
            journal.game_id
        );
        state.save_journal(None)?;
        return Ok(fresh());
    }
    match Host::resume(robot_color, mind(), &journal.snapshot, now) {
        Ok((mut host, actions)) => {
            host.set_coach(coach);
            tracing::info!(
                "resuming game {} after {} moves",
                journal.game_id,
                journal.snapshot.moves.len()
            );
            Ok(Startup {
                host,
                actions,
                game_id: Some(journal.game_id),
            })
        }
        Err(err) => {
            let aside = state.set_journal_aside()?;
            tracing::warn!(
                "cannot resume the journaled game: {err:#}; starting a new game (the journal is kept as {})",
                aside.display()
            );
            Ok(fresh())
        }
    }
}
