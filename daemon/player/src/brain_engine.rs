//! The brain's external engine (`play.engine`): asking it for the move, checking the move, and
//! the fallback to the brain's own player when it fails, reported once.
//!
//! A fault is reported (a warning, and handed to the caller by
//! [`Brain::take_engine_faults`] for the robot's event log) the first time each kind of failure
//! happens in an episode: from the first failure to the next good answer. An engine that fails
//! [`REST_AFTER`] moves in a row is set aside for [`REST_MOVES`] moves, so that a visitor does
//! not wait out a hanging engine move after move; then it is asked (and started) again.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use rules::{Move, Position};
use search::Limits;

use super::{ALTERNATIVES_DEPTH, ALTERNATIVES_NODES, Brain, HINT_NODES, Thought};
use crate::external::{EngineFault, ExternalEngine, FaultKind};

/// Failures in a row after which the engine is set aside.
pub const REST_AFTER: u32 = 3;
/// The robot's own moves played while the engine is set aside.
pub const REST_MOVES: u32 = 10;

/// The engine and what the brain remembers of its failures.
pub(super) struct Consulted {
    engine: Box<dyn ExternalEngine>,
    /// The kinds of failure reported in the current episode (empty: it answers well).
    reported: HashSet<FaultKind>,
    /// Failures in a row.
    failures: u32,
    /// Moves still to play without asking it.
    resting: u32,
    /// Faults reported and not yet taken by the caller.
    pending: Vec<EngineFault>,
}

impl Brain {
    /// Plays `engine`'s moves from now on (`None`: the brain's own moves), falling back to its
    /// own player for a move the engine does not give. The caller chooses the engine from the
    /// settings (`play.engine` at the level); no engine: the brain is as deterministic as ever.
    pub fn set_engine(&mut self, engine: Option<Box<dyn ExternalEngine>>) {
        self.engine = engine.map(|engine| Consulted {
            engine,
            reported: HashSet::new(),
            failures: 0,
            resting: 0,
            pending: Vec::new(),
        });
    }

    /// The external engine that plays, if any.
    pub fn engine(&self) -> Option<&dyn ExternalEngine> {
        self.engine.as_ref().map(|consulted| &*consulted.engine)
    }

    /// The engine's faults reported since the last call, each once per episode (see the
    /// module's documentation): the robot logs each as a fault naming the engine.
    pub fn take_engine_faults(&mut self) -> Vec<EngineFault> {
        self.engine
            .as_mut()
            .map(|consulted| std::mem::take(&mut consulted.pending))
            .unwrap_or_default()
    }

    /// The engine's move, checked legal, as a thought; `Err(hurry)` when the brain must play its
    /// own move (`hurry`: the engine used the caller's time, so the own move must be quick).
    pub(super) fn engine_move(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
        moves: &[Move],
    ) -> Result<Thought, bool> {
        let Some(consulted) = &mut self.engine else {
            return Err(false);
        };
        if consulted.resting > 0 {
            consulted.resting -= 1;
            return Err(false);
        }
        let answer = consulted
            .engine
            .choose(position, history, stop)
            .and_then(|mv| {
                if moves.contains(&mv) {
                    Ok(mv)
                } else {
                    Err(EngineFault {
                        engine: consulted.engine.name().to_owned(),
                        kind: FaultKind::IllegalMove,
                        detail: format!("{mv:?}"),
                    })
                }
            });
        match answer {
            Ok(mv) => {
                if !consulted.reported.is_empty() {
                    tracing::info!(
                        "the external engine {} answers again",
                        consulted.engine.name()
                    );
                }
                consulted.reported.clear();
                consulted.failures = 0;
                Ok(self.engine_thought(position, history, mv))
            }
            Err(fault) => {
                consulted.failures += 1;
                let resting = consulted.failures >= REST_AFTER;
                if consulted.reported.insert(fault.kind) {
                    tracing::warn!("{fault}; the robot plays its own move");
                    consulted.pending.push(fault);
                }
                if resting {
                    tracing::warn!(
                        "the external engine {} failed {} moves in a row; the robot plays its \
                         own next {REST_MOVES} moves before it asks again",
                        consulted.engine.name(),
                        consulted.failures
                    );
                    consulted.failures = 0;
                    consulted.resting = REST_MOVES;
                }
                Err(stop.load(Ordering::Relaxed))
            }
        }
    }

    /// The engine's move as the robot's thought: its win probability from a short search of
    /// the position after it (of [`ALTERNATIVES_NODES`], so the emotions read the robot's own
    /// scale whatever the engine's), calibrated by the level's alpha-beta map.
    fn engine_thought(&mut self, position: &Position, history: &[Position], mv: Move) -> Thought {
        let mut line = history.to_vec();
        line.push(*position);
        let mut after = *position;
        after.play_unchecked(&mv);
        let limits = Limits {
            depth: ALTERNATIVES_DEPTH,
            nodes: ALTERNATIVES_NODES,
        };
        let reply = self
            .searcher
            .search_alone(&after, &line, limits, &AtomicBool::new(false));
        let raw_v = 1.0 - reply.win_probability;
        let mut pv = vec![mv];
        pv.extend(reply.pv);
        Thought {
            mv,
            v: self.alpha_beta_map().apply(raw_v),
            raw_v,
            pv,
            playouts_or_nodes: reply.nodes,
        }
    }

