use rules::{Move, Position, Variant};

use super::{
    AGREEMENT_MEMORY, AGREEMENT_MIN, Adaptive, CAREFUL_BELOW, CAREFUL_LEAN_MARGIN, COST_CAP,
    CUT_MARGIN, Choice, FULL_DEPTH, GIVE_AWAY, MEMORY, MIN_DEPTH, NEW_VISITOR_COSTS, cost,
    edge_for, score_of,
};
use crate::rng::SplitMix;

/// The seven legal moves of the starting position, scored as the test says.
fn scored(scores: &[i32]) -> Vec<(Move, i32)> {
    let moves = Position::new(Variant::Russian).legal_moves();
    assert_eq!(moves.len(), scores.len());
    moves.into_iter().zip(scores.iter().copied()).collect()
}

/// Scores for the starting position's seven moves from `best` down: the best, two sound moves, a
/// slip, a piece left, two pieces left, a lost game.
fn spread(best: i32) -> Vec<(Move, i32)> {
    scored(&[
        best,
        best - 5,
        best - 10,
        best - 30,
        best - 100,
        best - 200,
        best - 400,
    ])
}

/// The cost (best score minus the chosen move's; 0 at full strength) of `draws` choices.
fn costs(adaptive: &Adaptive, scored: &[(Move, i32)], draws: usize) -> Vec<i32> {
    let best = scored.iter().map(|&(_, s)| s).max().unwrap();
    let mut rng = SplitMix::new(5);
    (0..draws)
        .map(|_| match adaptive.choose(scored, &mut rng) {
            Choice::FullStrength => 0,
            Choice::Weaker(_, score) => best - score,
        })
        .collect()
}

/// An adaptive level (target 0.5) that has watched a visitor whose moves cost `cost` each, for
/// as long as it remembers.
fn visitor_costing(cost: i32) -> Adaptive {
    visitor_alternating(cost, cost)
}

/// An adaptive level (target 0.5) that has watched a visitor whose moves cost `a` and `b` in
/// turn.
fn visitor_alternating(a: i32, b: i32) -> Adaptive {
    let mut adaptive = Adaptive::new(0.5);
    for cost in [a, b].repeat(MEMORY / 2) {
        adaptive.observe(cost);
    }
    adaptive
}

/// The costs the adaptive level remembers, oldest first.
fn remembered(adaptive: &Adaptive) -> Vec<i32> {
    adaptive.costs.iter().copied().collect()
}

#[test]
fn a_new_visitors_own_moves_replace_the_assumed_costs_first() {
    let mut adaptive = Adaptive::new(0.5);
    assert_eq!(remembered(&adaptive), NEW_VISITOR_COSTS);
    adaptive.observe(7);
    // The oldest assumed cost gave way to the visitor's.
    assert_eq!(
        remembered(&adaptive),
        [&NEW_VISITOR_COSTS[1..], &[7]].concat()
    );
    for _ in 1..NEW_VISITOR_COSTS.len() {
        adaptive.observe(0);
    }
    let n = NEW_VISITOR_COSTS.len();
    assert_eq!(
        remembered(&adaptive),
        [[7].as_slice(), &vec![0; n - 1]].concat()
    );
    // Then the memory grows, up to MEMORY.
    for _ in 0..MEMORY {
        adaptive.observe(40);
    }
    assert_eq!(remembered(&adaptive), vec![40; MEMORY]);
}

#[test]
fn the_position_left_to_the_visitor_is_measured_once() {
    let position = Position::new(Variant::Russian);
    let mut adaptive = Adaptive::new(0.5);
    assert_eq!(adaptive.take_left(), None);
    adaptive.played(position, None);
    assert_eq!(adaptive.take_left(), Some(position));
    assert_eq!(adaptive.take_left(), None);
    adaptive.played(position, None);
    adaptive.forget_visitor();
    assert_eq!(adaptive.take_left(), None);
}

