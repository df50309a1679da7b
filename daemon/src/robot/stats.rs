//! The robot's counters: games and results, visitor mistakes by kind, faults.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::host::LogEvent;

/// Counts since the state directory was created (or since start without one).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Games played to the end.
    pub games: u32,
    /// Games the robot won.
    pub robot_wins: u32,
    /// Games the visitor won.
    pub visitor_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games stopped before the end (ply limit, the visitor left, a new game was asked for).
    pub unfinished: u32,
    /// Moves made, both sides.
    pub plies: u64,
    /// Visitor mistakes answered, by reason.
    pub mistakes: BTreeMap<String, u32>,
    /// Times the board disagreed with the robot's own move.
    pub board_mismatches: u32,
    /// Device faults seen.
    pub faults: u32,
    /// The same faults by device (`board`, `arm`, `brain`): which part to look at first.
    pub faults_by_device: BTreeMap<String, u32>,
    /// Links that came back after they were lost, by device.
    pub reconnections: BTreeMap<String, u32>,
}

impl Stats {
    /// Counts `event`; `robot_won` says, for a finished game, whether the winner was the robot.
    pub fn count(&mut self, event: &LogEvent, robot_is_white: bool) {
        match event {
            LogEvent::VisitorMistake { reason, .. } => {
                *self.mistakes.entry(reason.clone()).or_default() += 1;
            }
            LogEvent::BoardMismatch { .. } => self.board_mismatches += 1,
            LogEvent::Fault { device, .. } => {
                self.faults += 1;
                *self
                    .faults_by_device
                    .entry(device.as_str().to_owned())
                    .or_default() += 1;
            }
            LogEvent::Reconnected { device, .. } => {
                *self
                    .reconnections
                    .entry(device.as_str().to_owned())
                    .or_default() += 1;
            }
            LogEvent::VisitorMove { .. } | LogEvent::RobotMove { .. } => self.plies += 1,
            LogEvent::GameOver { result, .. } => match result.as_str() {
                "1/2-1/2" => {
                    self.games += 1;
                    self.draws += 1;
                }
                "1-0" | "0-1" => {
                    self.games += 1;
                    if (result == "1-0") == robot_is_white {
                        self.robot_wins += 1;
                    } else {
                        self.visitor_wins += 1;
                    }
                }
                _ => self.unfinished += 1,
            },
            _ => {}
        }
    }

    /// Mistakes of every kind together.
    pub fn mistakes_total(&self) -> u32 {
        self.mistakes.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Device;

    fn over(result: &str) -> LogEvent {
        LogEvent::GameOver {
            result: result.to_owned(),
            reason: String::new(),
            pdn: None,
        }
    }

    #[test]
    fn faults_count_in_all_and_by_device() {
        let mut stats = Stats::default();
        let fault = |device| LogEvent::Fault {
            device,
            message: String::new(),
        };
        stats.count(&fault(Device::Arm), true);
        stats.count(&fault(Device::Arm), true);
        stats.count(&fault(Device::Board), true);
        stats.count(
            &LogEvent::Reconnected {
                device: Device::Arm,
                attempts: 3,
            },
            true,
        );
        assert_eq!(stats.faults, 3);
        assert_eq!(stats.faults_by_device["arm"], 2);
        assert_eq!(stats.faults_by_device["board"], 1);
        assert_eq!(stats.reconnections["arm"], 1);
        // Counters written before the split still load.
        let old: Stats = serde_json::from_str(r#"{"games": 4, "faults": 2}"#).unwrap();
        assert_eq!((old.faults, old.faults_by_device.len()), (2, 0));
    }

    #[test]
    fn results_count_from_the_robots_side() {
        let mut stats = Stats::default();
        stats.count(&over("1-0"), true);
        stats.count(&over("1-0"), false);
        stats.count(&over("0-1"), false);
        stats.count(&over("1/2-1/2"), true);
        stats.count(&over("*"), true);
        assert_eq!(
            (
                stats.games,
                stats.robot_wins,
                stats.visitor_wins,
                stats.draws,
                stats.unfinished
            ),
            (4, 2, 1, 1, 1)
        );
    }
}
