//! DXP's fuzz target: bytes as `checkerbot dxp` receives them from a socket.

use engine_protocols::dxp::framing::{Deframer, Frame};
use engine_protocols::dxp::{board, message};

/// Any bytes: cut into messages at each NUL (and the whole input as one message), the parser
/// never panics; a message it reads writes back to text that reads again; a starting position
/// or move it reads is checked against the rules without a panic.
pub fn dxp_message(data: &[u8]) {
    let mut deframer = Deframer::new();
    deframer.push(data);
    let whole = String::from_utf8_lossy(data).into_owned();
    let frames = std::iter::from_fn(|| deframer.next_frame()).chain([Frame::Message(whole)]);
    let start = rules::Position::new(board::VARIANT);
    for frame in frames {
        let Frame::Message(text) = frame else {
            continue;
        };
        let Ok(read) = message::parse(&text) else {
            continue;
        };
        let written = read.to_string();
        assert!(
            message::parse(&written).is_ok(),
            "{text:?} -> {written:?} does not read back"
        );
        match &read {
            message::Message::GameRequest(request) => {
                if let Some(position) = &request.position {
                    let _ = board::parse_position(position);
                }
            }
            message::Message::Move(mv) => {
                let _ = board::parse_move(&start, mv);
            }
            _ => {}
        }
    }
}
