//! Incremental updates against recomputation from scratch, over whole seeded random games (so
//! that drift would accumulate), captures and promotions included, in every variant (each with
//! the fixture network of its board size). The sums are integers, so they must be equal.

use evalnet::EvalNet;
use rules::{Color, Position, Variant};
use testkit::Lcg;

use crate::model::{fixtures, positions};

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

#[test]
fn updates_equal_refreshes_over_whole_games() {
    for variant in Variant::ALL {
        let net = network_for(variant);
        let mut rng = Lcg(variant as u64 + 7);
        let (mut plies, mut captures, mut promotions, mut multi) = (0, 0, 0, 0);
        for _ in 0..12 {
            let mut position = Position::new(variant);
            // As the search does: one accumulator per ply, each written from its parent's.
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
                assert_eq!(next, fresh, "{variant}, ply {plies}");
                for color in Color::ALL {
                    assert_eq!(next.view(color), fresh.view(color));
                }

                let taken = pieces(&position) - pieces(&after);
                captures += u32::from(taken > 0);
                multi += u32::from(taken > 1);
                let mover = position.turn();
                promotions +=
                    u32::from(after.kings_of(mover).count() > position.kings_of(mover).count());
                plies += 1;
                position = after;
                std::mem::swap(&mut acc, &mut next);
            }
        }
        eprintln!(
            "{variant}: {plies} plies, {captures} captures ({multi} of several pieces), \
             {promotions} promotions"
        );
        assert!(captures > 0 && multi > 0, "{variant}: no captures");
        assert!(promotions > 0, "{variant}: no promotions");
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
