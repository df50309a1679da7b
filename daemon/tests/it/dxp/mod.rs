//! `checkerbot dxp`, the robot's player behind DXP: driven by pydraughts' `DXPEngine` through
//! whole International games over loopback TCP, and its session run in-process over
//! in-memory pipes against a scripted peer and against itself (the parser's property test is
//! `engine/protocols`').

mod pydraughts;
mod session;
