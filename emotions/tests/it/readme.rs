//! The eye gallery in `README.md` is the renderer's own output: this test regenerates it and
//! compares. `UPDATE_README=1 cargo test -p emotions --test it -- readme::` rewrites the section.

use std::fmt::Write as _;

use emotions::{Emotion, Expression, FaceSettings, FaceState, Frame, Gaze, NeckPose};

const BEGIN: &str = "<!-- gallery:begin -->\n";
const END: &str = "<!-- gallery:end -->\n";

fn preview(emotion: Emotion, intensity: f32, gaze: Gaze, eyes_closed: bool) -> String {
    let face = FaceState {
        expression: Expression::new(emotion, intensity),
        gaze,
        neck: NeckPose::Up,
        eyes_closed,
    };
    Frame::render(&face, &FaceSettings::default()).preview()
}

/// Previews side by side, each under its caption.
fn side_by_side(panels: &[(&str, String)]) -> String {
    let width = 18 + 4;
    let mut text = String::new();
    let captions: Vec<String> = panels
        .iter()
        .map(|(caption, _)| format!("{caption:<width$}"))
        .collect();
    text += captions.concat().trim_end();
    text.push('\n');
    let rows: Vec<Vec<&str>> = panels.iter().map(|(_, p)| p.lines().collect()).collect();
    for row in 0..rows[0].len() {
        let line: Vec<String> = rows
            .iter()
            .map(|panel| format!("{:<width$}", panel[row]))
            .collect();
        text += line.concat().trim_end();
        text.push('\n');
    }
    text
}

fn gallery() -> String {
    let mut text = String::from(BEGIN);
    text += "\n### neutral\n\n```text\n";
    text += &side_by_side(&[
        (
            "at the visitor",
            preview(Emotion::Neutral, 0.0, Gaze::Visitor, false),
        ),
        (
            "straight ahead",
            preview(Emotion::Neutral, 0.0, Gaze::Centre, false),
        ),
        (
            "at the board",
            preview(Emotion::Neutral, 0.0, Gaze::Board, false),
        ),
        (
            "blinking",
            preview(Emotion::Neutral, 0.0, Gaze::Centre, true),
        ),
    ]);
    text += "```\n";
    for emotion in Emotion::ALL.into_iter().skip(1) {
        let _ = write!(text, "\n### {emotion}\n\n```text\n");
        text += &side_by_side(&[
            ("intensity 0.5", preview(emotion, 0.5, Gaze::Centre, false)),
            ("intensity 1.0", preview(emotion, 1.0, Gaze::Centre, false)),
            (
                "1.0, at the board",
                preview(emotion, 1.0, Gaze::Board, false),
            ),
        ]);
        text += "```\n";
    }
    text += "\n";
    text += END;
    text
}

#[test]
fn readme_gallery_matches_the_renderer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = readme.find(BEGIN).expect("gallery begin marker");
    let end = readme.find(END).expect("gallery end marker") + END.len();
    let expected = gallery();
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(path, updated).unwrap();
        return;
    }
    assert!(
        readme[start..end] == expected,
        "README.md gallery is stale; run UPDATE_README=1 cargo test -p emotions --test it -- readme::\n{expected}"
    );
    for emotion in Emotion::ALL {
        assert!(expected.contains(&format!("### {emotion}\n")));
    }
}
