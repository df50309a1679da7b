//! The rule for a line that arrives while another is playing.

use crate::saying::Saying;

/// The one line that waits while another plays. Lines are reactions to the moment, so a queue
/// would make the robot comment on moves long past: the newest line takes the place, except
/// that a line that may be skipped never displaces one that must be said (a game end, a rule
/// break, a board to fix).
#[derive(Debug, Default)]
pub(crate) struct NextLine(Option<Saying>);

impl NextLine {
    /// Offers `line` the waiting place; returns the line that will not be said, if any.
    pub(crate) fn offer(&mut self, saying: Saying) -> Option<Saying> {
        match &self.0 {
            Some(waiting)
                if waiting.line.category.always_speaks()
                    && !saying.line.category.always_speaks() =>
            {
                Some(saying)
            }
            _ => self.0.replace(saying),
        }
    }

    /// The waiting line, which leaves the place empty.
    pub(crate) fn take(&mut self) -> Option<Saying> {
        self.0.take()
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use emotions::Category;

    use super::*;
    use crate::line::Line;
    use crate::line::LineAttitude;
    use emotions::Language;

    fn line(id: &str, category: Category) -> Saying {
        Saying::from(&Line {
            id: id.to_owned(),
            language: Language::English,
            category,
            attitude: LineAttitude::Any,
            mistake: None,
            text: id.to_owned(),
            audio: PathBuf::new(),
        })
    }

    fn id(saying: Option<Saying>) -> Option<String> {
        saying.map(|s| s.line.id)
    }

    #[test]
    fn the_newest_waits_unless_it_would_push_out_a_required_line() {
        let mut next = NextLine::default();
        assert_eq!(id(next.offer(line("thinking", Category::Thinking))), None);
        // Newer optional line replaces an optional one.
        assert_eq!(
            id(next.offer(line("capture", Category::Capture))),
            Some("thinking".into())
        );
        // A required line replaces an optional one.
        assert_eq!(
            id(next.offer(line("illegal", Category::IllegalMove))),
            Some("capture".into())
        );
        // An optional line cannot push it out: the optional one is dropped.
        assert_eq!(
            id(next.offer(line("surprise", Category::Surprise))),
            Some("surprise".into())
        );
        // A newer required line does.
        assert_eq!(
            id(next.offer(line("win", Category::Win))),
            Some("illegal".into())
        );
        assert_eq!(id(next.take()), Some("win".into()));
        assert_eq!(id(next.take()), None);
    }
}
