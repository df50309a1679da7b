//! The tables against an independent solver, against published endgame theory, and their
//! files against corruption.

mod brute_force;
mod consistency;
mod files;
mod known_results;
