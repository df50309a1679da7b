//! A loaded [`Network`] as the MCTS [`Evaluator`].
//!
//! The search hands over a batch of leaves; one [`Network::evaluate`] call answers them all,
//! and the policy logits become priors over each position's legal moves with
//! [`priors`](crate::policy::priors) (the shared-index rule included).
//!
//! A failed evaluation must not stop a game in front of visitors: the batch is answered by
//! [`HeuristicEvaluator`] instead, and the first error is kept for the caller to log once
//! ([`NetworkEvaluator::take_error`]). After [`NetworkEvaluator::MAX_FAILURES`] failures in a
//! row the network is no longer asked, so a broken model does not cost a failed run per batch.

use super::{Network, NetworkError};
use crate::policy::priors;
use rules::Position;
use search::mcts::{Evaluator, HeuristicEvaluator};

/// Evaluates MCTS leaves with a network, batch by batch.
#[derive(Debug)]
pub struct NetworkEvaluator {
    network: Network,
    /// The first error not yet taken by the caller.
    error: Option<NetworkError>,
    /// Failures in a row; at [`Self::MAX_FAILURES`] the network is given up.
    failures: u32,
    /// Positions the network has answered (for playouts-per-second figures).
    evaluated: u64,
    /// Network runs made (batches).
    runs: u64,
}

impl NetworkEvaluator {
    /// Failures in a row after which only the heuristic answers.
    pub const MAX_FAILURES: u32 = 3;

    /// Wraps a loaded network.
    pub fn new(network: Network) -> NetworkEvaluator {
        NetworkEvaluator {
            network,
            error: None,
            failures: 0,
            evaluated: 0,
            runs: 0,
        }
    }

    /// The network.
    pub const fn network(&self) -> &Network {
        &self.network
    }

    /// Gives the network back.
    pub fn into_network(self) -> Network {
        self.network
    }

    /// The first evaluation error since the last call, if any, for the caller to log once.
    pub fn take_error(&mut self) -> Option<NetworkError> {
        self.error.take()
    }

    /// Whether the network has been given up after [`Self::MAX_FAILURES`] failures in a row.
    pub const fn gave_up(&self) -> bool {
        self.failures >= Self::MAX_FAILURES
    }

    /// Positions the network has evaluated so far.
    pub const fn evaluated(&self) -> u64 {
        self.evaluated
    }

    /// Network runs (batches) so far.
    pub const fn runs(&self) -> u64 {
        self.runs
    }
}

impl Evaluator for NetworkEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        if positions.is_empty() {
            return Vec::new();
        }
        if self.gave_up() {
            return HeuristicEvaluator.evaluate(positions);
        }
        match self.network.evaluate(positions) {
            Ok(answers) => {
                self.failures = 0;
                self.runs += 1;
                self.evaluated += positions.len() as u64;
                let map = self.network.policy_map();
                positions
                    .iter()
                    .enumerate()
                    .map(|(i, position)| {
                        let moves = position.legal_moves();
                        let prior = priors(map, position, &moves, answers.policy(i));
                        (prior, answers.value(i))
                    })
                    .collect()
            }
            Err(error) => {
                self.failures += 1;
                if self.error.is_none() {
                    self.error = Some(error);
                }
                HeuristicEvaluator.evaluate(positions)
            }
        }
    }
}
