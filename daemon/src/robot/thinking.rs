//! The robot's search on a worker thread, so the game loop keeps serving the devices (heartbeats,
//! blinking, button presses) while it thinks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use engine::Position;
use engine::search::{Limits, Searcher};
use tokio::task::JoinHandle;

use crate::host::SearchReply;

/// The robot's player: alpha-beta at the level's depth.
#[derive(Debug)]
pub struct Player {
    searcher: Searcher,
    level: u8,
}

impl Player {
    /// A player at `level` (1..=5).
    pub fn new(level: u8) -> Player {
        Player {
            searcher: Searcher::new(16),
            level,
        }
    }

    /// Plays at `level` from the next move.
    pub fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    fn depth(&self) -> u32 {
        [1, 2, 6, 8, 10][usize::from(self.level.clamp(1, 5)) - 1]
    }

    /// Chooses a move; `None` when the position has none (the game is over).
    fn think(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Option<SearchReply> {
        let limits = Limits {
            depth: self.depth(),
            nodes: 2_000_000,
        };
        let clock = std::time::Instant::now();
        let result = self.searcher.search(position, history, limits, stop);
        Some(SearchReply {
            mv: result.best?,
            v: result.win_probability,
            pv: result.pv,
            think_ms: clock.elapsed().as_millis() as u64,
        })
    }
}

/// Where the search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkOn {
    /// A blocking-pool thread: the loop keeps serving the devices meanwhile. The robot's way.
    Worker,
    /// The loop's own thread, which stands still meanwhile. A simulation on a paused clock needs
    /// this to replay exactly: a worker thread's real duration can leak into the virtual clock
    /// when tokio auto-advances it around the thread's start and end.
    LoopThread,
}

/// Starts a search stopped when `budget` of real time has passed; the task hands the player
/// back with its answer.
pub fn think(
    on: ThinkOn,
    mut player: Player,
    position: Position,
    history: Vec<Position>,
    budget: Duration,
) -> JoinHandle<(Player, Option<SearchReply>)> {
    let work = move || {
        let reply = within_budget(budget, |stop| player.think(&position, &history, stop));
        (player, reply)
    };
    match on {
        ThinkOn::Worker => tokio::task::spawn_blocking(work),
        ThinkOn::LoopThread => tokio::spawn(async move { work() }),
    }
}

/// Runs `search` with a stop flag that a timer thread raises after `budget`, unless the search
/// finishes first.
fn within_budget<R>(budget: Duration, search: impl FnOnce(&AtomicBool) -> R) -> R {
    let stop = Arc::new(AtomicBool::new(false));
    let (finished, wait) = mpsc::channel::<()>();
    let timer = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            if wait.recv_timeout(budget) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        })
    };
    let result = search(&stop);
    drop(finished);
    let _ = timer.join();
    result
}
