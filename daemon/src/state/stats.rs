//! The robot's counters: games and results, visitor mistakes by kind, faults.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use host::{Device, LogEvent, MistakeReason};

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
    /// Plies played, both sides (a move taken back and made again counts once).
    pub plies: u64,
    /// Visitor mistakes answered, by reason.
    pub mistakes: BTreeMap<MistakeReason, u32>,
    /// Times the board disagreed with the robot's own move.
    pub board_mismatches: u32,
    /// Device faults seen.
    pub faults: u32,
    /// The same faults by device (`board`, `arm`, `brain`): which part to look at first.
    pub faults_by_device: BTreeMap<Device, u32>,
    /// Links that came back after they were lost, by device.
    pub reconnections: BTreeMap<Device, u32>,
    /// How far the game in progress (or the last one) was counted, so that a ply or an end
    /// that happens again after a restart counts once: the counters are saved before the
    /// journal, and a game resumed from a journal a ply behind plays that ply again.
    pub counted: Option<CountedGame>,
}

/// How far one game was counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountedGame {
    /// The game's archive id.
    pub game_id: String,
    /// Its longest length in plies so far.
    pub plies: u64,
    /// Whether its end was counted.
    pub over: bool,
}

impl CountedGame {
    fn new(game_id: &str) -> CountedGame {
        CountedGame {
            game_id: game_id.to_owned(),
            plies: 0,
            over: false,
        }
    }
}

/// The game an event belongs to, as it stands after the event.
#[derive(Debug, Clone, Copy)]
pub struct GameNow<'a> {
    /// Its archive id.
    pub id: &'a str,
    /// Its length in plies.
    pub plies: u64,
    /// Whether the robot plays White (results are counted from the robot's side).
    pub robot_is_white: bool,
}

impl Stats {
    /// Counts `event` of `game`. A ply the game already had, or an end already counted, is
    /// not counted again; a move taken back and made again counts once.
    pub fn count(&mut self, event: &LogEvent, game: GameNow<'_>) {
        match event {
            LogEvent::GameStarted { .. } => {
                self.counted = Some(CountedGame::new(game.id));
            }
            LogEvent::VisitorMistake { reason, .. } => {
                *self.mistakes.entry(*reason).or_default() += 1;
            }
            LogEvent::BoardMismatch { .. } => self.board_mismatches += 1,
            LogEvent::Fault { device, .. } => {
                self.faults += 1;
                *self.faults_by_device.entry(*device).or_default() += 1;
            }
            LogEvent::Reconnected { device, .. } => {
                *self.reconnections.entry(*device).or_default() += 1;
            }
            LogEvent::VisitorMove { .. } | LogEvent::RobotMove { .. } => {
                let counted = self.counted_game(game.id);
                let new = game.plies.saturating_sub(counted.plies);
                counted.plies = counted.plies.max(game.plies);
                self.plies += new;
            }
            LogEvent::GameOver { result, .. } => {
                let counted = self.counted_game(game.id);
                if !counted.over {
                    counted.over = true;
                    self.count_result(result, game.robot_is_white);
                }
            }
            _ => {}
        }
    }

    /// How far game `id` was counted (from nothing if the counters last counted another).
    fn counted_game(&mut self, id: &str) -> &mut CountedGame {
        if self.counted.as_ref().is_none_or(|c| c.game_id != id) {
            self.counted = Some(CountedGame::new(id));
        }
        self.counted.as_mut().expect("set above")
    }

    fn count_result(&mut self, result: &str, robot_is_white: bool) {
        match result {
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
        count_all(&mut stats, "g", &[(fault(Device::Arm), 0)]);
        count_all(&mut stats, "g", &[(fault(Device::Arm), 0)]);
        count_all(&mut stats, "g", &[(fault(Device::Board), 0)]);
        let reconnected = LogEvent::Reconnected {
            device: Device::Arm,
            attempts: 3,
        };
        count_all(&mut stats, "g", &[(reconnected, 0)]);
        assert_eq!(stats.faults, 3);
        assert_eq!(stats.faults_by_device[&Device::Arm], 2);
        assert_eq!(stats.faults_by_device[&Device::Board], 1);
        assert_eq!(stats.reconnections[&Device::Arm], 1);
        // Counters written before the split still load.
        let old: Stats = serde_json::from_str(r#"{"games": 4, "faults": 2}"#).unwrap();
        assert_eq!((old.faults, old.faults_by_device.len()), (2, 0));
        // Counters by device read back what earlier versions wrote (names as keys), and are
        // written the same way.
        let written: Stats = serde_json::from_str(
            r#"{"faults": 3, "faults_by_device": {"arm": 2, "board": 1}, "reconnections": {"arm": 1}}"#,
        )
        .unwrap();
        assert_eq!(written.faults_by_device, stats.faults_by_device);
        assert_eq!(written.reconnections, stats.reconnections);
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(
            json["faults_by_device"],
            serde_json::json!({"arm": 2, "board": 1})
        );
    }

    fn ply(text: &str) -> LogEvent {
        LogEvent::VisitorMove {
            mv: text.to_owned(),
        }
    }

    /// Counts `events` of game `id`, each with the game's length after it.
    fn count_all(stats: &mut Stats, id: &str, events: &[(LogEvent, u64)]) {
        for (event, plies) in events {
            let game = GameNow {
                id,
                plies: *plies,
                robot_is_white: true,
            };
            stats.count(event, game);
        }
    }

    #[test]
    fn a_ply_or_an_end_played_again_after_a_restart_counts_once() {
        let mut stats = Stats::default();
        count_all(
            &mut stats,
            "g1",
            &[(ply("c3-d4"), 1), (ply("f6-g5"), 2), (ply("g3-h4"), 3)],
        );
        // Restarted from a journal one ply behind: the third ply is played again.
        let mut restarted: Stats =
            serde_json::from_str(&serde_json::to_string(&stats).unwrap()).unwrap();
        count_all(
            &mut restarted,
            "g1",
            &[(ply("g3-h4"), 3), (ply("g5:e3"), 4), (over("0-1"), 4)],
        );
        assert_eq!((restarted.plies, restarted.games), (4, 1));
        // ... and from a journal that still had the last ply before the end.
        count_all(&mut restarted, "g1", &[(ply("g5:e3"), 4), (over("0-1"), 4)]);
        assert_eq!((restarted.plies, restarted.games), (4, 1));
        // The next game counts from its start.
        count_all(&mut restarted, "g2", &[(ply("c3-d4"), 1), (over("1-0"), 1)]);
        assert_eq!((restarted.plies, restarted.games), (5, 2));
    }

    #[test]
    fn a_move_taken_back_and_made_again_counts_once() {
        let mut stats = Stats::default();
        count_all(
            &mut stats,
            "g1",
            &[
                (ply("c3-d4"), 1),
                (ply("f6-g5"), 2),
                (ply("f6-e5"), 2),
                (ply("d4:f6"), 3),
            ],
        );
        assert_eq!(stats.plies, 3);
    }

    #[test]
    fn results_count_from_the_robots_side() {
        let mut stats = Stats::default();
        let games = [
            ("1-0", true),
            ("1-0", false),
            ("0-1", false),
            ("1/2-1/2", true),
            ("*", true),
        ];
        for (number, (result, robot_is_white)) in games.into_iter().enumerate() {
            let game = GameNow {
                id: &number.to_string(),
                plies: 30,
                robot_is_white,
            };
            stats.count(&over(result), game);
        }
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
