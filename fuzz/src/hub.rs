//! The Hub protocol's fuzz target: a line as `checkerbot hub` reads it from a GUI, and as a
//! client of another engine reads it from that engine.

use engine_protocols::hub::{board_text, message};
use rules::Variant;

/// Any line: neither parser panics; a command or a reply that reads is written back to a line
/// that reads again and writes the same (what one side writes, the other reads as meant); and
/// read as a position of any variant it either is refused or writes back to text that reads as
/// the same position.
pub fn hub_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    if let Ok(command) = message::parse(&line) {
        let written = command.to_string();
        let again = message::parse(&written)
            .unwrap_or_else(|err| panic!("{line:?} -> {written:?} does not read back: {err}"));
        assert_eq!(again.to_string(), written, "{line:?}");
    }
    if let Ok(reply) = message::parse_reply(&line) {
        let written = reply.to_string();
        let again = message::parse_reply(&written)
            .unwrap_or_else(|err| panic!("{line:?} -> {written:?} does not read back: {err}"));
        assert_eq!(again.to_string(), written, "{line:?}");
    }
    for variant in Variant::ALL {
        if let Ok(position) = board_text::parse_position(variant, &line) {
            let written = board_text::write_position(&position);
            let again = board_text::parse_position(variant, &written)
                .unwrap_or_else(|err| panic!("{variant}: {written:?} does not read back: {err}"));
            assert_eq!(again, position, "{variant}: {line:?} -> {written:?}");
        }
    }
}
