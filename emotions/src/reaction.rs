//! A reaction to an event: an expression shown for a while before the mood takes over again.

use crate::millis::Millis;
use crate::rules::{Candidate, MoveReaction};
use crate::settings::ExpressionSettings;

/// One expression until `switch_at`, then optionally another until `until`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Reaction {
    first: Candidate,
    switch_at: Millis,
    then: Option<Candidate>,
    until: Millis,
}

impl Reaction {
    pub(crate) fn single(candidate: Candidate, now: Millis, lasting: Millis) -> Reaction {
        let until = now.plus(lasting);
        Reaction {
            first: candidate,
            switch_at: until,
            then: None,
            until,
        }
    }

    /// Surprise is brief: it gives way to what the change of v means (the friend's praise, the
    /// rival's anger) after `surprise_ms`.
    pub(crate) fn after_move(
        reaction: MoveReaction,
        now: Millis,
        settings: &ExpressionSettings,
    ) -> Option<Reaction> {
        match reaction {
            MoveReaction {
                surprise: Some(surprise),
                then,
            } => {
                let switch_at = now.plus(settings.surprise_ms);
                Some(Reaction {
                    first: surprise,
                    switch_at,
                    then,
                    until: then.map_or(switch_at, |_| switch_at.plus(settings.reaction_ms)),
                })
            }
            MoveReaction {
                surprise: None,
                then,
            } => then.map(|then| Reaction::single(then, now, settings.reaction_ms)),
        }
    }

    /// The expression this reaction asks for at `now`, if it still lasts.
    pub(crate) fn at(&self, now: Millis) -> Option<Candidate> {
        if now < self.switch_at {
            Some(self.first)
        } else if now < self.until {
            self.then
        } else {
            None
        }
    }
}