#[test]
fn costs_are_capped_and_never_negative() {
    assert_eq!(remembered(&visitor_costing(20_000)), vec![COST_CAP; MEMORY]);
    // A move the short search scores above its best (a deeper look) costs nothing.
    assert_eq!(remembered(&visitor_costing(-80)), vec![0; MEMORY]);
    // Between two lost games there is nothing to choose; a lost game costs the cap.
    assert_eq!(cost(-search::WIN_THRESHOLD, -search::WIN_THRESHOLD - 40), 0);
    assert_eq!(cost(20, -search::WIN_THRESHOLD), 20 + COST_CAP);
}

#[test]
fn against_a_visitor_who_gives_nothing_away_the_robot_plays_at_full_strength() {
    let adaptive = visitor_costing(0);
    assert!(costs(&adaptive, &spread(0), 50).iter().all(|&c| c == 0));
}

/// The robot's score at which the game is even for this visitor (target 0.5): behind by the
/// handicap.
fn even(adaptive: &Adaptive) -> i32 {
    -adaptive.handicap()
}

#[test]
fn against_a_visitor_who_leaves_pieces_the_robot_leaves_as_many() {
    let adaptive = visitor_costing(100);
    let costs = costs(&adaptive, &spread(even(&adaptive)), 50);
    assert!(costs.iter().all(|&c| c == 100), "{costs:?}");
}

#[test]
fn it_draws_among_the_visitors_costs() {
    let adaptive = visitor_alternating(0, 200);
    let costs = costs(&adaptive, &spread(even(&adaptive)), 400);
    let two_pieces = costs.iter().filter(|&&c| c == 200).count();
    // A sound move is any the short search cannot tell from the best.
    assert!(
        costs.iter().all(|&c| [0, 5, 10, 200].contains(&c)),
        "{costs:?}"
    );
    assert!((150..=250).contains(&two_pieces), "{two_pieces} of 400");
}

#[test]
fn ahead_of_the_target_it_gives_more_and_behind_it_less() {
    let adaptive = visitor_costing(30);
    let even = even(&adaptive);
    let mean = |best| costs(&adaptive, &spread(best), 50).iter().sum::<i32>() / 50;
    assert_eq!(mean(even), 30);
    assert!(
        mean(even + 200) >= 100,
        "two men ahead: {}",
        mean(even + 200)
    );
    assert!(mean(even - 100) <= 10, "a man behind: {}", mean(even - 100));
}

#[test]
fn a_weak_visitor_has_even_chances_with_the_robot_behind_by_the_handicap() {
    let weak = visitor_costing(100);
    assert_eq!(weak.handicap(), 200);
    assert!((weak.v(even(&weak)) - 0.5).abs() < 1e-6);
    assert!(
        weak.v(0) > 0.7,
        "level material against a weak visitor: {}",
        weak.v(0)
    );
    let strong = visitor_costing(0);
    assert!((strong.v(150) - search::win_probability(150)).abs() < 1e-6);
    // A forced win stays one.
    assert!(weak.v(-search::WIN_THRESHOLD) < 1e-6);
}

#[test]
fn against_a_strong_visitor_it_never_leaves_a_piece_even_far_ahead() {
    let adaptive = visitor_costing(CAREFUL_BELOW - 5);
    let costs = costs(&adaptive, &spread(400), 100);
    assert!(costs.iter().all(|&c| c < GIVE_AWAY), "{costs:?}");
    // A weaker visitor is given pieces back when the robot is so far ahead.
    let weaker = visitor_costing(CAREFUL_BELOW + 5);
    let costs = self::costs(&weaker, &spread(400), 100);
    assert!(costs.iter().any(|&c| c >= GIVE_AWAY), "{costs:?}");
}

#[test]
fn the_same_seed_chooses_the_same_moves_and_another_seed_others() {
    let adaptive = visitor_alternating(0, 200);
    // Two moves cost as much as the visitor's mistake: the seed chooses between them too.
    let moves = scored(&[0, -5, -10, -30, -200, -200, -400]);
    let choose = |seed| {
        let mut rng = SplitMix::new(seed);
        (0..40)
            .map(|_| adaptive.choose(&moves, &mut rng))
            .collect::<Vec<_>>()
    };
    assert_eq!(choose(1), choose(1));
    assert_ne!(choose(1), choose(2));
}

