//! Level 5's alpha-beta searcher on its own, for the engine protocols (`checkerbot hub` and
//! `checkerbot dxp`).
//!
//! Those protocols report the search's own depth, score and line, so they drive a `Searcher`
//! rather than a [`Brain`](crate::Brain). It must still be the searcher level 5 plays with:
//! the variant's learned evaluation (`evaluation.rs`) and, in Russian, the endgame tables
//! (`tables.rs`), read from where the settings say, with the same log lines and the same
//! fallbacks (the hand-written evaluation, no tables) when a file is missing or damaged.

use checkerbot_config::{PlayLevel, Settings};
use search::Searcher;

use crate::evaluation::LoadedEvaluation;
use crate::tables::Tables;

/// Level 5's searcher for `settings.game.variant` (whatever level the settings name), with a
/// transposition table of `table_megabytes`, and what it searches with, for the engine's log:
/// "learned evaluation russian-eval.onnx; endgame tables up to 5 pieces", or why not.
pub fn level_5_searcher(settings: &Settings, table_megabytes: usize) -> (Searcher, String) {
    let mut settings = settings.clone();
    settings.play.level = PlayLevel::Fixed(5);
    let evaluation = LoadedEvaluation::load(&settings);
    let tables = Tables::load(&settings);
    let mut searcher = Searcher::new(table_megabytes);
    searcher.set_evalnet(evaluation.network());
    searcher.set_egdb(tables.egdb());
    let evaluation = match evaluation.status() {
        Some(Ok(file)) => format!("learned evaluation {file}"),
        Some(Err(reason)) => format!("hand-written evaluation: {reason}"),
        None => "hand-written evaluation".to_owned(),
    };
    let description = match tables.status() {
        None => evaluation,
        Some(Ok(pieces)) => format!("{evaluation}; endgame tables up to {pieces} pieces"),
        Some(Err(reason)) => format!("{evaluation}; no endgame tables: {reason}"),
    };
    (searcher, description)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rules::Variant;

    use super::*;

    fn settings(variant: Variant, models: &Path) -> Settings {
        let mut settings = Settings::default();
        settings.game.variant = variant;
        settings.play.level = PlayLevel::Fixed(1);
        settings.paths.models_dir = Some(models.to_path_buf());
        settings
    }

    #[test]
    fn the_engines_level_5_searches_with_the_shipped_learned_evaluation() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        for variant in [Variant::Russian, Variant::English] {
            let (searcher, description) = level_5_searcher(&settings(variant, &models), 1);
            let net = searcher.evalnet().expect("the shipped evaluation is read");
            assert_eq!(net.variant(), variant);
            assert_eq!(
                description,
                format!("learned evaluation {}-eval.onnx", variant.name())
            );
        }
    }

    #[test]
    fn without_a_file_the_engines_level_5_says_why_it_plays_the_hand_written_evaluation() {
        let empty = tempfile::tempdir().unwrap();
        let (searcher, description) =
            level_5_searcher(&settings(Variant::International, empty.path()), 1);
        assert!(searcher.evalnet().is_none());
        assert!(
            description.starts_with("hand-written evaluation: no file ")
                && description.ends_with("international-eval.onnx"),
            "{description}"
        );
    }
}
