//! The Hub parser against arbitrary lines: it never panics, and what the engine writes reads
//! back as it was meant; the client's side too: what a client writes the engine reads as the
//! same command, and what the engine writes the client reads as the same reply.

use engine_protocols::hub::message::{Command, GoMode, Info, Level, Reply, parse, parse_reply};
use proptest::prelude::*;

/// Lines made of the protocol's own pieces, so that most reach the commands' arguments.
fn hub_like_line() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("hub".to_owned()),
        Just("pos".to_owned()),
        Just("level".to_owned()),
        Just("go".to_owned()),
        Just("set-param".to_owned()),
        Just("moves".to_owned()),
        Just("time".to_owned()),
        Just("depth".to_owned()),
        Just("move-time".to_owned()),
        Just("=".to_owned()),
        Just("\"".to_owned()),
        Just(" ".to_owned()),
        "[0-9.eE+-]{1,8}",
        "\\PC{0,6}",
    ];
    prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn any_line_parses_or_is_refused_without_a_panic(line in "\\PC*|.*") {
        let _ = parse(&line);
    }

    #[test]
    fn protocol_like_lines_parse_or_are_refused_without_a_panic(line in hub_like_line()) {
        if let Err(error) = parse(&line) {
            prop_assert!(!error.to_string().is_empty());
        }
    }

    /// An `error` line is always one line, and its message reads back (quotes turned to `'`,
    /// control characters to spaces: the protocol cannot quote them).
    #[test]
    fn written_values_read_back(message in ".*") {
        let line = Reply::Error(message.clone()).to_string();
        prop_assert!(!line.contains('\n') && !line.contains('\r'));
        let value = line.strip_prefix("error message=").unwrap();
        let expected: String = message
            .chars()
            .map(|c| if c == '"' { '\'' } else if c.is_control() { ' ' } else { c })
            .collect();
        let read = parse(&format!("set-param name=x value={value}")).unwrap();
        prop_assert_eq!(read, Command::SetParam { name: "x".to_owned(), value: expected });
    }
}

/// A name or value as the protocol can carry it: no quote, no control character, and a move
/// or a word without blanks where the protocol joins several with spaces.
fn word() -> impl Strategy<Value = String> {
    "[A-Za-z0-9.x+-]{1,12}"
}

fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 .=,'x-]{0,24}"
}

fn seconds() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..1e6f64,
        (0u32..100_000).prop_map(|ms| f64::from(ms) / 1000.0)
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let level = (
        (
            proptest::option::of(any::<u32>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(seconds()),
            proptest::option::of(seconds()),
        ),
        (
            proptest::option::of(seconds()),
            proptest::option::of(any::<u32>()),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((depth, nodes, move_time, time), (inc, moves, infinite))| {
                Command::Level(Level {
                    depth,
                    nodes,
                    move_time,
                    time,
                    inc,
                    moves,
                    infinite,
                })
            },
        );
    prop_oneof![
        Just(Command::Hub),
        Just(Command::Init),
        Just(Command::PonderHit),
        Just(Command::Stop),
        Just(Command::NewGame),
        Just(Command::Ping),
        Just(Command::Quit),
        Just(Command::Go(GoMode::Think)),
        Just(Command::Go(GoMode::Ponder)),
        Just(Command::Go(GoMode::Analyze)),
        (word(), text()).prop_map(|(name, value)| Command::SetParam { name, value }),
        (
            proptest::option::of(word()),
            prop::collection::vec(word(), 0..6)
        )
            .prop_map(|(position, moves)| Command::Pos { position, moves }),
        level,
    ]
}

fn reply() -> impl Strategy<Value = Reply> {
    let info = (
        proptest::option::of(any::<u32>()),
        proptest::option::of((-10_000i32..10_000).prop_map(|c| f64::from(c) / 100.0)),
        any::<u64>(),
        (0u32..10_000_000).prop_map(|ms| f64::from(ms) / 1000.0),
        (0u32..10_000_000).prop_map(|k| f64::from(k) / 1000.0),
        prop::collection::vec(word(), 0..6),
    )
        .prop_map(|(depth, score, nodes, time, nps, pv)| {
            Reply::Info(Info {
                depth,
                score,
                nodes,
                time,
                nps,
                pv,
            })
        });
    prop_oneof![
        Just(Reply::Wait),
        Just(Reply::Ready),
        Just(Reply::Pong),
        (text(), text(), text()).prop_map(|(name, version, author)| Reply::Id {
            name,
            version,
            author
        }),
        (word(), text(), prop::collection::vec(word(), 0..5)).prop_map(|(name, value, values)| {
            Reply::EnumParam {
                name,
                value,
                values,
            }
        }),
        (word(), any::<i64>(), any::<i64>(), any::<i64>()).prop_map(|(name, value, min, max)| {
            Reply::IntParam {
                name,
                value,
                min,
                max,
            }
        }),
        (word(), text(), "[a-z]{1,8}")
            .prop_filter("enum and int are their own replies", |(_, _, kind)| {
                kind != "enum" && kind != "int"
            })
            .prop_map(|(name, value, kind)| Reply::OtherParam { name, value, kind }),
        info,
        (proptest::option::of(word()), proptest::option::of(word()))
            .prop_map(|(mv, ponder)| Reply::Done { mv, ponder }),
        text().prop_map(Reply::Error),
    ]
}

proptest! {
    /// A client's command reads back, in `checkerbot hub`'s parser, as the command written.
    #[test]
    fn written_commands_read_back(command in command()) {
        let line = command.to_string();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(parse(&line), Ok(command), "{}", line);
    }

    /// An engine's reply reads back, in the client's parser, as the reply written.
    #[test]
    fn written_replies_read_back(reply in reply()) {
        let line = reply.to_string();
        prop_assert_eq!(parse_reply(&line), Ok(reply), "{}", line);
    }

    #[test]
    fn any_reply_line_parses_or_is_refused_without_a_panic(line in "\\PC*|.*") {
        let _ = parse_reply(&line);
    }

    #[test]
    fn protocol_like_reply_lines_parse_or_are_refused_without_a_panic(line in hub_like_line()) {
        if let Err(error) = parse_reply(&line) {
            prop_assert!(!error.to_string().is_empty());
        }
    }
}
