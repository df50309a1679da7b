//! The Hub protocol's fuzz target: a line as `checkerbot hub` reads it from a GUI.

use engine_protocols::hub::{board_text, message};
use rules::Variant;

/// Any line: the parser never panics, and read as a position of any variant it either is
/// refused or writes back to text that reads as the same position.
pub fn hub_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let _ = message::parse(&line);
    for variant in Variant::ALL {
        if let Ok(position) = board_text::parse_position(variant, &line) {
            let written = board_text::write_position(&position);
            let again = board_text::parse_position(variant, &written)
                .unwrap_or_else(|err| panic!("{variant}: {written:?} does not read back: {err}"));
            assert_eq!(again, position, "{variant}: {line:?} -> {written:?}");
        }
    }
}
