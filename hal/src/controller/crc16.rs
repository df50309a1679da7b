//! CRC-16/CCITT-FALSE, the checksum of every controller frame.
//!
//! Parameters: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR; the check
//! value (CRC of the ASCII bytes `123456789`) is 0x29B1. It is AVR libc's `_crc_xmodem_update`
//! started from 0xFFFF instead of 0, so the board's firmware needs no table of its own.

/// The CRC of `bytes`.
pub fn crc16_ccitt_false(bytes: &[u8]) -> u16 {
    bytes.iter().fold(0xFFFF, |crc, &byte| {
        (crc << 8) ^ TABLE[usize::from((crc >> 8) as u8 ^ byte)]
    })
}

/// The CRC register after shifting in each possible top byte, computed at compile time.
const TABLE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut index = 0;
    while index < 256 {
        let mut crc = (index as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 == 0 {
                crc << 1
            } else {
                (crc << 1) ^ 0x1021
            };
            bit += 1;
        }
        table[index] = crc;
        index += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_value_matches_the_catalogue() {
        assert_eq!(crc16_ccitt_false(b"123456789"), 0x29B1);
        assert_eq!(crc16_ccitt_false(b""), 0xFFFF);
    }

    #[test]
    fn appending_the_crc_big_endian_leaves_a_zero_remainder() {
        let mut data = b"checkerbot".to_vec();
        let crc = crc16_ccitt_false(&data);
        data.extend_from_slice(&crc.to_be_bytes());
        assert_eq!(crc16_ccitt_false(&data), 0);
    }
}
