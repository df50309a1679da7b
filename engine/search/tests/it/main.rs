//! The search crate's integration tests, one binary (one link) for all of them.

mod alpha_beta;
mod learned;
mod mcts;
mod pondering;
mod reference;
mod tables;
mod tactics;
mod threads;
