//! The network encoding over random games: every legal move has a policy index, moves that
//! share one follow the documented rule, and a position encodes like its colour-flipped twin.

#![allow(clippy::float_cmp, reason = "planes and the uniform prior are exact")]

use std::collections::HashMap;

use network::encoding::{input_len, planes};
use network::policy::{PolicyMap, indices, priors, target};
use rules::{Color, Geometry, Position, Setup, Variant};
use testkit::Lcg;

/// Positions of random games in `variant`, each game cut at a random length.
fn positions(variant: Variant, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut position = Position::new(variant);
        for _ in 1..=rng.below(120) + 1 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(position);
            position.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
    out
}

/// The position turned by 180 degrees with colours and side to move swapped.
fn twin(position: &Position) -> Position {
    let geometry: &Geometry = position.variant().geometry();
    let side = geometry.side();
    let turn_square = |sq| {
        let (row, col) = geometry.coords(sq);
        geometry.at(side - 1 - row, side - 1 - col).unwrap()
    };
    let setup = position.to_setup();
    let flip = |bb: rules::Bitboard| bb.into_iter().map(turn_square).collect();
    Position::from_setup(Setup {
        variant: setup.variant,
        white: flip(setup.black),
        black: flip(setup.white),
        kings: flip(setup.kings),
        turn: !setup.turn,
    })
    .expect("the twin of a legal position is legal")
}

#[test]
fn every_legal_move_has_an_index_and_shared_indices_split_the_prior() {
    let mut shared_seen = 0;
    for variant in Variant::ALL {
        let map = PolicyMap::new(variant.geometry());
        let logits: Vec<f32> = (0..map.len())
            .map(|i| ((i * 37) % 11) as f32 / 3.0)
            .collect();
        for position in positions(variant, 40, 7) {
            let moves = position.legal_moves();
            let keys = indices(&map, &position, &moves);
            let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
            for (m, key) in keys.iter().enumerate() {
                let key = key.unwrap_or_else(|| panic!("{variant}: no index for {:?}", moves[m]));
                assert!(key < map.len());
                // The index names the move's square and its first landing, from the mover's seat.
                let (from, to) = map.pair(position.turn(), key).unwrap();
                assert_eq!(from, moves[m].from());
                assert_eq!(to, moves[m].landings()[0]);
                groups.entry(key).or_default().push(m);
            }
            let p = priors(&map, &position, &moves, &logits);
            assert!(
                (p.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "{variant}: priors sum to 1"
            );
            for members in groups.values() {
                if members.len() > 1 {
                    shared_seen += 1;
                    // Sharing moves start alike and branch after the first landing.
                    let first = &moves[members[0]];
                    for &m in members {
                        assert_eq!(moves[m].from(), first.from());
                        assert_eq!(moves[m].landings()[0], first.landings()[0]);
                        assert!(moves[m].is_capture());
                    }
                }
                // Every member gets an equal share of its index's probability.
                for &m in members {
                    assert!((p[m] - p[members[0]]).abs() < 1e-6);
                }
            }
            // The training target adds the visits of moves that share an index.
            let visits: Vec<u32> = (0..moves.len() as u32).map(|v| v + 1).collect();
            let t = target(&map, &position, &moves, &visits);
            let total = visits.iter().sum::<u32>() as f32;
            for (key, members) in &groups {
                let expected: f32 = members.iter().map(|&m| visits[m] as f32).sum::<f32>() / total;
                assert!((t[*key] - expected).abs() < 1e-6);
            }
        }
    }
    assert!(
        shared_seen > 0,
        "the random games should reach a branching capture"
    );
}

#[test]
fn a_position_and_its_colour_flipped_twin_encode_identically() {
    for variant in Variant::ALL {
        let map = PolicyMap::new(variant.geometry());
        for position in positions(variant, 20, 11) {
            let other = twin(&position);
            assert_eq!(planes(&position), planes(&other), "{variant} {position}");
            let mut a: Vec<usize> = indices(&map, &position, &position.legal_moves())
                .into_iter()
                .map(Option::unwrap)
                .collect();
            let mut b: Vec<usize> = indices(&map, &other, &other.legal_moves())
                .into_iter()
                .map(Option::unwrap)
                .collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{variant} {position}");
        }
    }
}

#[test]
fn planes_mark_each_piece_once_and_fill_the_constant_plane() {
    for variant in [Variant::Russian, Variant::International] {
        let geometry = variant.geometry();
        let cells = geometry.side() * geometry.side();
        for position in positions(variant, 10, 3) {
            let x = planes(&position);
            assert_eq!(x.len(), input_len(geometry));
            let me = position.turn();
            let counts: Vec<f32> = x.chunks(cells).map(|p| p.iter().sum()).collect();
            assert_eq!(counts[0], position.men_of(me).count() as f32);
            assert_eq!(counts[1], position.kings_of(me).count() as f32);
            assert_eq!(counts[2], position.men_of(!me).count() as f32);
            assert_eq!(counts[3], position.kings_of(!me).count() as f32);
            assert_eq!(counts[4], cells as f32);
        }
    }
    // White's and Black's men at the start sit in the same cells of their own view.
    let start = Position::new(Variant::Russian);
    assert_eq!(planes(&start), planes(&start.with_turn(Color::Black)));
}

#[test]
fn broken_logits_give_the_uniform_prior() {
    let position = Position::new(Variant::Russian);
    let moves = position.legal_moves();
    let map = PolicyMap::new(position.variant().geometry());
    let uniform = vec![1.0 / moves.len() as f32; moves.len()];
    let mut nan = vec![0.5; map.len()];
    nan[map.index(Color::White, &moves[0]).unwrap()] = f32::NAN;
    assert_eq!(priors(&map, &position, &moves, &nan), uniform);
    assert_eq!(priors(&map, &position, &moves, &[0.0; 3]), uniform);
}
