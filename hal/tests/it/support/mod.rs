//! Helpers shared by the codec tests.

use std::fmt::Debug;

use bytes::BytesMut;
use tokio_util::codec::Decoder;

/// Decodes `bytes` arriving in chunks of the given sizes (cycled), as a transport delivers
/// them, checking after each chunk that the codec holds no more than `max_buffered` bytes
/// (one frame's worth), then drains what is left at the end of the stream.
pub fn decode_in_chunks<D>(
    mut codec: D,
    bytes: &[u8],
    chunk_sizes: &[usize],
    max_buffered: usize,
) -> Vec<D::Item>
where
    D: Decoder,
    D::Error: Debug,
{
    let mut buffer = BytesMut::new();
    let mut items = Vec::new();
    let mut rest = bytes;
    for &size in chunk_sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, tail) = rest.split_at(size.clamp(1, rest.len()));
        rest = tail;
        buffer.extend_from_slice(chunk);
        while let Some(item) = codec.decode(&mut buffer).unwrap() {
            items.push(item);
        }
        assert!(
            buffer.len() <= max_buffered,
            "codec holds {} bytes",
            buffer.len()
        );
    }
    while let Some(item) = codec.decode_eof(&mut buffer).unwrap() {
        items.push(item);
    }
    items
}
