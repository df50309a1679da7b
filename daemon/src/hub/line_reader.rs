//! The GUI's lines, read with a bound on their length, so that input without line ends (a
//! binary file piped in by mistake, a GUI gone wrong) cannot fill the memory: a longer line is
//! dropped as it comes and refused whole.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt as _};

/// The longest line kept, in bytes: far beyond any Hub command (a 12x12 position is under
/// 100 characters, a `set-param` value a file name).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line without its line end. Bytes that are not UTF-8 are replaced, so such a line is
    /// refused by the parser like any bad line rather than taken for a broken pipe.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]; its bytes were dropped.
    TooLong,
}

/// Reads [`Line`]s from `input`.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    /// The bytes of the line not yet ended.
    line: Vec<u8>,
    /// The line not yet ended is already too long: its further bytes are dropped.
    too_long: bool,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    /// A reader of `input`'s lines.
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            line: Vec::new(),
            too_long: false,
        }
    }

    /// The next line, `None` at the end of input (a last line without a line end still
    /// counts). Cancel safe: the bytes of a line not yet ended stay in the reader, since bytes
    /// are taken from `input` only once they are kept or dropped, with no await between.
    pub async fn next(&mut self) -> io::Result<Option<Line>> {
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                if self.line.is_empty() && !self.too_long {
                    return Ok(None);
                }
                return Ok(Some(self.take()));
            }
            let end = available.iter().position(|&byte| byte == b'\n');
            let chunk = &available[..end.unwrap_or(available.len())];
            if !self.too_long {
                if self.line.len() + chunk.len() > MAX_LINE_BYTES {
                    self.too_long = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(chunk);
                }
            }
            let used = end.map_or(available.len(), |end| end + 1);
            self.input.consume(used);
            if end.is_some() {
                return Ok(Some(self.take()));
            }
        }
    }

    /// The line read so far, and a fresh start for the next.
    fn take(&mut self) -> Line {
        if std::mem::take(&mut self.too_long) {
            return Line::TooLong;
        }
        let mut bytes = std::mem::take(&mut self.line);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Line::Text(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8]) -> Vec<Line> {
        // A small buffer, so lines span several reads.
        let mut reader = LineReader::new(tokio::io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        while let Some(line) = reader.next().await.unwrap() {
            out.push(line);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_owned())
    }

    #[tokio::test]
    async fn lines_end_at_newlines_with_or_without_a_carriage_return_and_at_the_end() {
        assert_eq!(
            lines(b"hub\r\nping\n\nquit").await,
            [text("hub"), text("ping"), text(""), text("quit")]
        );
        assert_eq!(lines(b"").await, []);
        assert_eq!(lines(b"\xff\xfe\n").await, [text("\u{fffd}\u{fffd}")]);
    }

    #[tokio::test]
    async fn a_line_too_long_is_refused_whole_and_the_next_one_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 1];
        input.extend_from_slice(b"\nping\n");
        input.extend(vec![b'y'; MAX_LINE_BYTES]);
        input.extend_from_slice(b"\n");
        input.extend(vec![b'z'; 3 * MAX_LINE_BYTES]);
        let read = lines(&input).await;
        assert_eq!(read.len(), 4);
        assert_eq!(read[0], Line::TooLong);
        assert_eq!(read[1], text("ping"));
        assert_eq!(read[2], Line::Text("y".repeat(MAX_LINE_BYTES)));
        assert_eq!(read[3], Line::TooLong);
    }
}
