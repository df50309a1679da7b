//! The corpus of broken settings files in `config/tests/broken/`: each `NAME.toml` is refused,
//! and its error names the file and holds every line of `NAME.expect` (the line, the key, the
//! value as written and what is allowed, as each case allows). Typos, wrong types,
//! out-of-range values, bad enums, broken syntax, duplicate keys and empty files.

use std::collections::HashMap;
use std::path::Path;

use checkerbot_config::load_with_env;

#[test]
fn every_broken_file_is_refused_in_the_operators_words() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "only {} broken files", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let expect = std::fs::read_to_string(file.with_extension("expect"))
            .unwrap_or_else(|_| panic!("{} has no .expect beside it", file.display()));
        let said = match load_with_env(Some(file), HashMap::new()) {
            Ok(_) => {
                failures.push(format!("{}: accepted", file.display()));
                continue;
            }
            Err(err) => err.to_string(),
        };
        let name = file.display().to_string();
        for fragment in std::iter::once(name.as_str()).chain(expect.lines()) {
            if !said.contains(fragment) {
                failures.push(format!("{}: no {fragment:?} in: {said}", file.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
