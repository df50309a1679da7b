//! Incremental updates against recomputation from scratch, over whole seeded random games (so
//! that drift would accumulate), captures and promotions included, in every variant (each with
//! the fixture network of its board size). The sums are integers, so they must be equal.

use evalnet::EvalNet;
use rules::{Color, Position, Variant};
use testkit::Lcg;

use crate::model::{fixtures, positions, random_model};

fn network_for(variant: Variant) -> EvalNet {
    let side = variant.geometry().side();
    let (_, path) = fixtures()
        .into_iter()
        .find(|(v, _)| v.geometry().side() == side)
        .expect("a fixture for every board size");
    EvalNet::load(&path).unwrap()
}

fn pieces(position: &Position) -> u32 {
    position.occupied().count()
}

/// What the games of [`replay_games`] held.
#[derive(Default)]
struct Seen {
    plies: u32,
    captures: u32,
    /// Captures of more than one piece.
    multi: u32,
    promotions: u32,
}

/// Plays `games` seeded random games of `variant`, each accumulator written from its parent's
/// as the search does, and asserts after every ply that it equals a recomputation.
fn replay_games(net: &EvalNet, variant: Variant, seed: u64, games: usize) -> Seen {
    let mut rng = Lcg(seed);
    let mut seen = Seen::default();
    for _ in 0..games {
        let mut position = Position::new(variant);
        let mut acc = net.accumulator();
        net.refresh(&position, &mut acc);
        let mut next = net.accumulator();
        let mut fresh = net.accumulator();
        for _ in 0..400 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut after = position;
            after.play_unchecked(&moves[rng.below(moves.len())]);
            net.update(&position, &after, &acc, &mut next);
            net.refresh(&after, &mut fresh);
            assert_eq!(next, fresh, "{variant}, ply {}", seen.plies);
            for color in Color::ALL {
                assert_eq!(next.view(color), fresh.view(color));
            }

            let taken = pieces(&position) - pieces(&after);
            seen.captures += u32::from(taken > 0);
            seen.multi += u32::from(taken > 1);
            let mover = position.turn();
            seen.promotions +=
                u32::from(after.kings_of(mover).count() > position.kings_of(mover).count());
            seen.plies += 1;
            position = after;
            std::mem::swap(&mut acc, &mut next);
        }
    }
    seen
}

#[test]
fn updates_equal_refreshes_over_whole_games() {
    for variant in Variant::ALL {
        let net = network_for(variant);
        let seen = replay_games(&net, variant, variant as u64 + 7, 12);
        eprintln!(
            "{variant}: {} plies, {} captures ({} of several pieces), {} promotions",
            seen.plies, seen.captures, seen.multi, seen.promotions
        );
        assert!(
            seen.captures > 0 && seen.multi > 0,
            "{variant}: no captures"
        );
        assert!(seen.promotions > 0, "{variant}: no promotions");
    }
}

#[test]
fn updates_equal_refreshes_at_every_width() {
    // The shipped width (32, which has its own code) and others: narrower than one of the
    // crate's vectors, whole numbers of them and between.
    for (i, hidden) in [1, 7, 24, 32, 40, 131].into_iter().enumerate() {
        let model = random_model(Variant::Russian, hidden, 8, 200 + i as u64);
        let net = EvalNet::from_onnx(&model.encode()).unwrap();
        assert_eq!(net.hidden(), hidden);
        let seen = replay_games(&net, Variant::Russian, i as u64, 4);
        assert!(seen.multi > 0 && seen.promotions > 0, "hidden {hidden}");
    }
}

#[test]
fn updates_between_unrelated_positions_equal_refreshes() {
    for (variant, _) in fixtures() {
        let net = network_for(variant);
        let batch = positions(variant, 200, 3);
        let (mut from, mut to, mut fresh) =
            (net.accumulator(), net.accumulator(), net.accumulator());
        for pair in batch
            .windows(2)
            .step_by(7)
            .chain(std::iter::once(&[batch[150], batch[3]][..]))
        {
            let (before, after) = (&pair[0], &pair[1]);
            net.refresh(before, &mut from);
            net.update(before, after, &from, &mut to);
            net.refresh(after, &mut fresh);
            assert_eq!(to, fresh);
        }
        // No change at all: the accumulator is copied (a null move changes only the turn).
        let p = batch[10];
        net.refresh(&p, &mut from);
        net.update(&p, &p.with_turn(!p.turn()), &from, &mut to);
        assert_eq!(from, to);
    }
}

#[test]
fn the_turn_chooses_which_view_comes_first() {
    let net = network_for(Variant::Russian);
    let mut acc = net.accumulator();
    let mut differ = 0;
    for p in positions(Variant::Russian, 100, 4) {
        net.refresh(&p, &mut acc);
        for turn in Color::ALL {
            let alone = net.evaluate_position(&p.with_turn(turn));
            assert!((net.evaluate(&acc, turn) - alone).abs() < 1e-6);
        }
        let swing = net.evaluate(&acc, Color::White) - net.evaluate(&acc, Color::Black);
        differ += usize::from(swing.abs() > 1e-6);
    }
    assert!(
        differ > 50,
        "the turn changed only {differ} of 100 evaluations"
    );
}

#[test]
#[should_panic(expected = "another board")]
fn a_position_of_another_board_size_is_refused() {
    let net = network_for(Variant::Russian);
    let mut acc = net.accumulator();
    net.refresh(&Position::new(Variant::International), &mut acc);
}
