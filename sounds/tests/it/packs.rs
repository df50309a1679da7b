//! The bundled packs are complete, consistent and playable.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use emotions::{Attitude, Category, LineRequest, Mistake};
use sounds::{Language, Library};

use crate::audio::decode;

/// Every reason, so a new `Mistake` without lines fails here: `position` stops compiling.
const MISTAKES: [Mistake; 11] = Mistake::ALL;

fn position(mistake: Mistake) -> usize {
    match mistake {
        Mistake::MustCapture => 0,
        Mistake::CaptureNotFinished => 1,
        Mistake::NotMajorityCapture => 2,
        Mistake::CaptureOrder => 3,
        Mistake::MovedBackwards => 4,
        Mistake::MovedRobotPiece => 5,
        Mistake::NotAMove => 6,
        Mistake::CapturesNotRemoved => 7,
        Mistake::NoMove => 8,
        Mistake::PieceMissing => 9,
        Mistake::PieceExtra => 10,
    }
}

/// The reasons whose lines are the category's own: every `must_capture` line is about it.
fn explained_by_category(mistake: Mistake) -> bool {
    mistake == Mistake::MustCapture
}

const ATTITUDES: [Attitude; 2] = [Attitude::Friendly, Attitude::Rival];
const AT_LEAST: usize = 3;

/// The phrasings a category needs: `tidy_up` has one sentence the operator hears every
/// time the robot sets the board up, the same for both attitudes.
fn at_least(category: Category) -> usize {
    if category == Category::TidyUp {
        1
    } else {
        AT_LEAST
    }
}

fn library() -> Library {
    Library::bundled().expect("the bundled packs load")
}

#[test]
fn the_mistake_list_is_complete() {
    for (i, mistake) in MISTAKES.into_iter().enumerate() {
        assert_eq!(position(mistake), i);
    }
}

#[test]
fn every_category_has_lines_in_every_language_and_attitude() {
    let library = library();
    let mut gaps = Vec::new();
    for language in Language::ALL {
        for category in Category::ALL {
            for attitude in ATTITUDES {
                let own = library.matching(language, category, attitude, None).count();
                if own < at_least(category) {
                    gaps.push(format!("{language} {category} {attitude}: {own} lines"));
                }
                let request = LineRequest {
                    category,
                    attitude,
                    mistake: None,
                };
                let candidates = library.candidates(language, &request);
                if candidates.iter().any(|line| line.language != language) {
                    gaps.push(format!("{language} {category} {attitude}: falls back"));
                }
            }
        }
    }
    assert!(gaps.is_empty(), "{gaps:#?}");
}

#[test]
fn every_mistake_is_explained_in_every_language_and_attitude() {
    let library = library();
    let mut gaps = Vec::new();
    for language in Language::ALL {
        for mistake in MISTAKES {
            for attitude in ATTITUDES {
                let request = LineRequest {
                    category: mistake.category(),
                    attitude,
                    mistake: Some(mistake),
                };
                let candidates = library.candidates(language, &request);
                let fitting = candidates
                    .iter()
                    .filter(|line| {
                        line.language == language
                            && (line.mistake == Some(mistake) || explained_by_category(mistake))
                    })
                    .count();
                if fitting < AT_LEAST || fitting != candidates.len() {
                    gaps.push(format!(
                        "{language} {mistake:?} {attitude}: {fitting} of {} candidates fit",
                        candidates.len()
                    ));
                }
            }
        }
    }
    assert!(gaps.is_empty(), "{gaps:#?}");
}

#[test]
fn every_language_has_the_same_phrases() {
    let library = library();
    let ids = |language| -> BTreeSet<String> {
        library
            .lines(language)
            .iter()
            .map(|line| line.id.clone())
            .collect()
    };
    let english = ids(Language::English);
    assert!(english.len() >= Category::ALL.len() * ATTITUDES.len() * AT_LEAST);
    for language in [Language::Russian, Language::Ukrainian] {
        let other = ids(language);
        assert_eq!(
            english.symmetric_difference(&other).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "{language}"
        );
    }
}

#[test]
fn every_audio_file_exists_and_decodes_to_speech() {
    let library = library();
    let mut problems = Vec::new();
    let mut files = 0;
    for language in Language::ALL {
        for line in library.lines(language) {
            files += 1;
            match decode(&line.audio) {
                // The shortest line ("Думаю.") lasts about half a second, the longest about
                // five; peaks are normalised to -1 dB.
                Ok((seconds, peak)) if (0.2..10.0).contains(&seconds) && peak > 0.5 => {}
                Ok((seconds, peak)) => problems.push(format!(
                    "{}: {seconds:.2} s, peak {peak:.2}",
                    line.audio.display()
                )),
                Err(error) => problems.push(format!("{}: {error}", line.audio.display())),
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(files >= 3 * Category::ALL.len() * ATTITUDES.len() * AT_LEAST);
}

#[test]
fn no_audio_file_is_left_over() {
    let library = library();
    let referenced: BTreeSet<_> = Language::ALL
        .into_iter()
        .flat_map(|language| library.lines(language))
        .map(|line| line.audio.clone())
        .collect();
    let mut unreferenced = Vec::new();
    for language in Language::ALL {
        let audio = Path::new(Library::BUNDLED)
            .join(language.code())
            .join("audio");
        for entry in fs::read_dir(&audio).unwrap() {
            let path = entry.unwrap().path();
            if !referenced.contains(&path) {
                unreferenced.push(path);
            }
        }
    }
    assert!(unreferenced.is_empty(), "{unreferenced:#?}");
}
