//! The robot's search on a worker thread, so the game loop keeps serving the devices (heartbeats,
//! blinking, button presses) while it thinks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use rules::{Move, Position};
use tokio::task::JoinHandle;

use host::{PonderEnd, SearchReply};
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

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The robot's own move, at its level; first, when asked, how the visitor's alternatives
    /// to their last move compared (the last of the history is the position before it).
    RobotMove {
        /// Whether to compare the visitor's alternatives.
        rate_visitor_move: bool,
    },
    /// A hint for the visitor: the best move the brain finds, whatever the level.
    Hint,
    /// Thinking on the visitor's time (`play.ponder`): the position the visitor faces is
    /// searched, with no budget, until the stop flag, to warm the table for the robot's next
    /// search; it answers nothing.
    Ponder,
}

/// One search to run.
#[derive(Debug)]
pub struct Search {
    /// What it is for.
    pub purpose: Purpose,
    /// The position, the side to move to play.
    pub position: Position,
    /// The game's earlier positions, oldest first.
    pub history: Vec<Position>,
    /// The most real time it may take.
    pub budget: Duration,
    /// Raised by the caller to stop it early (the timer raises it at `budget` too).
    pub stop: Arc<AtomicBool>,
}

/// What a search found.
#[derive(Debug)]
pub struct Answer {
    /// The move, `None` only when the position has no move.
    pub reply: Option<SearchReply>,
    /// The visitor's alternatives to their last move, each with their win probability after
    /// it, when asked.
    pub alternatives: Option<Vec<(Move, f32)>>,
    /// What pondering did, for its event (`None` for the other purposes).
    pub pondered: Option<host::LogEvent>,
}

/// Starts a search stopped when its budget of real time has passed (pondering has none) or its
/// stop flag is raised; the task hands the brain back with its answer (`None` only when the position has no
/// move). A hint's `v` is the visitor's win probability.
pub fn think(on: ThinkOn, mut brain: Brain, search: Search) -> JoinHandle<(Brain, Answer)> {
    let Search {
        purpose,
        position,
        history,
        budget,
        stop,
    } = search;
    let work = move || {
        let clock = std::time::Instant::now();
        // A bounded search of its own, before the clock's budget starts to run out.
        let alternatives = match (purpose, history.split_last()) {
            (
                Purpose::RobotMove {
                    rate_visitor_move: true,
                },
                Some((before, earlier)),
            ) => Some(brain.alternatives(before, earlier)),
            _ => None,
        };
        let mut pondered = None;
        let thought = match purpose {
            Purpose::RobotMove { .. } => {
                within_budget(budget, &stop, |stop| brain.think(&position, &history, stop))
            }
            Purpose::Hint => {
                within_budget(budget, &stop, |stop| brain.hint(&position, &history, stop))
            }
            Purpose::Ponder => {
                let done = brain.ponder(&position, &history, &stop);
                let ended = if done.book {
                    PonderEnd::Book
                } else if stop.load(Ordering::Relaxed) {
                    PonderEnd::Stopped
                } else {
                    PonderEnd::Finished
                };
                pondered = Some(host::LogEvent::Pondered {
                    fen: rules::fen::write(&position),
                    nodes: done.nodes,
                    depth: done.depth,
                    ended,
                    ms: clock.elapsed().as_millis() as u64,
                });
                None
            }
        };
        let reply = thought.map(|thought| SearchReply {
            mv: thought.mv,
            v: thought.v,
            raw_v: thought.raw_v,
            pv: thought.pv,
            think_ms: clock.elapsed().as_millis() as u64,
        });
        (
            brain,
            Answer {
                reply,
                alternatives,
                pondered,
            },
        )
    };
    match on {
        ThinkOn::Worker => tokio::task::spawn_blocking(work),
        ThinkOn::LoopThread => tokio::spawn(async move { work() }),
    }
}

/// Runs `search` with the stop flag `stop`, which a timer thread also raises after `budget`,
/// unless the search finishes first.
fn within_budget<R>(
    budget: Duration,
    stop: &Arc<AtomicBool>,
    search: impl FnOnce(&AtomicBool) -> R,
) -> R {
    let (finished, wait) = mpsc::channel::<()>();
    let timer = {
        let stop = Arc::clone(stop);
        std::thread::spawn(move || {
            if wait.recv_timeout(budget) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        })
    };
    let result = search(stop);
    drop(finished);
    let _ = timer.join();
    result
}