    /// The own move after an engine that used up the caller's time: the level's alpha-beta,
    /// within a fixed [`HINT_NODES`] (a tenth of a second or so) instead of the spent clock.
    pub(super) fn quick_own_move(
        &mut self,
        position: &Position,
        history: &[Position],
        moves: &[Move],
    ) -> Thought {
        let limits = Limits {
            depth: self.level.fallback_depth.unwrap_or(64),
            nodes: HINT_NODES,
        };
        let result = self
            .searcher
            .search_alone(position, history, limits, &AtomicBool::new(false));
        let mv = result.best.unwrap_or(moves[0]);
        Thought {
            mv,
            v: self.alpha_beta_map().apply(result.win_probability),
            raw_v: result.win_probability,
            pv: if result.pv.first() == Some(&mv) {
                result.pv
            } else {
                vec![mv]
            },
            playouts_or_nodes: result.nodes,
        }
    }

    /// What the engine is, for [`Brain::describe`].
    pub(super) fn engine_description(&self) -> Option<String> {
        self.engine.as_ref().map(|consulted| {
            format!(
                "the external engine {}, the robot's own player when it fails: ",
                consulted.engine.describe()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicU32;

    use checkerbot_config::{PlayLevel, Settings};
    use rules::Variant;

    use super::*;

    /// An engine that answers what `answer` says and counts the times it was asked.
    struct Scripted {
        asked: Arc<AtomicU32>,
        answer: fn(&Position) -> Result<Move, FaultKind>,
    }

    impl ExternalEngine for Scripted {
        fn name(&self) -> &'static str {
            "hub:scripted"
        }
        fn describe(&self) -> String {
            "hub:scripted, 100 ms a move".to_owned()
        }
        fn choose(
            &mut self,
            position: &Position,
            _: &[Position],
            _: &AtomicBool,
        ) -> Result<Move, EngineFault> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            (self.answer)(position).map_err(|kind| EngineFault {
                engine: "hub:scripted".to_owned(),
                kind,
                detail: "scripted".to_owned(),
            })
        }
    }

    fn brain_with(answer: fn(&Position) -> Result<Move, FaultKind>) -> (Brain, Arc<AtomicU32>) {
        let mut settings = Settings::default();
        settings.game.variant = Variant::Russian;
        settings.play.level = PlayLevel::Fixed(5);
        let mut brain = Brain::new(&settings, 7);
        let asked = Arc::new(AtomicU32::new(0));
        brain.set_engine(Some(Box::new(Scripted {
            asked: Arc::clone(&asked),
            answer,
        })));
        (brain, asked)
    }

    /// The time is up when the engine gave up: the own move must come from the fixed budget.
    fn time_up() -> AtomicBool {
        AtomicBool::new(true)
    }

    #[test]
    fn the_engines_legal_move_is_played() {
        let (mut brain, asked) = brain_with(|position| Ok(*position.legal_moves().last().unwrap()));
        let position = Position::new(Variant::Russian);
        let thought = brain.think(&position, &[], &time_up()).unwrap();
        assert_eq!(thought.mv, *position.legal_moves().last().unwrap());
        assert!((0.0..=1.0).contains(&thought.v));
        assert_eq!(asked.load(Ordering::Relaxed), 1);
        assert!(brain.take_engine_faults().is_empty());
        assert!(
            brain
                .describe()
                .starts_with("the external engine hub:scripted")
        );
    }

    #[test]
    fn an_illegal_move_is_never_played_and_is_reported_once_an_episode() {
        // A move of the other side: legal somewhere, not here.
        let (mut brain, asked) = brain_with(|position| {
            let mut other = *position;
            other.play_unchecked(&position.legal_moves()[0]);
            Ok(other.legal_moves()[0])
        });
        let mut position = Position::new(Variant::Russian);
        for _ in 0..2 {
            let thought = brain.think(&position, &[], &time_up()).unwrap();
            assert!(position.legal_moves().contains(&thought.mv));
            position = position.play(&thought.mv).unwrap();
            let reply = position.legal_moves()[0];
            position = position.play(&reply).unwrap();
        }
        let faults = brain.take_engine_faults();
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0].kind, FaultKind::IllegalMove);
        assert!(
            faults[0].to_string().contains("hub:scripted"),
            "{}",
            faults[0]
        );
        assert_eq!(asked.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn an_engine_that_keeps_failing_rests_then_is_asked_again() {
        let (mut brain, asked) = brain_with(|_| Err(FaultKind::Hung));
        let position = Position::new(Variant::Russian);
        for _ in 0..REST_AFTER + REST_MOVES {
            let thought = brain.think(&position, &[], &time_up()).unwrap();
            assert!(position.legal_moves().contains(&thought.mv));
        }
        assert_eq!(asked.load(Ordering::Relaxed), REST_AFTER);
        brain.think(&position, &[], &time_up()).unwrap();
        assert_eq!(asked.load(Ordering::Relaxed), REST_AFTER + 1);
        assert_eq!(brain.take_engine_faults().len(), 1);
    }
}
