//! The wire protocols' fuzz targets: the board controller's and the Dobot's decoders.

use std::fmt::Debug;

use bytes::BytesMut;
use hal::controller::{ControllerCodec, MAX_ENCODED_LEN};
use hal::dobot::DobotCodec;
use tokio_util::codec::{Decoder, Encoder};

/// Sync mark, length, id, ctrl, parameters and checksum of the longest Dobot frame accepted.
const MAX_DOBOT_FRAME_LEN: usize = 2 + 1 + 2 + DobotCodec::DEFAULT_MAX_PARAMS_LEN + 1;

/// Any bytes, delivered in any chunking, through the controller decoder: no panic, never more
/// than one frame's worth held, and every frame it accepts encodes back to bytes that decode to
/// the same frame.
pub fn controller_decoder(data: &[u8]) {
    if let Some((&chunk_size, bytes)) = data.split_first() {
        check_decoder(ControllerCodec::new, chunk_size, bytes, MAX_ENCODED_LEN);
    }
}

/// Any bytes, delivered in any chunking, through the Dobot decoder: no panic, never more than
/// one accepted frame's worth held, and every frame it accepts encodes back to itself.
pub fn dobot_decoder(data: &[u8]) {
    if let Some((&chunk_size, bytes)) = data.split_first() {
        check_decoder(DobotCodec::new, chunk_size, bytes, MAX_DOBOT_FRAME_LEN - 1);
    }
}

/// Feeds `bytes` to a new codec in chunks of `chunk_size` (as a serial port delivers them),
/// checking that it never holds more than `max_held` bytes, and that every frame it accepts
/// encodes back to bytes that decode to the same frame.
fn check_decoder<C, F, E>(new: fn() -> C, chunk_size: u8, bytes: &[u8], max_held: usize)
where
    C: Decoder<Item = Result<F, E>> + Encoder<F>,
    <C as Decoder>::Error: Debug,
    <C as Encoder<F>>::Error: Debug,
    F: Clone + PartialEq + Debug,
    E: PartialEq + Debug,
{
    let mut codec = new();
    let mut buffer = BytesMut::new();
    let mut frames = Vec::new();
    for chunk in bytes.chunks(usize::from(chunk_size).max(1)) {
        buffer.extend_from_slice(chunk);
        while let Some(item) = codec.decode(&mut buffer).expect("no I/O error") {
            frames.extend(item.ok());
        }
        assert!(buffer.len() <= max_held);
    }
    while let Some(item) = codec.decode_eof(&mut buffer).expect("no I/O error") {
        frames.extend(item.ok());
    }
    for frame in frames {
        let mut wire = BytesMut::new();
        new().encode(frame.clone(), &mut wire).expect("encodes");
        let decoded = new().decode(&mut wire).expect("no I/O error");
        assert_eq!(decoded, Some(Ok(frame)));
    }
}
