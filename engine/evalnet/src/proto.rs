//! A minimal reader of the protocol buffers wire format, enough for ONNX's `ModelProto`.
//!
//! Every read is bounds-checked and reports the byte offset (from the start of the file) where
//! the input stopped making sense; nothing here panics on any input. Unknown fields of every
//! wire type are skipped, groups included (with their nesting counted, not recursed).

/// Where and why the bytes are not a protocol buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProtoError {
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// What was expected there.
    pub what: &'static str,
}

/// The longest varint: ten bytes carry 64 bits.
const MAX_VARINT_LEN: usize = 10;

/// The largest field number protocol buffers allow.
const MAX_FIELD: u64 = (1 << 29) - 1;

/// A length-delimited run of bytes and where it starts in the file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bytes<'a> {
    pub data: &'a [u8],
    pub offset: usize,
}

impl<'a> Bytes<'a> {
    /// A reader of the fields of the message these bytes hold.
    pub fn message(self) -> Reader<'a> {
        Reader {
            buf: self.data,
            pos: 0,
            base: self.offset,
        }
    }

    /// The bytes as UTF-8 text (protocol buffers' `string`).
    pub fn string(self) -> Result<&'a str, ProtoError> {
        std::str::from_utf8(self.data).map_err(|e| ProtoError {
            offset: self.offset + e.valid_up_to(),
            what: "a string that is valid UTF-8",
        })
    }
}

/// A field's value, by wire type.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "no field the crate reads is a fixed64; the tests read it"
        )
    )]
    Fixed64(u64),
    /// Wire type 2: a string, bytes, a message or a packed repeated field.
    Bytes(Bytes<'a>),
    /// Wire type 5.
    Fixed32(u32),
}

/// One field: its number, its value and the offset of its tag.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field<'a> {
    pub number: u32,
    pub value: Value<'a>,
    pub offset: usize,
}

impl<'a> Field<'a> {
    /// The value as a length-delimited run, or an error naming `what` was expected.
    pub fn bytes(&self, what: &'static str) -> Result<Bytes<'a>, ProtoError> {
        match self.value {
            Value::Bytes(b) => Ok(b),
            _ => Err(self.wrong(what)),
        }
    }

    /// The value as a varint, or an error naming `what` was expected.
    pub fn varint(&self, what: &'static str) -> Result<u64, ProtoError> {
        match self.value {
            Value::Varint(v) => Ok(v),
            _ => Err(self.wrong(what)),
        }
    }

    /// Appends the varints of a repeated field, packed (one run) or not (one field each).
    pub fn varints_into(&self, out: &mut Vec<u64>, what: &'static str) -> Result<(), ProtoError> {
        match self.value {
            Value::Varint(v) => out.push(v),
            Value::Bytes(b) => {
                let mut r = b.message();
                while !r.at_end() {
                    out.push(r.varint(what)?);
                }
            }
            _ => return Err(self.wrong(what)),
        }
        Ok(())
    }

    /// Appends the 32-bit floats of a repeated field, packed (one run) or not (one each).
    pub fn floats_into(&self, out: &mut Vec<f32>, what: &'static str) -> Result<(), ProtoError> {
        match self.value {
            Value::Fixed32(v) => out.push(f32::from_bits(v)),
            Value::Bytes(b) => out.extend(le_floats(b, what)?),
            _ => return Err(self.wrong(what)),
        }
        Ok(())
    }

    fn wrong(&self, what: &'static str) -> ProtoError {
        ProtoError {
            offset: self.offset,
            what,
        }
    }
}

/// The little-endian `f32`s of a run of bytes (ONNX `raw_data`, a packed `float` field).
pub(crate) fn le_floats<'a>(
    b: Bytes<'a>,
    what: &'static str,
) -> Result<impl ExactSizeIterator<Item = f32> + 'a, ProtoError> {
    if !b.data.len().is_multiple_of(4) {
        return Err(ProtoError {
            offset: b.offset,
            what,
        });
    }
    Ok(b.data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
}

/// Reads the fields of one message in order.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf` in the file.
    base: usize,
}

