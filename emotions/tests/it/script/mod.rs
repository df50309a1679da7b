//! Scripted games for the tests: a little text format for timed inputs, a runner with a fake
//! clock, and a trace of what the face and the voice did.
//!
//! A script starts with a header of `key=value` settings (`attitude=rival seed=3
//! speak_base=1`, and `look` to trace gaze and neck too), then one input per line:
//! `TIME INPUT [ARGS]`, TIME in milliseconds. Between two inputs the runner ticks every 100 ms,
//! as the daemon's frame loop does; a final `TIME tick` runs the clock on to TIME.
//!
//! Inputs: `tick`, `activity`, `game_started`, `visitor_move [captured=N]`, `mistake REASON`,
//! `thinking`, `robot_move v=V [pred=P] [expected] [captures=N]`, `arm_done`,
//! `board_mismatch`, `game_over win|loss|draw`.

#![allow(dead_code, reason = "each test file uses part of the runner")]

use std::fmt::Write as _;

use emotions::{
    Attitude, Evaluation, FaceState, Input, Millis, Mind, Mistake, Output, RobotResult, Settings,
};

/// The runner's frame period.
pub const TICK: u64 = 100;

/// A parsed script.
pub struct Script {
    pub settings: Settings,
    pub seed: u64,
    pub look: bool,
    pub steps: Vec<(Millis, Input)>,
}

pub fn parse(text: &str) -> Script {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut script = Script {
        settings: Settings::default(),
        seed: 1,
        look: false,
        steps: Vec::new(),
    };
    for word in lines.next().expect("a header line").split_whitespace() {
        match word.split_once('=') {
            Some(("attitude", "friendly")) => script.settings.attitude = Attitude::Friendly,
            Some(("attitude", "rival")) => script.settings.attitude = Attitude::Rival,
            Some(("seed", n)) => script.seed = n.parse().unwrap(),
            Some(("speak_base", p)) => script.settings.voice.speak_base = p.parse().unwrap(),
            None if word == "look" => script.look = true,
            _ => panic!("unknown header word {word:?}"),
        }
    }
    for line in lines {
        let mut words = line.split_whitespace();
        let time = Millis(words.next().unwrap().parse().unwrap());
        let name = words
            .next()
            .unwrap_or_else(|| panic!("no input in {line:?}"));
        let args: Vec<&str> = words.collect();
        script.steps.push((time, input(name, &args, line)));
    }
    script
}

fn input(name: &str, args: &[&str], line: &str) -> Input {
    let arg = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(key).and_then(|rest| rest.strip_prefix('=')))
    };
    let count = |key: &str| arg(key).map_or(0, |n| n.parse().unwrap());
    match name {
        "tick" => Input::Tick,
        "activity" => Input::VisitorActivity,
        "game_started" => Input::GameStarted,
        "visitor_move" => Input::VisitorMove {
            captured: count("captured"),
        },
        "mistake" => Input::VisitorMistake(
            serde_json::from_str::<Mistake>(&format!("\"{}\"", args[0]))
                .unwrap_or_else(|e| panic!("{line}: {e}")),
        ),
        "thinking" => Input::RobotThinking,
        "robot_move" => Input::RobotMove(Evaluation {
            v: arg("v").expect("v=").parse().unwrap(),
            v_pred: arg("pred").map(|p| p.parse().unwrap()),
            expected_reply: args.contains(&"expected"),
            captures: count("captures"),
        }),
        "arm_done" => Input::ArmDone,
        "board_mismatch" => Input::BoardMismatch,
        "game_over" => Input::GameOver(match args[0] {
            "win" => RobotResult::Win,
            "loss" => RobotResult::Loss,
            "draw" => RobotResult::Draw,
            other => panic!("{line}: unknown outcome {other}"),
        }),
        other => panic!("{line}: unknown input {other}"),
    }
}

/// Runs the script, ticking between inputs; returns every step's time and output.
pub fn run(script: &Script) -> Vec<(Millis, Output)> {
    let mut mind = Mind::new(script.settings.clone(), script.seed);
    let mut outputs = Vec::new();
    let mut clock = 0;
    for &(time, input) in &script.steps {
        while clock + TICK < time.0 {
            clock += TICK;
            outputs.push((Millis(clock), mind.step(Input::Tick, Millis(clock))));
        }
        clock = clock.max(time.0);
        outputs.push((time, mind.step(input, time)));
    }
    outputs
}

/// One line per change of emotion (`T emotion`), per line said (`T say category [reason]`),
/// and with `look`, per change of gaze or neck (`T look gaze neck`).
pub fn trace(script: &Script) -> String {
    let mut text = String::new();
    let mut emotion = emotions::Emotion::Neutral;
    let mut look = None;
    for (time, output) in run(script) {
        let FaceState {
            expression,
            gaze,
            neck,
            ..
        } = output.face;
        if expression.emotion != emotion {
            emotion = expression.emotion;
            let _ = writeln!(text, "{} {emotion}", time.0);
        }
        if script.look && look != Some((gaze, neck)) {
            look = Some((gaze, neck));
            let _ = writeln!(text, "{} look {} {}", time.0, json(&gaze), json(&neck));
        }
        if let Some(line) = output.line {
            let reason = line
                .mistake
                .map(|m| format!(" {}", json(&m)))
                .unwrap_or_default();
            let _ = writeln!(text, "{} say {}{reason}", time.0, line.category);
        }
    }
    text
}

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .unwrap()
        .trim_matches('"')
        .to_string()
}

/// Runs `script` and compares its trace with `expect` (whitespace at line ends ignored).
#[track_caller]
pub fn check(script: &str, expect: &str) {
    let actual = trace(&parse(script));
    let tidy = |text: &str| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        tidy(&actual),
        tidy(expect),
        "\n--- script ---\n{script}\n--- actual trace ---\n{actual}"
    );
}
