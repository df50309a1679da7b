//! The fragment catalogues and their rendered audio.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use sounds::{FRAGMENTS_DIR, Language, Library};

use crate::audio::decode;

const ATTITUDES: [&str; 2] = ["friendly", "rival"];

/// `fragments.toml` as the speech crate lists a language's fragments: what
/// `sounds/render-packs` renders.
fn catalogue(language: Language) -> String {
    let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
    let mut out = format!(
        "# Every fragment explanations are joined from, listed by the speech crate\n\
         # (sounds/speech/src/language/). Generated: after changing a phrase, run\n\
         # CHECKERBOT_WRITE_FRAGMENTS=1 cargo test -p sounds --test it fragments, then\n\
         # sounds/render-packs, and commit this file with the audio.\n\
         language = \"{}\"\n",
        language.code()
    );
    for fragment in speech::fragments(language) {
        let _ = write!(
            out,
            "\n[[fragment]]\nid = {}\ntext = {}\nspoken = {}\n",
            quote(fragment.id.as_str()),
            quote(&fragment.text),
            quote(&fragment.spoken)
        );
    }
    out
}

fn pack(language: Language) -> PathBuf {
    Path::new(Library::BUNDLED).join(language.code())
}

#[test]
fn the_committed_catalogues_list_what_the_code_says() {
    for language in Language::ALL {
        let path = pack(language).join("fragments.toml");
        let want = catalogue(language);
        if std::env::var_os("CHECKERBOT_WRITE_FRAGMENTS").is_some() {
            fs::write(&path, &want).unwrap();
        }
        let have = fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} is out of date: run CHECKERBOT_WRITE_FRAGMENTS=1 cargo test -p sounds --test it \
             fragments, then sounds/render-packs",
            path.display()
        );
    }
}

#[test]
fn every_fragment_is_rendered_in_both_voices_and_nothing_else_is() {
    let mut problems = Vec::new();
    for language in Language::ALL {
        let ids: Vec<String> = speech::fragments(language)
            .into_iter()
            .map(|f| f.id.to_string())
            .collect();
        for attitude in ATTITUDES {
            let dir = pack(language).join(FRAGMENTS_DIR).join(attitude);
            for id in &ids {
                let path = dir.join(format!("{id}.ogg"));
                match decode(&path) {
                    // The shortest fragment, Russian «и» ("and"), lasts 60 ms.
                    Ok((seconds, peak)) if (0.04..6.0).contains(&seconds) && peak > 0.5 => {}
                    Ok((seconds, peak)) => {
                        problems.push(format!(
                            "{}: {seconds:.2} s, peak {peak:.2}",
                            path.display()
                        ));
                    }
                    Err(error) => problems.push(format!("{}: {error}", path.display())),
                }
            }
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !ids.iter().any(|id| name == format!("{id}.ogg")) {
                    problems.push(format!(
                        "{}: no fragment has this name",
                        entry.path().display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
