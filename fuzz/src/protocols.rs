//! The wire protocols' fuzz targets: the board controller's and the Dobot's decoders.

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
    let Some((&chunk_size, bytes)) = data.split_first() else {
        return;
    };
    let mut codec = ControllerCodec::new();
    let mut buffer = BytesMut::new();
    let mut frames = Vec::new();
    for chunk in bytes.chunks(usize::from(chunk_size).max(1)) {
        buffer.extend_from_slice(chunk);
        while let Some(item) = codec.decode(&mut buffer).expect("no I/O error") {
            frames.extend(item.ok());
        }
        assert!(buffer.len() <= MAX_ENCODED_LEN);
    }
    while let Some(item) = codec.decode_eof(&mut buffer).expect("no I/O error") {
        frames.extend(item.ok());
    }
    for frame in frames {
        let mut wire = BytesMut::new();
        ControllerCodec::new()
            .encode(frame, &mut wire)
            .expect("encodes");
        let decoded = ControllerCodec::new()
            .decode(&mut wire)
            .expect("no I/O error");
        assert_eq!(decoded, Some(Ok(frame)));
    }
}

/// Any bytes, delivered in any chunking, through the Dobot decoder: no panic, never more than
/// one accepted frame's worth held, and every frame it accepts encodes back to itself.
pub fn dobot_decoder(data: &[u8]) {
    let Some((&chunk_size, bytes)) = data.split_first() else {
        return;
    };
    let mut codec = DobotCodec::new();
    let mut buffer = BytesMut::new();
    let mut frames = Vec::new();
    for chunk in bytes.chunks(usize::from(chunk_size).max(1)) {
        buffer.extend_from_slice(chunk);
        while let Some(item) = codec.decode(&mut buffer).expect("no I/O error") {
            frames.extend(item.ok());
        }
        assert!(buffer.len() < MAX_DOBOT_FRAME_LEN);
    }
    while let Some(item) = codec.decode_eof(&mut buffer).expect("no I/O error") {
        frames.extend(item.ok());
    }
    for frame in frames {
        let mut wire = BytesMut::new();
        DobotCodec::new()
            .encode(&frame, &mut wire)
            .expect("encodes");
        let decoded = DobotCodec::new().decode(&mut wire).expect("no I/O error");
        assert_eq!(decoded, Some(Ok(frame)));
    }
}
