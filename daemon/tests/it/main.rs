//! The daemon crate's integration tests in one binary, so the workspace links one test executable per crate rather than one per file.

mod calibrate;
mod coach_search;
mod doctor;
mod dxp;
mod external_engine;
mod hub;
mod operator_page;
mod puzzles;
mod run;
mod run_on_ptys;
mod sim;
mod sim_controller;
mod sim_reset;
mod support;
mod systemd;
