//! Choosing phrasings from the bundled packs: no repetition within the window, replayable.

use emotions::{Attitude, Category, LineRequest, Mistake};
use sounds::{Language, Library, LineChooser, SoundSettings, Speaker, Voice};

/// A deterministic sequence of requests from a few categories, so that the same category and
/// attitude come up often within a window (with reasons for illegal moves).
fn requests(count: usize) -> Vec<LineRequest> {
    let categories = [Category::Capture, Category::IllegalMove, Category::Capture];
    let mistakes = [
        None,
        Some(Mistake::CaptureNotFinished),
        Some(Mistake::MovedBackwards),
    ];
    (0..count)
        .map(|i| {
            let category = categories[(i * i + i / 3) % categories.len()];
            LineRequest {
                category,
                attitude: if (i / 2) % 3 == 0 {
                    Attitude::Rival
                } else {
                    Attitude::Friendly
                },
                mistake: (category == Category::IllegalMove)
                    .then(|| mistakes[(i / 5) % mistakes.len()])
                    .flatten(),
            }
        })
        .collect()
}

fn chosen_ids(
    chooser: &mut LineChooser,
    library: &Library,
    language: Language,
    requests: &[LineRequest],
) -> Vec<String> {
    requests
        .iter()
        .map(|request| {
            chooser
                .choose(library, language, request)
                .expect("every request has a line")
                .id
                .clone()
        })
        .collect()
}

#[test]
fn no_line_repeats_within_the_window() {
    let library = Library::bundled().unwrap();
    for language in Language::ALL {
        // One category over and over: every category has at least three phrasings, so a
        // window of two can always be kept.
        // (Not `tidy_up`: one sentence, said every time the robot sets the board up.)
        for category in Category::ALL.into_iter().filter(|&c| c != Category::TidyUp) {
            let request = LineRequest {
                category,
                attitude: Attitude::Rival,
                mistake: None,
            };
            let mut chooser = LineChooser::new(2, 1);
            let ids = chosen_ids(&mut chooser, &library, language, &[request; 60]);
            for (i, window) in ids.windows(3).enumerate() {
                assert!(
                    window[0] != window[1] && window[1] != window[2] && window[0] != window[2],
                    "{language} {category} at {i}: {window:?}"
                );
            }
        }
        // A mixed sequence with a wider window than some categories have phrasings: a line
        // repeats within the window only when every candidate is in it.
        let window = 8;
        let mut chooser = LineChooser::new(window, 2);
        let mut said: Vec<String> = Vec::new();
        let mut forced = 0;
        for request in requests(600) {
            let recent = &said[said.len().saturating_sub(window)..];
            let candidates = library.candidates(language, &request);
            let fresh_exists = candidates.iter().any(|line| !recent.contains(&line.id));
            let line = chooser.choose(&library, language, &request).unwrap();
            if fresh_exists {
                assert!(
                    !recent.contains(&line.id),
                    "{language}: {} repeated within {recent:?}",
                    line.id
                );
            } else {
                forced += 1;
            }
            said.push(line.id.clone());
        }
        // The sequence does exercise both cases.
        assert!(forced > 0 && forced < 300, "{language}: {forced}");
    }
}

#[test]
fn when_all_phrasings_are_recent_they_take_turns() {
    let library = Library::bundled().unwrap();
    let request = LineRequest {
        category: Category::Win,
        attitude: Attitude::Friendly,
        mistake: None,
    };
    let phrasings = library.candidates(Language::Ukrainian, &request).len();
    assert_eq!(phrasings, 3, "the test assumes three phrasings");
    let mut chooser = LineChooser::new(10, 3);
    let ids = chosen_ids(&mut chooser, &library, Language::Ukrainian, &[request; 30]);
    let first: Vec<&String> = ids[..3].iter().collect();
    assert!(first[0] != first[1] && first[1] != first[2] && first[0] != first[2]);
    for (i, id) in ids.iter().enumerate().skip(3) {
        assert_eq!(id, &ids[i - 3], "at {i}: {ids:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_lines_and_every_phrasing_comes_up() {
    let library = Library::bundled().unwrap();
    let requests = requests(300);
    let run = |seed| {
        let mut chooser = LineChooser::new(4, seed);
        chosen_ids(&mut chooser, &library, Language::Russian, &requests)
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));

    let request = LineRequest {
        category: Category::Idle,
        attitude: Attitude::Rival,
        mistake: None,
    };
    let all: std::collections::BTreeSet<String> = library
        .candidates(Language::English, &request)
        .iter()
        .map(|line| line.id.clone())
        .collect();
    let mut chooser = LineChooser::new(0, 9);
    let said: std::collections::BTreeSet<String> =
        chosen_ids(&mut chooser, &library, Language::English, &[request; 100])
            .into_iter()
            .collect();
    assert_eq!(said, all);
}

#[test]
fn the_voice_returns_the_line_it_hands_to_the_speaker() {
    let settings = SoundSettings {
        language: Language::Ukrainian,
        no_repeat: 3,
        ..SoundSettings::default()
    };
    let library = Library::bundled().unwrap();
    let mut voice = Voice::new(library, Speaker::silent(), &settings, 5);
    let request = LineRequest {
        category: Category::FixBoard,
        attitude: Attitude::Friendly,
        mistake: Some(Mistake::CapturesNotRemoved),
    };
    let line = voice.speak(&request, None).unwrap().line;
    assert_eq!(line.language, Language::Ukrainian);
    assert_eq!(line.mistake, Some(Mistake::CapturesNotRemoved));
    let reported = voice.speaker().reports().try_recv().unwrap();
    assert_eq!(reported, sounds::Playback::Silent(line));

    voice.apply(&SoundSettings {
        language: Language::English,
        ..settings
    });
    assert_eq!(
        voice.speak(&request, None).unwrap().line.language,
        Language::English
    );
}