#[test]
fn a_new_visitor_starts_from_the_assumed_costs() {
    let mut adaptive = visitor_costing(300);
    adaptive.forget_visitor();
    assert_eq!(remembered(&adaptive), NEW_VISITOR_COSTS);
}

#[test]
fn the_target_edge_is_the_score_that_leaves_the_visitor_the_target() {
    assert_eq!(edge_for(0.5), 0);
    assert!(
        edge_for(0.45) > 0 && edge_for(0.45) < 50,
        "{}",
        edge_for(0.45)
    );
    assert!(edge_for(0.3) > edge_for(0.45));
    let robot = search::win_probability(edge_for(0.45));
    assert!((robot - 0.55).abs() < 0.01, "{robot}");
}

#[test]
fn a_reply_the_full_search_expected_costs_nothing() {
    let mut adaptive = visitor_costing(40);
    adaptive.observe_expected();
    assert_eq!(remembered(&adaptive).last(), Some(&0));
    assert_eq!(remembered(&adaptive).len(), MEMORY);
    // Remembered with the robot's move, handed out once.
    let reply = Position::new(Variant::Russian).legal_moves()[0];
    adaptive.played(Position::new(Variant::Russian), Some((reply, 35)));
    assert_eq!(adaptive.take_expected(), Some((reply, 35)));
    assert_eq!(adaptive.take_expected(), None);
}

#[test]
fn full_strength_goes_unscored_only_where_choosing_would_give_it() {
    // A careful visitor whose moves cost a little, and a careless one.
    let careful = visitor_alternating(0, 20);
    let careless = visitor_costing(100);
    assert!(careful.careful() && !careless.careful());
    let mut rng = SplitMix::new(3);
    let mut unscored = 0;
    for adaptive in [&careful, &careless] {
        for drawn in [0, 20, 100] {
            for score in (-300..=300).step_by(10) {
                if adaptive.full_strength_unscored(drawn, score) {
                    unscored += 1;
                    let choice = adaptive.choose_drawn(&spread(score), drawn, &mut rng);
                    assert_eq!(choice, Choice::FullStrength, "{drawn} at {score}");
                }
            }
        }
    }
    // Level or behind with nothing drawn, it is the careful visitor's usual case.
    assert!(careful.full_strength_unscored(0, even(&careful)));
    assert!(careful.full_strength_unscored(0, even(&careful) - 200));
    assert!(unscored > 0);
    // Ahead of the target's edge, the moves are scored, for the lean.
    assert!(!careful.full_strength_unscored(0, even(&careful) + 100));
    assert!(!careful.full_strength_unscored(20, even(&careful)));
    assert!(!careless.full_strength_unscored(0, even(&careless)));
}

#[test]
fn a_win_probability_reads_back_as_its_score() {
    for score in [-400, -100, -7, 0, 30, 250] {
        assert!(
            (score_of(search::win_probability(score)) - score).abs() <= 1,
            "{score}"
        );
    }
    // A certain result is as far as the cap of a move's cost and more.
    assert!(score_of(1.0) > COST_CAP && score_of(0.0) < -COST_CAP);
}

