//! The search with endgame tables below the root: a table's win scores above the evaluation's
//! range and below a mate, a table's draw 0, a mate the search sees still a mate; without
//! pruning it scores exactly as minimax that probes the same positions; the root is never
//! probed.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use egdb::{Egdb, Wdl};
use rules::{Position, Variant, fen, notation};
use search::{
    Limits, SearchResult, Searcher, TB_EVAL_CLAMP, TB_WIN, TB_WIN_THRESHOLD, WIN, WIN_THRESHOLD,
};
use testkit::Lcg;

use crate::reference::minimax;

/// Every table of up to 4 pieces, built once for the binary (a few seconds optimised).
fn tables() -> Arc<Egdb> {
    static TABLES: OnceLock<Arc<Egdb>> = OnceLock::new();
    TABLES
        .get_or_init(|| Arc::new(egdb::build(Variant::Russian, 4, None, &mut |_| {}).unwrap()))
        .clone()
}

/// A searcher with the 4-piece tables.
fn with_tables() -> Searcher {
    let mut searcher = Searcher::new(1);
    searcher.set_egdb(Some(tables()));
    searcher
}

fn position(text: &str) -> Position {
    fen::parse(Variant::Russian, text).unwrap()
}

fn search(searcher: &mut Searcher, position: &Position, depth: u32) -> SearchResult {
    let limits = Limits {
        depth,
        nodes: u64::MAX,
    };
    searcher.search(position, &[], limits, &AtomicBool::new(false))
}

/// The most the evaluation gives a position of the tests' material: three kings up.
const EVAL_RANGE: i32 = 3 * 300;

#[test]
fn at_depth_1_a_table_win_scores_above_the_evaluation_and_below_a_mate() {
    // Three kings against one off the main diagonal (Petrov's triangle): a win in 7 plies.
    let start = position("W:WKa1,Kc1,Ke1:BKh4");
    assert_eq!(tables().probe(&start), Some(Wdl::Win));
    let mut plain = Searcher::new(1);
    let without = search(&mut plain, &start, 1);
    assert!(without.score.abs() <= EVAL_RANGE, "{without:?}");
    assert_eq!(without.tb_hits, 0);

    let mut searcher = with_tables();
    let with = search(&mut searcher, &start, 1);
    assert!(with.score > EVAL_RANGE, "{with:?}");
    assert!(
        (TB_WIN_THRESHOLD..WIN_THRESHOLD).contains(&with.score),
        "{with:?}"
    );
    // The child a ply below the root, lost for Black: TB_WIN less one ply, moved by the
    // evaluation within its clamp.
    assert!(
        (TB_WIN - 1 - TB_EVAL_CLAMP..=TB_WIN - 1 + TB_EVAL_CLAMP).contains(&with.score),
        "{with:?}"
    );
    assert!(with.tb_hits > 0, "{with:?}");
    assert!(with.win_probability > 0.999_999, "{with:?}");
    let best = with.best.unwrap();
    assert_eq!(
        tables().probe(&start.play(&best).unwrap()),
        Some(Wdl::Loss),
        "the move keeps the win"
    );

    // The lone king's side sees its loss the same way.
    let lost = position("B:WKa1,Kc1,Ke1:BKh4");
    let with = search(&mut searcher, &lost, 1);
    assert!(
        (-WIN_THRESHOLD + 1..=-TB_WIN_THRESHOLD).contains(&with.score),
        "{with:?}"
    );
}

#[test]
fn at_depth_1_a_lone_king_on_the_main_diagonal_draws() {
    for text in [
        "W:WKc1,Ke1,Kg1:BKh8",
        "B:WKc1,Ke1,Kg1:BKh8",
        "W:WKa3,Kc1,Kh6:BKe5",
        "B:WKa3,Kc1,Kh6:BKe5",
    ] {
        let start = position(text);
        assert_eq!(tables().probe(&start), Some(Wdl::Draw), "{text}");
        let mut plain = Searcher::new(1);
        let without = search(&mut plain, &start, 1);
        assert_ne!(without.score, 0, "{text}: the evaluation sees material");
        let mut searcher = with_tables();
        let with = search(&mut searcher, &start, 1);
        assert_eq!(with.score, 0, "{text}: {with:?}");
        assert!(with.tb_hits > 0, "{text}");
    }
}

