//! Consistent Overhead Byte Stuffing (Cheshire and Baker, 1999), the framing of the controller
//! link.
//!
//! COBS rewrites a frame so it holds no zero byte, which leaves 0x00 free to mark where frames
//! end. A receiver that joins mid-stream or loses bytes finds the next frame at the next zero,
//! and the cost is one byte per 254 bytes of frame, never more.

use thiserror::Error;

/// Bytes between two delimiters that no COBS encoder can have produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum CobsError {
    /// A zero byte inside an encoded frame (the caller split frames wrongly).
    #[error("zero byte at offset {offset} inside an encoded frame")]
    ZeroByte {
        /// Offset of the zero within the encoded bytes.
        offset: usize,
    },
    /// A code byte announces more bytes than the frame has left: bytes were lost.
    #[error("code byte at offset {offset} runs past the end of the frame")]
    Truncated {
        /// Offset of the code byte within the encoded bytes.
        offset: usize,
    },
}

/// The longest encoding of `len` bytes: one code byte per started run of 254.
pub const fn max_encoded_len(len: usize) -> usize {
    len + len / 254 + 1
}

/// Appends the COBS encoding of `data` to `out`, without the trailing delimiter.
///
/// A run of exactly 254 non-zero bytes at the end is not followed by an empty block, as in the
/// published examples; decoders accept both forms.
pub fn encode(data: &[u8], out: &mut Vec<u8>) {
    let mut code_at = out.len();
    out.push(0);
    let mut code: u8 = 1;
    for (index, &byte) in data.iter().enumerate() {
        if byte == 0 {
            out[code_at] = code;
            code_at = out.len();
            out.push(0);
            code = 1;
        } else {
            out.push(byte);
            code += 1;
            if code == 0xFF {
                out[code_at] = code;
                if index + 1 == data.len() {
                    return;
                }
                code_at = out.len();
                out.push(0);
                code = 1;
            }
        }
    }
    out[code_at] = code;
}

/// Appends the bytes that `encoded` (one frame, without its delimiter) stands for to `out`.
///
/// On error `out` may hold part of the frame; callers discard it.
pub fn decode(encoded: &[u8], out: &mut Vec<u8>) -> Result<(), CobsError> {
    let mut at = 0;
    while at < encoded.len() {
        let code = encoded[at];
        if code == 0 {
            return Err(CobsError::ZeroByte { offset: at });
        }
        let block_end = at + usize::from(code);
        if block_end > encoded.len() {
            return Err(CobsError::Truncated { offset: at });
        }
        let block = &encoded[at + 1..block_end];
        if let Some(zero) = block.iter().position(|&byte| byte == 0) {
            return Err(CobsError::ZeroByte {
                offset: at + 1 + zero,
            });
        }
        out.extend_from_slice(block);
        at = block_end;
        if code != 0xFF && at < encoded.len() {
            out.push(0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode(data, &mut out);
        out
    }

    fn decoded(encoded: &[u8]) -> Result<Vec<u8>, CobsError> {
        let mut out = Vec::new();
        decode(encoded, &mut out).map(|()| out)
    }

    /// The examples of the COBS article on Wikipedia, without their trailing delimiter.
    fn published_examples() -> Vec<(Vec<u8>, Vec<u8>)> {
        let run = |from: u8, to: u8| (from..=to).collect::<Vec<u8>>();
        let cat = |parts: &[&[u8]]| parts.concat();
        vec![
            (vec![0x00], vec![0x01, 0x01]),
            (vec![0x00, 0x00], vec![0x01, 0x01, 0x01]),
            (vec![0x00, 0x11, 0x00], vec![0x01, 0x02, 0x11, 0x01]),
            (
                vec![0x11, 0x22, 0x00, 0x33],
                vec![0x03, 0x11, 0x22, 0x02, 0x33],
            ),
            (
                vec![0x11, 0x22, 0x33, 0x44],
                vec![0x05, 0x11, 0x22, 0x33, 0x44],
            ),
            (
                vec![0x11, 0x00, 0x00, 0x00],
                vec![0x02, 0x11, 0x01, 0x01, 0x01],
            ),
            (run(0x01, 0xFE), cat(&[&[0xFF], &run(0x01, 0xFE)])),
            (
                cat(&[&[0x00], &run(0x01, 0xFE)]),
                cat(&[&[0x01, 0xFF], &run(0x01, 0xFE)]),
            ),
            (
                run(0x01, 0xFF),
                cat(&[&[0xFF], &run(0x01, 0xFE), &[0x02, 0xFF]]),
            ),
            (
                cat(&[&run(0x02, 0xFF), &[0x00]]),
                cat(&[&[0xFF], &run(0x02, 0xFF), &[0x01, 0x01]]),
            ),
            (
                cat(&[&run(0x03, 0xFF), &[0x00, 0x01]]),
                cat(&[&[0xFE], &run(0x03, 0xFF), &[0x02, 0x01]]),
            ),
        ]
    }

    #[test]
    fn encodes_and_decodes_the_published_examples() {
        for (data, expected) in published_examples() {
            assert_eq!(encoded(&data), expected, "encoding {data:02x?}");
            assert_eq!(
                decoded(&expected).unwrap(),
                data,
                "decoding {expected:02x?}"
            );
            assert!(expected.len() <= max_encoded_len(data.len()));
        }
    }

    #[test]
    fn accepts_a_trailing_empty_block_after_a_full_run() {
        let mut with_empty_block = encoded(&[0x42; 254]);
        with_empty_block.push(0x01);
        assert_eq!(decoded(&with_empty_block).unwrap(), vec![0x42; 254]);
    }

    #[test]
    fn refuses_what_no_encoder_writes() {
        assert_eq!(
            decoded(&[0x03, 0x11]),
            Err(CobsError::Truncated { offset: 0 })
        );
        assert_eq!(
            decoded(&[0x02, 0x11, 0x05, 0x01]),
            Err(CobsError::Truncated { offset: 2 })
        );
        assert_eq!(
            decoded(&[0x02, 0x11, 0x00]),
            Err(CobsError::ZeroByte { offset: 2 })
        );
        assert_eq!(
            decoded(&[0x03, 0x00, 0x11]),
            Err(CobsError::ZeroByte { offset: 1 })
        );
    }
}
