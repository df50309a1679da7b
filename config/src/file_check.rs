//! The settings file read on its own, before it is layered: every error it holds is placed at
//! its line, with its key and its value as written.
//!
//! The `config` crate layers the file under the environment but reports a bad value without
//! its line ("enum Attitude does not have variant constructor evil"). Reading the file once
//! through `toml`, whose errors carry the byte span, and `serde_path_to_error`, which names the
//! key, says the same in the operator's words.

use std::path::Path;

use toml::de::{DeTable, DeValue};

use crate::sections::Settings;
use crate::setting_error::{Origin, SettingError};
use crate::validate::allowed;

/// The first error of the file `path` holding `text` read on its own (as TOML, then as
/// settings), or none; the ranges are checked later, on the layered settings.
pub(crate) fn check_file(path: &Path, text: &str) -> Result<(), SettingError> {
    let at = |line| Origin::File {
        path: path.to_path_buf(),
        line,
    };
    if text.trim().is_empty() {
        return Err(SettingError {
            origin: at(None),
            key: None,
            value: None,
            message: "the file is empty (a failed copy?); the installed file lists every key \
                      with its default: restore it, or write only a comment to use every default"
                .to_owned(),
        });
    }
    let deserializer = toml::de::Deserializer::parse(text).map_err(|err| {
        let line = err.span().map(|span| line_of(text, span.start));
        let written = line
            .and_then(|line| text.lines().nth(line - 1))
            .map(str::trim);
        SettingError {
            origin: at(line),
            key: None,
            value: None,
            message: match written {
                Some(written) if !written.is_empty() => {
                    format!("not valid TOML at `{written}`: {}", err.message().trim())
                }
                _ => format!("not valid TOML: {}", err.message().trim()),
            },
        }
    })?;
    serde_path_to_error::deserialize::<_, Settings>(deserializer)
        .map(drop)
        .map_err(|err| {
            let key = err.path().to_string();
            let inner = err.inner();
            let line = inner.span().map(|span| line_of(text, span.start));
            let located = locate(text, &key);
            let mut message = in_operator_words(inner.message());
            if let Some(allowed) = allowed(&key) {
                message = format!("{message}; {allowed}");
            }
            SettingError {
                origin: at(line.or(located.as_ref().map(|(line, _)| *line))),
                value: located.map(|(_, value)| value),
                key: (key != ".").then_some(key),
                message,
            }
        })
}

/// The line (from 1) that byte `offset` of `text` is on.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Where `key` (`play.level`) is written in the TOML `text`: its line and its value as
/// written; `None` when the text does not set it to a value (or is not TOML).
pub(crate) fn locate(text: &str, key: &str) -> Option<(usize, String)> {
    let root = DeTable::parse(text).ok()?;
    let mut table: &DeTable<'_> = root.get_ref();
    let mut segments = key.split('.').peekable();
    while let Some(segment) = segments.next() {
        let (_, value) = table.iter().find(|(name, _)| name.get_ref() == segment)?;
        if segments.peek().is_none() {
            if matches!(value.get_ref(), DeValue::Table(_)) {
                return None;
            }
            let span = value.span();
            let written = text.get(span.clone())?.trim().to_owned();
            return Some((line_of(text, span.start), written));
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            _ => return None,
        }
    }
    None
}

/// serde's words for a bad value, in an operator's: "unknown key" rather than "unknown
/// field", "a whole number" rather than "u8".
pub(crate) fn in_operator_words(message: &str) -> String {
    let mut words = message
        .trim()
        .replace("unknown field", "unknown key")
        .replace("unknown variant", "unknown value")
        .replace("invalid type: ", "wrong type: ")
        .replace("invalid value: ", "wrong value: ");
    for (rust, plain) in [
        ("expected u8", "expected a whole number"),
        ("expected u16", "expected a whole number"),
        ("expected u32", "expected a whole number"),
        ("expected u64", "expected a whole number"),
        ("expected usize", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f32", "expected a number"),
        ("expected f64", "expected a number"),
    ] {
        if let Some(at) = words.find(rust) {
            let end = at + rust.len();
            // `expected u8` but not the start of `expected u8x`.
            if !words[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
                words.replace_range(at..end, plain);
            }
        }
    }
    words
}