#[test]
fn a_mate_the_search_sees_ranks_above_a_table_win() {
    // White takes Black's last piece: a mate in one ply, not a table win.
    let start = position("W:WKa1,Kc1,Ke1:BKb2");
    let mut searcher = with_tables();
    let result = search(&mut searcher, &start, 3);
    assert_eq!(result.score, WIN - 1, "{result:?}");
    // d2-c3 shuts Black's king in a1 behind two men: a loss in the table without a move,
    // which the search scores as the mate it is, though Black has a piece.
    let blocking = position("W:Wb2,d2:BKa1");
    let result = search(&mut searcher, &blocking, 1);
    assert_eq!(result.score, WIN - 1, "{result:?}");
    assert_eq!(
        result.best,
        Some(notation::parse_move(&blocking, "d2-c3").unwrap())
    );
}

#[test]
fn the_root_is_never_probed() {
    // A root within the tables is searched, so every root move gets its own score.
    let start = position("W:WKa1,Kc1,Ke1:BKh4");
    let mut searcher = with_tables();
    let result = search(&mut searcher, &start, 1);
    // Every quiet child is answered by the tables (a child where the lone king must capture
    // is searched on until quiet), the root is not.
    let quiet = start
        .legal_moves()
        .iter()
        .filter(|mv| !start.play(mv).unwrap().has_capture())
        .count() as u64;
    assert!(quiet > 0);
    assert!(result.tb_hits >= quiet, "{result:?}");
    assert!(result.nodes > result.tb_hits, "{result:?}");
    assert_eq!(result.pv.first(), result.best.as_ref());
}

#[test]
fn other_tables_forget_the_transposition_table() {
    let start = position("W:WKa1,Kc1,Ke1:BKh4");
    let mut searcher = with_tables();
    let with = search(&mut searcher, &start, 3);
    searcher.set_egdb(None);
    let after = search(&mut searcher, &start, 3);
    let fresh = search(&mut Searcher::new(1), &start, 3);
    assert!(with.score >= TB_WIN_THRESHOLD);
    assert_eq!(after.score, fresh.score);
    assert_eq!(after.tb_hits, 0);
}

/// A random legal Russian position of `pieces` pieces (men off their crowning row), either
/// side to move.
fn random_position(rng: &mut Lcg, pieces: usize) -> Position {
    loop {
        let mut squares: Vec<(usize, usize)> = Vec::new();
        while squares.len() < pieces {
            let (col, row) = (rng.below(8), rng.below(8));
            if (col + row) % 2 == 0 && !squares.contains(&(col, row)) {
                squares.push((col, row));
            }
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (i, &(col, row)) in squares.iter().enumerate() {
            // At least one piece each.
            let side = if i < 2 { i } else { rng.below(2) };
            let crowning = if side == 0 { 7 } else { 0 };
            let king = row == crowning || rng.below(3) == 0;
            let name = format!(
                "{}{}{}",
                if king { "K" } else { "" },
                (b'a' + col as u8) as char,
                row + 1
            );
            sides[side].push(name);
        }
        let turn = if rng.below(2) == 0 { "W" } else { "B" };
        let text = format!("{turn}:W{}:B{}", sides[0].join(","), sides[1].join(","));
        if let Ok(position) = fen::parse(Variant::Russian, &text)
            && !position.legal_moves().is_empty()
        {
            return position;
        }
    }
}

#[test]
fn with_tables_and_without_pruning_the_search_scores_as_minimax_that_probes_alike() {
    let egdb = tables();
    let stop = AtomicBool::new(false);
    let mut rng = Lcg(22);
    let mut hits = 0;
    let mut checked = 0;
    for n in 0..48 {
        let position = random_position(&mut rng, 4 + n % 3);
        if position.legal_moves().len() < 2 {
            continue;
        }
        for depth in 1..=3 {
            let mut searcher = Searcher::new(1).without_pruning();
            searcher.set_egdb(Some(egdb.clone()));
            let limits = Limits {
                depth,
                nodes: u64::MAX,
            };
            let found = searcher.search(&position, &[], limits, &stop);
            let expected = minimax(
                Some(&egdb),
                None,
                &position,
                depth as i32,
                0,
                &mut Vec::new(),
            );
            assert_eq!(found.score, expected, "depth {depth} {position:?}");
            hits += u64::from(found.tb_hits > 0);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} compared");
    assert!(hits > 50, "only {hits} searches probed the tables");
}
