//! Any bytes, delivered in any chunking, through the Dobot decoder: no panic, never more than
//! one accepted frame's worth held, and every frame it accepts encodes back to itself.
#![no_main]

use bytes::BytesMut;
use hal::dobot::DobotCodec;
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::{Decoder, Encoder};

/// Sync mark, length, id, ctrl, parameters and checksum of the longest frame accepted.
const MAX_FRAME_LEN: usize = 2 + 1 + 2 + DobotCodec::DEFAULT_MAX_PARAMS_LEN + 1;

fuzz_target!(|data: &[u8]| {
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
        assert!(buffer.len() < MAX_FRAME_LEN);
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
});