#[test]
fn ahead_of_a_careful_visitor_by_its_full_search_its_search_gets_shallower() {
    let mut adaptive = visitor_alternating(0, 10);
    let even = even(&adaptive);
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    // A noise-size lead is none, nor one within the cut's margin.
    adaptive.follow_lead(Some(even + CAREFUL_LEAN_MARGIN), Some(12));
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    adaptive.follow_lead(Some(even + CUT_MARGIN), Some(12));
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    // A confirmed lead: a ply below what the search reached, not below the cap it never met.
    adaptive.follow_lead(Some(even + CUT_MARGIN + 1), Some(12));
    assert_eq!(adaptive.depth(), 11);
    adaptive.follow_lead(Some(even + 100), None);
    assert_eq!(adaptive.depth(), 10);
    // A weaker move (no full search) says nothing: the depth stays.
    adaptive.follow_lead(None, None);
    assert_eq!(adaptive.depth(), 10);
    // Between the margins it stays too.
    adaptive.follow_lead(Some(even + CAREFUL_LEAN_MARGIN + 1), Some(10));
    assert_eq!(adaptive.depth(), 10);
    for _ in 0..20 {
        adaptive.follow_lead(Some(even + 300), Some(20));
    }
    assert_eq!(adaptive.depth(), MIN_DEPTH);
    // Level again, or behind: level 5's full depth at once.
    adaptive.follow_lead(Some(even), Some(MIN_DEPTH));
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    adaptive.follow_lead(Some(even + 100), Some(9));
    adaptive.follow_lead(Some(even - 100), Some(8));
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    // What the game taught is forgotten with the visitor.
    adaptive.follow_lead(Some(even + 100), Some(8));
    adaptive.forget_visitor();
    assert_eq!(adaptive.depth(), FULL_DEPTH);
}

#[test]
fn against_a_visitor_who_is_not_careful_the_search_is_never_cut() {
    let mut adaptive = visitor_costing(100);
    for _ in 0..20 {
        adaptive.follow_lead(Some(1_000), Some(10));
    }
    assert_eq!(adaptive.depth(), FULL_DEPTH);
}

/// `adaptive` after the visitor's replies to its full-strength moves: `hits` expected ones,
/// then `misses` others.
fn replied(mut adaptive: Adaptive, hits: usize, misses: usize) -> Adaptive {
    for _ in 0..hits {
        adaptive.agreed(true);
    }
    for _ in 0..misses {
        adaptive.agreed(false);
    }
    adaptive
}

#[test]
fn a_careful_visitor_who_plays_the_expected_replies_plays_like_level_5() {
    // Too few replies say nothing, however many were expected.
    let few = replied(visitor_costing(0), AGREEMENT_MIN - 1, 0);
    assert_eq!(few.agreement(), None);
    assert!(!few.plays_like_level_5());
    // Two in three expected: level 5's share; one in two: depth-4 alpha-beta's.
    let strong = replied(visitor_costing(0), 8, 4);
    assert!(strong.plays_like_level_5(), "{:?}", strong.agreement());
    let weaker = replied(visitor_costing(0), 6, 6);
    assert!(!weaker.plays_like_level_5(), "{:?}", weaker.agreement());
    // A visitor who leaves pieces is read by their costs, whatever they agree with.
    let careless = replied(visitor_costing(100), AGREEMENT_MEMORY, 0);
    assert!(!careless.plays_like_level_5());
    // Only the latest replies count: a visitor who stops finding them is met as before.
    let tired = replied(strong.clone(), 0, AGREEMENT_MEMORY / 2);
    assert!(!tired.plays_like_level_5(), "{:?}", tired.agreement());
    let mut forgotten = strong;
    forgotten.forget_visitor();
    assert_eq!(forgotten.agreement(), None);
}

#[test]
fn against_a_visitor_who_plays_like_level_5_the_search_is_never_cut() {
    let mut adaptive = replied(visitor_costing(0), AGREEMENT_MEMORY, 0);
    let even = even(&adaptive);
    for _ in 0..20 {
        adaptive.follow_lead(Some(even + 300), Some(12));
    }
    assert_eq!(adaptive.depth(), FULL_DEPTH);
    // The same lead against a careful visitor who does not play like level 5 cuts it.
    let mut weaker = replied(
        visitor_costing(0),
        AGREEMENT_MEMORY / 2,
        AGREEMENT_MEMORY / 2,
    );
    weaker.follow_lead(Some(even + 300), Some(12));
    assert_eq!(weaker.depth(), 11);
}