impl<'a> Reader<'a> {
    /// A reader of a whole file.
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader {
            buf,
            pos: 0,
            base: 0,
        }
    }

    /// Whether every byte was read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.buf.len()
    }

    fn error(&self, at: usize, what: &'static str) -> ProtoError {
        ProtoError {
            offset: self.base + at,
            what,
        }
    }

    /// A base-128 varint of at most ten bytes.
    fn varint(&mut self, what: &'static str) -> Result<u64, ProtoError> {
        let start = self.pos;
        let mut value = 0u64;
        for i in 0..MAX_VARINT_LEN {
            let Some(&byte) = self.buf.get(self.pos) else {
                return Err(self.error(start, what));
            };
            self.pos += 1;
            // The tenth byte holds only the 64th bit.
            if i == MAX_VARINT_LEN - 1 && byte > 1 {
                return Err(self.error(start, "a varint of at most 64 bits"));
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error(start, "a varint of at most ten bytes"))
    }

    fn take(&mut self, len: usize, what: &'static str) -> Result<Bytes<'a>, ProtoError> {
        let start = self.pos;
        let end = start
            .checked_add(len)
            .filter(|&end| end <= self.buf.len())
            .ok_or_else(|| self.error(start, what))?;
        self.pos = end;
        Ok(Bytes {
            data: &self.buf[start..end],
            offset: self.base + start,
        })
    }

    /// A tag: field number and wire type.
    fn tag(&mut self) -> Result<(u64, u8, usize), ProtoError> {
        let at = self.pos;
        let tag = self.varint("a field tag")?;
        let number = tag >> 3;
        if number == 0 || number > MAX_FIELD {
            return Err(self.error(at, "a field number from 1 to 2^29-1"));
        }
        Ok((number, (tag & 7) as u8, at))
    }

    /// The next field, or `None` at the end of the message. Groups (wire types 3 and 4) are
    /// skipped whole.
    pub fn next_field(&mut self) -> Result<Option<Field<'a>>, ProtoError> {
        loop {
            if self.at_end() {
                return Ok(None);
            }
            let (number, wire, offset) = self.tag()?;
            let value = match wire {
                0 => Value::Varint(self.varint("a varint value")?),
                1 => {
                    let b = self.take(8, "an 8-byte value")?;
                    let mut raw = [0; 8];
                    raw.copy_from_slice(b.data);
                    Value::Fixed64(u64::from_le_bytes(raw))
                }
                2 => {
                    let at = self.pos;
                    let len = self.varint("a length")?;
                    let len = usize::try_from(len).map_err(|_| self.error(at, "a length"))?;
                    Value::Bytes(self.take(len, "as many bytes as the length says")?)
                }
                3 => {
                    self.skip_group(number, offset)?;
                    continue;
                }
                4 => return Err(self.error(offset, "no end of a group that was not started")),
                5 => {
                    let b = self.take(4, "a 4-byte value")?;
                    Value::Fixed32(u32::from_le_bytes([
                        b.data[0], b.data[1], b.data[2], b.data[3],
                    ]))
                }
                _ => return Err(self.error(offset, "a wire type from 0 to 5")),
            };
            return Ok(Some(Field {
                number: number as u32,
                value,
                offset: self.base + offset,
            }));
        }
    }

    /// Skips the rest of a group started by field `number`, groups inside it included.
    fn skip_group(&mut self, number: u64, start: usize) -> Result<(), ProtoError> {
        let mut open = vec![number];
        while let Some(&innermost) = open.last() {
            if self.at_end() {
                return Err(self.error(start, "the end of a group"));
            }
            let (n, wire, at) = self.tag()?;
            match wire {
                0 => {
                    self.varint("a varint value")?;
                }
                1 => {
                    self.take(8, "an 8-byte value")?;
                }
                2 => {
                    let len_at = self.pos;
                    let len = self.varint("a length")?;
                    let len = usize::try_from(len).map_err(|_| self.error(len_at, "a length"))?;
                    self.take(len, "as many bytes as the length says")?;
                }
                3 => open.push(n),
                4 if n == innermost => {
                    open.pop();
                }
                4 => return Err(self.error(at, "the end of the group that is open")),
                5 => {
                    self.take(4, "a 4-byte value")?;
                }
                _ => return Err(self.error(at, "a wire type from 0 to 5")),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }

    fn tag(number: u64, wire: u64, out: &mut Vec<u8>) {
        varint(number << 3 | wire, out);
    }

    fn fields(buf: &[u8]) -> Result<Vec<Field<'_>>, ProtoError> {
        let mut r = Reader::new(buf);
        let mut out = Vec::new();
        while let Some(f) = r.next_field()? {
            out.push(f);
        }
        Ok(out)
    }

    #[test]
    fn varints_round_trip_at_every_length() {
        let values = [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u64::from(u32::MAX),
            1 << 56,
            u64::MAX - 1,
            u64::MAX,
        ];
        for v in values {
            let mut buf = Vec::new();
            tag(1, 0, &mut buf);
            varint(v, &mut buf);
            let f = fields(&buf).unwrap();
            assert_eq!(f.len(), 1);
            assert_eq!(f[0].number, 1);
            assert_eq!(f[0].varint("v").unwrap(), v, "{v}");
        }
        // 300 is the documentation's example.
        let f = fields(&[0x08, 0xac, 0x02]).unwrap();
        assert_eq!(f[0].varint("v").unwrap(), 300);
    }

    #[test]
    fn bad_varints_are_errors_with_their_offset() {
        // Truncated in the middle of a value.
        let e = fields(&[0x08, 0x80, 0x80]).unwrap_err();
        assert_eq!(e.offset, 1);
        // Eleven bytes.
        let mut buf = vec![0x08];
        buf.extend([0xff; 10]);
        buf.push(0x01);
        assert_eq!(fields(&buf).unwrap_err().offset, 1);
        // Ten bytes whose last one carries more than the 64th bit.
        let mut buf = vec![0x08];
        buf.extend([0xff; 9]);
        buf.push(0x02);
        let e = fields(&buf).unwrap_err();
        assert_eq!((e.offset, e.what), (1, "a varint of at most 64 bits"));
        // Field number zero.
        assert_eq!(fields(&[0x00, 0x01]).unwrap_err().offset, 0);
    }

    #[test]
    fn packed_and_unpacked_repeated_fields_read_the_same() {
        let ints = [3u64, 0, 1 << 40, 150];
        let floats = [1.5f32, -0.0, f32::MIN_POSITIVE, 1e30];

        let mut packed = Vec::new();
        let mut run = Vec::new();
        for v in ints {
            varint(v, &mut run);
        }
        tag(1, 2, &mut packed);
        varint(run.len() as u64, &mut packed);
        packed.extend(&run);
        tag(4, 2, &mut packed);
        varint(4 * floats.len() as u64, &mut packed);
        for v in floats {
            packed.extend(v.to_le_bytes());
        }

        let mut unpacked = Vec::new();
        for (i, f) in ints.iter().zip(floats) {
            tag(1, 0, &mut unpacked);
            varint(*i, &mut unpacked);
            tag(4, 5, &mut unpacked);
            unpacked.extend(f.to_le_bytes());
        }

        for buf in [packed, unpacked] {
            let (mut got_ints, mut got_floats) = (Vec::new(), Vec::new());
            for f in fields(&buf).unwrap() {
                match f.number {
                    1 => f.varints_into(&mut got_ints, "ints").unwrap(),
                    4 => f.floats_into(&mut got_floats, "floats").unwrap(),
                    n => panic!("field {n}"),
                }
            }
            assert_eq!(got_ints, ints);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got_floats), bits(&floats));
        }

        // A packed float run whose length is not a multiple of four.
        let buf = [0x22, 0x03, 0, 0, 0];
        let f = fields(&buf).unwrap();
        let e = f[0].floats_into(&mut Vec::new(), "floats").unwrap_err();
        assert_eq!(e.offset, 2);
        // A packed varint run that ends inside a varint.
        let buf = [0x0a, 0x02, 0x01, 0x80];
        let f = fields(&buf).unwrap();
        let e = f[0].varints_into(&mut Vec::new(), "ints").unwrap_err();
        assert_eq!(e.offset, 3);
    }

    #[test]
    fn unknown_fields_of_every_wire_type_are_skipped() {
        let mut buf = Vec::new();
        tag(100, 0, &mut buf);
        varint(u64::MAX, &mut buf);
        tag(101, 1, &mut buf);
        buf.extend([9; 8]);
        tag(102, 2, &mut buf);
        varint(3, &mut buf);
        buf.extend([0xff; 3]);
        // A group holding a field of each type and a nested group.
        tag(103, 3, &mut buf);
        tag(1, 0, &mut buf);
        varint(5, &mut buf);
        tag(2, 1, &mut buf);
        buf.extend([0; 8]);
        tag(3, 2, &mut buf);
        varint(1, &mut buf);
        buf.push(0x80);
        tag(4, 3, &mut buf);
        tag(5, 5, &mut buf);
        buf.extend([0; 4]);
        tag(4, 4, &mut buf);
        tag(103, 4, &mut buf);
        tag(104, 5, &mut buf);
        buf.extend([1; 4]);
        tag(7, 0, &mut buf);
        varint(42, &mut buf);

        let f = fields(&buf).unwrap();
        let numbers: Vec<u32> = f.iter().map(|f| f.number).collect();
        assert_eq!(numbers, [100, 101, 102, 104, 7]);
        assert!(matches!(f[1].value, Value::Fixed64(v) if v == 0x0909_0909_0909_0909));
        assert!(matches!(f[3].value, Value::Fixed32(0x0101_0101)));
        assert_eq!(f[4].varint("v").unwrap(), 42);
    }

    #[test]
    fn broken_groups_and_wire_types_are_errors() {
        // A group never closed.
        assert_eq!(fields(&[0x0b, 0x08, 0x01]).unwrap_err().offset, 0);
        // Closed by the wrong field.
        assert_eq!(fields(&[0x0b, 0x14]).unwrap_err().offset, 1);
        // An end of group with none open.
        assert_eq!(fields(&[0x0c]).unwrap_err().offset, 0);
        // Wire types 6 and 7.
        assert_eq!(fields(&[0x08, 0x01, 0x0e]).unwrap_err().offset, 2);
        assert_eq!(fields(&[0x0f]).unwrap_err().offset, 0);
    }

    #[test]
    fn lengths_beyond_the_end_and_nested_offsets() {
        // A length past the end (and one that overflows usize arithmetic).
        assert_eq!(fields(&[0x0a, 0x05, 1, 2]).unwrap_err().offset, 2);
        let mut buf = vec![0x0a];
        varint(u64::MAX, &mut buf);
        assert!(fields(&buf).is_err());
        // Truncated fixed-size values.
        assert_eq!(fields(&[0x09, 1, 2, 3]).unwrap_err().offset, 1);
        assert_eq!(fields(&[0x0d, 1]).unwrap_err().offset, 1);
        // Offsets inside a nested message count from the file's start.
        let buf = [0x08, 0x01, 0x12, 0x03, 0x08, 0x80, 0x80];
        let f = fields(&buf).unwrap();
        let inner = f[1].bytes("message").unwrap();
        assert_eq!(inner.offset, 4);
        let mut r = inner.message();
        let e = r.next_field().unwrap_err();
        assert_eq!(e.offset, 5);
        // Invalid UTF-8 in a string.
        let buf = [0x0a, 0x03, b'a', 0xff, b'b'];
        let f = fields(&buf).unwrap();
        assert_eq!(f[0].bytes("s").unwrap().string().unwrap_err().offset, 3);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..2000 {
            let buf: Vec<u8> = (0..len % 97)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 24) as u8
                })
                .collect();
            let mut r = Reader::new(&buf);
            while let Ok(Some(f)) = r.next_field() {
                if let Value::Bytes(b) = f.value {
                    let mut inner = b.message();
                    while let Ok(Some(_)) = inner.next_field() {}
                }
            }
        }
    }
}
