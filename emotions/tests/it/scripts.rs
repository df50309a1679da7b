//! Scripted games with a fake clock: the expression sequence and the lines for both attitudes.
//!
//! Lines with intensity below 1 are said by chance (`speak_base x intensity`); the traces are
//! those of seed 1, so a change in how the model uses its dice shows up here.

use std::fmt::Write as _;

use crate::script::check;

/// A game the robot wins: a captured piece, a strong visitor move, a visitor blunder, captures.
const WINNING: &str = "
0      game_started
6000   visitor_move
6100   thinking
9000   robot_move v=0.5
12000  arm_done
20000  visitor_move captured=1
20100  thinking
23000  robot_move v=0.3 pred=0.45
26000  arm_done
40000  visitor_move
40100  thinking
43000  robot_move v=0.75 pred=0.35 captures=3
46000  arm_done
60000  visitor_move
60100  thinking
62000  robot_move v=0.98 pred=0.95 captures=2
65000  arm_done
66000  game_over win
150000 tick
";

#[test]
fn friendly_robot_praises_a_strong_move_and_wins() {
    check(
        &format!("attitude=friendly speak_base=1 {WINNING}"),
        "
        0 happy
        0 say game_start
        6100 say thinking
        12000 say robot_move
        16200 neutral
        23000 happy
        23000 say opponent_strong_move
        26000 say robot_move
        43000 surprised
        43000 say opponent_blunder
        45000 happy
        46000 say robot_move
        60100 say thinking
        65000 say robot_move
        66000 say win
        86000 say goodbye
        111000 say idle
        132500 neutral
        ",
    );
}

#[test]
fn rival_robot_is_angry_at_a_strong_move_and_wins() {
    check(
        &format!("attitude=rival speak_base=1 {WINNING}"),
        "
        0 happy
        0 say game_start
        4000 neutral
        6100 say thinking
        23000 angry
        23000 say opponent_strong_move
        43000 surprised
        43000 say opponent_blunder
        45000 happy
        60100 say thinking
        66000 say win
        86000 say goodbye
        111000 say idle
        132500 neutral
        ",
    );
}

/// A game the robot loses after blundering twice.
const LOSING: &str = "
0     game_started
5000  visitor_move
5100  thinking
8000  robot_move v=0.55
11000 arm_done
20000 visitor_move
20100 thinking
23000 robot_move v=0.3 pred=0.5 expected
26000 arm_done
40000 visitor_move captured=2
40100 thinking
43000 robot_move v=0.05 pred=0.35 expected
46000 arm_done
50000 game_over loss
80000 tick
";

#[test]
fn friendly_robot_fears_its_own_blunder_and_is_sad_to_lose() {
    check(
        &format!("attitude=friendly speak_base=1 {LOSING}"),
        "
        0 happy
        0 say game_start
        5100 say thinking
        11000 say robot_move
        16800 neutral
        23000 afraid
        26000 say robot_move
        27000 sad
        40000 say lost_piece
        43000 surprised
        45000 afraid
        46000 say robot_move
        49000 sad
        50000 say loss
        70000 say goodbye
        ",
    );
}

#[test]
fn rival_robot_is_angry_at_its_own_blunder_and_at_losing() {
    check(
        &format!("attitude=rival speak_base=1 {LOSING}"),
        "
        0 happy
        0 say game_start
        4000 neutral
        5100 say thinking
        23000 angry
        40000 say lost_piece
        43000 surprised
        45000 angry
        50000 say loss
        70000 say goodbye
        ",
    );
}

/// Rule breaks: two illegal moves in a row, then captured pieces left on the board.
const MISTAKES: &str = "
0     game_started
10000 mistake moved_backwards
12000 mistake must_capture
30000 mistake captures_not_removed
40000 visitor_move captured=1
40100 thinking
80000 mistake moved_robot_piece
90000 tick
";

#[test]
fn friendly_robot_is_surprised_by_rule_breaks_and_always_says_what_was_wrong() {
    check(
        &format!("attitude=friendly speak_base=1 {MISTAKES}"),
        "
        0 happy
        0 say game_start
        10000 surprised
        10000 say illegal_move moved_backwards
        12000 say must_capture must_capture
        16000 neutral
        30000 say fix_board captures_not_removed
        40100 say thinking
        80000 surprised
        80000 say illegal_move moved_robot_piece
        84000 neutral
        ",
    );
}

#[test]
fn rival_robot_is_disgusted_then_angry_at_rule_breaks() {
    check(
        &format!("attitude=rival speak_base=1 {MISTAKES}"),
        "
        0 happy
        0 say game_start
        4000 neutral
        10000 disgusted
        10000 say illegal_move moved_backwards
        12000 angry
        12000 say must_capture must_capture
        16000 neutral
        30000 say fix_board captures_not_removed
        40000 angry
        40100 say thinking
        62500 neutral
        80000 disgusted
        80000 say illegal_move moved_robot_piece
        84000 angry
        ",
    );
}

#[test]
fn head_and_eyes_follow_the_turn() {
    check(
        "attitude=friendly speak_base=1 look
        0     game_started
        5000  visitor_move
        5100  thinking
        9500  robot_move v=0.5 captures=3
        12000 arm_done
        20000 board_mismatch
        30000 game_over draw
        34000 tick
        ",
        "
        0 happy
        0 look visitor up
        0 say game_start
        5100 say thinking
        7600 look board down
        9500 say capture
        12000 look visitor up
        12000 say robot_move
        20000 say fix_board
        30000 neutral
        30000 say draw
        32500 look centre up
        ",
    );
}

#[test]
fn cooldowns_and_the_gap_space_out_lines() {
    let mut script = String::from("attitude=rival speak_base=1\n");
    for turn in 0..11 {
        let t = turn * 6_000;
        let _ = writeln!(script, "{t} robot_move v=0.5 captures=3");
        let _ = writeln!(script, "{} thinking", t + 3_000);
    }
    check(
        &script,
        "
        0 happy
        0 say capture
        9000 say thinking
        18000 say capture
        36000 say capture
        54000 say capture
        63000 say thinking
        ",
    );
}

#[test]
fn noisy_values_around_even_keep_a_neutral_face() {
    let mut script = String::from("attitude=rival speak_base=1\n0 game_started\n");
    let mut noise = 12345_u32;
    let mut jitter = || {
        noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (f64::from(noise >> 16) / 65_535.0 - 0.5) * 0.06
    };
    for turn in 0..40 {
        let t = 20_000 + turn * 8_000;
        let _ = writeln!(script, "{t} visitor_move");
        let (v, v_pred) = (0.5 + jitter(), 0.5 + jitter());
        let _ = writeln!(script, "{} robot_move v={v:.3} pred={v_pred:.3}", t + 2_000);
        let _ = writeln!(script, "{} arm_done", t + 5_000);
    }
    check(
        &script,
        "
        0 happy
        0 say game_start
        4000 neutral
        ",
    );
}

#[test]
fn someone_at_the_board_puts_off_the_invitation_to_passers_by() {
    check(
        "attitude=rival speak_base=1
        30000  activity
        140000 tick
        ",
        "
        75000 say idle
        135000 say idle
        ",
    );
}
