//! One Dobot frame: `AA AA | len | id | ctrl | params | checksum`.

use bytes::{BufMut, Bytes, BytesMut};
use thiserror::Error;

/// The two bytes that open every frame.
pub(crate) const SYNC: [u8; 2] = [0xAA, 0xAA];

/// The control byte: bit 0 says write (1) or read (0), bit 1 says queued.
///
/// Kept as the raw byte because replies echo it and a driver should see exactly what came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ctrl(pub u8);

impl Ctrl {
    /// Read a value now.
    pub const READ: Ctrl = Ctrl(0x00);
    /// Write a value now, bypassing the queue.
    pub const WRITE: Ctrl = Ctrl(0x01);
    /// Write through the command queue; the reply carries the queue index.
    pub const QUEUED_WRITE: Ctrl = Ctrl(0x03);

    /// Whether the command writes (sets) rather than reads.
    pub const fn is_write(self) -> bool {
        self.0 & 0x01 != 0
    }

    /// Whether the command goes through the firmware's queue.
    pub const fn is_queued(self) -> bool {
        self.0 & 0x02 != 0
    }
}

/// More parameter bytes than the one-byte length field can describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("{len} parameter bytes do not fit a Dobot frame (at most {max})", max = DobotFrame::MAX_PARAMS_LEN)]
pub struct ParamsTooLong {
    /// The number of parameter bytes given.
    pub len: usize,
}

/// A frame with a valid length; the checksum is computed when it is encoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DobotFrame {
    id: u8,
    ctrl: Ctrl,
    params: Bytes,
}

impl DobotFrame {
    /// The most parameter bytes a frame can carry: `len` is one byte and counts id and ctrl.
    pub const MAX_PARAMS_LEN: usize = 255 - 2;

    /// A frame for command `id`.
    pub fn new(id: u8, ctrl: Ctrl, params: impl Into<Bytes>) -> Result<DobotFrame, ParamsTooLong> {
        let params = params.into();
        if params.len() > DobotFrame::MAX_PARAMS_LEN {
            return Err(ParamsTooLong { len: params.len() });
        }
        Ok(DobotFrame { id, ctrl, params })
    }

    /// The command id.
    pub fn id(&self) -> u8 {
        self.id
    }

    /// The control byte.
    pub fn ctrl(&self) -> Ctrl {
        self.ctrl
    }

    /// The parameter bytes.
    pub fn params(&self) -> &[u8] {
        &self.params
    }

    /// The checksum byte that makes id, ctrl, params and checksum sum to zero modulo 256.
    pub fn checksum(&self) -> u8 {
        checksum_of(self.id, self.ctrl.0, &self.params)
    }

    /// Appends the frame as it goes on the wire.
    pub fn encode(&self, out: &mut BytesMut) {
        out.reserve(self.params.len() + 6);
        out.put_slice(&SYNC);
        out.put_u8(self.params.len() as u8 + 2);
        out.put_u8(self.id);
        out.put_u8(self.ctrl.0);
        out.put_slice(&self.params);
        out.put_u8(self.checksum());
    }
}

/// `(256 - ((id + ctrl + sum(params)) mod 256)) mod 256`, the rule of Dobot's protocol.
pub(crate) fn checksum_of(id: u8, ctrl: u8, params: &[u8]) -> u8 {
    params
        .iter()
        .fold(id.wrapping_add(ctrl), |sum, &byte| sum.wrapping_add(byte))
        .wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_get_pose_as_public_drivers_send_it() {
        let mut out = BytesMut::new();
        DobotFrame::new(10, Ctrl::READ, Bytes::new())
            .unwrap()
            .encode(&mut out);
        assert_eq!(&out[..], [0xAA, 0xAA, 0x02, 0x0A, 0x00, 0xF6]);
    }

    #[test]
    fn the_receiver_sum_from_id_to_checksum_is_zero() {
        let frame = DobotFrame::new(84, Ctrl::QUEUED_WRITE, vec![0x00, 0xFF, 0x80, 0x7F]).unwrap();
        let mut out = BytesMut::new();
        frame.encode(&mut out);
        let sum = out[3..]
            .iter()
            .fold(0u8, |sum, &byte| sum.wrapping_add(byte));
        assert_eq!(sum, 0);
    }

    #[test]
    fn parameters_are_limited_by_the_length_byte() {
        assert!(DobotFrame::new(1, Ctrl::READ, vec![0; 253]).is_ok());
        assert_eq!(
            DobotFrame::new(1, Ctrl::READ, vec![0; 254]),
            Err(ParamsTooLong { len: 254 })
        );
    }

    #[test]
    fn ctrl_bits_read_as_documented() {
        assert!(!Ctrl::READ.is_write() && !Ctrl::READ.is_queued());
        assert!(Ctrl::WRITE.is_write() && !Ctrl::WRITE.is_queued());
        assert!(Ctrl::QUEUED_WRITE.is_write() && Ctrl::QUEUED_WRITE.is_queued());
    }
}
