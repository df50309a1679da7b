//! How long a search may think, from a `level`: the move time, or a share of the clock. The
//! search itself reads no clock; the session raises its stop flag when this budget is spent.

use std::time::Duration;

use engine_protocols::hub::message::Level;

/// The time a move gets when the GUI sent no `level`: the robot's own default move time
/// (`play.move_time_ms`).
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

/// With a clock and no number of moves to the control (sudden death, Fischer), the moves
/// still to play are taken to be this many: each move spends a thirtieth of what is left,
/// plus the increment, the usual rule of thumb for a game clock.
const MOVES_LEFT_GUESSED: f64 = 30.0;

/// What is kept back on the clock for the pipe and the GUI: this share of it, at least
/// [`MIN_RESERVE`], so a move never loses on time by its own overhead.
const RESERVE_SHARE: f64 = 0.05;
/// At least 20 milliseconds are kept back: a process's reply through a pipe takes a few.
const MIN_RESERVE: f64 = 0.02;

/// No budget is longer than a day, so that adding it to the time now cannot overflow.
const LONGEST: f64 = 86_400.0;

/// The time this search may take, or `None` for no time limit (`infinite`, or only depth or
/// nodes given).
pub fn budget(level: &Level) -> Option<Duration> {
    if level.infinite {
        return None;
    }
    let clock = level
        .time
        .map(|time| clock_share(time, level.inc.unwrap_or(0.0), level.moves));
    let seconds = match (level.move_time, clock) {
        (Some(move_time), Some(share)) => move_time.min(share),
        (Some(move_time), None) => move_time,
        (None, Some(share)) => share,
        (None, None) if level.depth.is_some() || level.nodes.is_some() => return None,
        (None, None) => return Some(DEFAULT_MOVE_TIME),
    };
    Some(Duration::from_secs_f64(seconds.clamp(0.0, LONGEST)))
}

/// A move's share of the clock: `time` left before this move's increment `inc` is added (the
/// protocol adds it first), `moves` to play before the next control.
fn clock_share(time: f64, inc: f64, moves: Option<u32>) -> f64 {
    let available = time + inc;
    let share = match moves {
        Some(moves) => available / f64::from(moves.max(1)),
        None => time / MOVES_LEFT_GUESSED + inc,
    };
    let reserve = (available * RESERVE_SHARE).max(MIN_RESERVE);
    share.min(available - reserve).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(level: Level) -> Option<f64> {
        budget(&level).map(|d| d.as_secs_f64())
    }

    #[test]
    fn a_move_time_is_the_budget() {
        let level = Level {
            move_time: Some(0.25),
            ..Level::default()
        };
        assert_eq!(seconds(level), Some(0.25));
    }

    #[test]
    fn a_clock_is_shared_among_the_moves_left() {
        let sudden_death = Level {
            time: Some(60.0),
            ..Level::default()
        };
        assert_eq!(seconds(sudden_death), Some(2.0));
        let fischer = Level {
            time: Some(60.0),
            inc: Some(1.0),
            ..Level::default()
        };
        assert_eq!(seconds(fischer), Some(3.0));
        let control = Level {
            time: Some(90.0),
            moves: Some(10),
            ..Level::default()
        };
        assert_eq!(seconds(control), Some(9.0));
    }

    #[test]
    fn the_last_move_before_a_control_keeps_a_reserve() {
        let last = Level {
            time: Some(10.0),
            moves: Some(1),
            ..Level::default()
        };
        assert_eq!(seconds(last), Some(9.5));
        let flagging = Level {
            time: Some(0.01),
            ..Level::default()
        };
        assert_eq!(seconds(flagging), Some(0.0));
    }

    #[test]
    fn depth_nodes_and_infinite_have_no_time_limit_and_nothing_has_the_default() {
        let depth = Level {
            depth: Some(8),
            ..Level::default()
        };
        assert_eq!(budget(&depth), None);
        let infinite = Level {
            infinite: true,
            move_time: Some(1.0),
            ..Level::default()
        };
        assert_eq!(budget(&infinite), None);
        assert_eq!(budget(&Level::default()), Some(DEFAULT_MOVE_TIME));
    }
}
