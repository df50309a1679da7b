//! Picking a phrasing: at random, but never one of the last few said.

use std::collections::VecDeque;

use emotions::LineRequest;

use crate::library::Library;
use crate::line::Line;
use crate::rng::{self, Rng};
use emotions::Language;

/// Chooses the phrasing for each line request. It remembers the last `window` lines said (of
/// any category and language) and picks at random among the fitting lines outside that window.
/// When every fitting line is in the window (a category with fewer phrasings than the window),
/// it picks the one said longest ago, so phrasings still take turns.
///
/// The dice are seeded and owned: the same seed and requests give the same lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChooser {
    rng: Rng,
    window: usize,
    /// Newest last.
    recent: VecDeque<(Language, String)>,
}

impl LineChooser {
    /// A chooser that avoids repeating any of the last `window` lines.
    pub fn new(window: usize, seed: u64) -> LineChooser {
        LineChooser {
            rng: rng::seeded(seed),
            window,
            recent: VecDeque::with_capacity(window + 1),
        }
    }

    /// How many recent lines are avoided.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Changes how many recent lines are avoided, forgetting the oldest if it shrinks.
    pub fn set_window(&mut self, window: usize) {
        self.window = window;
        while self.recent.len() > window {
            self.recent.pop_front();
        }
    }

    /// Picks a phrasing for `request` in `language` (see [`Library::candidates`] for the
    /// fallbacks) and remembers it; `None` when neither the language nor English has a fitting
    /// line.
    pub fn choose<'a>(
        &mut self,
        library: &'a Library,
        language: Language,
        request: &LineRequest,
    ) -> Option<&'a Line> {
        let candidates = library.candidates(language, request);
        let age = |line: &Line| {
            self.recent
                .iter()
                .rposition(|(l, id)| *l == line.language && *id == line.id)
        };
        let fresh: Vec<&Line> = candidates
            .iter()
            .copied()
            .filter(|&line| age(line).is_none())
            .collect();
        let chosen = if fresh.is_empty() {
            candidates.iter().copied().min_by_key(|&line| age(line))?
        } else {
            fresh[rng::below(&mut self.rng, fresh.len())]
        };
        if self.window > 0 {
            if self.recent.len() == self.window {
                self.recent.pop_front();
            }
            self.recent.push_back((chosen.language, chosen.id.clone()));
        }
        Some(chosen)
    }
}
