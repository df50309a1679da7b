//! The draughts world's engine protocols as text: what an engine and the program that drives
//! it say to each other, as typed messages, with positions and moves written for every board.
//!
//! Pure: no I/O, no clock, no search. `checkerbot hub` (the daemon's `hub` module) is the
//! engine side of Hub over stdin and stdout, `checkerbot dxp` (the daemon's `dxp`) either side
//! of DXP over TCP; a program that drives another engine reads and writes
//! the same messages. Every parser returns an error with a typed kind, rendered only by
//! `Display`, and never panics on any input (property tests).
#![warn(missing_docs)]

pub mod dxp;
pub mod hub;
