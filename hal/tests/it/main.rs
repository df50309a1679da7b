//! The hal crate's integration tests in one binary, so the workspace links one test executable per crate rather than one per file.

mod arm_calibration;
mod arm_kinematics;
mod arm_planner;
mod arm_reset;
mod controller_arm;
mod controller_arm_timing;
mod controller_codec;
mod controller_link;
mod controller_peer;
mod dobot_arm;
mod dobot_codec;
mod dobot_driver;
mod dobot_pty;
mod dobot_rig;
mod dobot_sim;
mod planner_rig;
mod protocol_doc;
mod reset_rig;
mod sim_board;
mod sim_board_pty;
mod support;
