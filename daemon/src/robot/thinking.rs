//! The robot's search on a worker thread, so the game loop keeps serving the devices (heartbeats,
//! blinking, button presses) while it thinks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use rules::Position;
use tokio::task::JoinHandle;

use host::SearchReply;
use player::Brain;

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

/// Starts a search stopped when `budget` of real time has passed; the task hands the brain back
/// with its answer (`None` only when the position has no move).
pub fn think(
    on: ThinkOn,
    mut brain: Brain,
    position: Position,
    history: Vec<Position>,
    budget: Duration,
) -> JoinHandle<(Brain, Option<SearchReply>)> {
    let work = move || {
        let clock = std::time::Instant::now();
        let thought = within_budget(budget, |stop| brain.think(&position, &history, stop));
        let reply = thought.map(|thought| SearchReply {
            mv: thought.mv,
            v: thought.v,
            pv: thought.pv,
            think_ms: clock.elapsed().as_millis() as u64,
        });
        (brain, reply)
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
