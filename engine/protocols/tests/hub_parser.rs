//! The Hub parser against arbitrary lines: it never panics, and what the engine writes reads
//! back as it was meant.

use engine_protocols::hub::message::{Command, Reply, parse};
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
