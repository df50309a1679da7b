//! Recognition latency in the positions with the longest legal-move lists we can find.
//!
//! `cargo bench -p rules --bench recognition` prints, per variant, the size of the move list
//! and the time to recognise a legal outcome, a corrupted scan and a random scan. A plain
//! harness: the figures are what matters, not a statistical comparison.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rules::recognition::{outcome, recognize};
use rules::{Bitboard, Color, Position, Setup, Variant};

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random legal positions full of kings; keeps the one with the most legal moves.
fn busiest_position(variant: Variant, rng: &mut Lcg) -> Position {
    let geometry = variant.geometry();
    let mut best = Position::new(variant);
    for _ in 0..20_000 {
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        for _ in 0..(4 + rng.below(9)) {
            white = white.with(geometry.square(rng.below(geometry.square_count())).unwrap());
        }
        for _ in 0..=rng.below(8) {
            black = black.with(geometry.square(rng.below(geometry.square_count())).unwrap());
        }
        let setup = Setup {
            variant,
            white,
            black: black - white,
            kings: white | black,
            turn: Color::White,
        };
        if let Ok(position) = Position::from_setup(setup)
            && position.legal_moves().len() > best.legal_moves().len()
        {
            best = position;
        }
    }
    best
}

fn time_per_call(scans: &[Bitboard], position: &Position) -> Duration {
    let rounds = 2_000 / scans.len().max(1) + 1;
    let start = Instant::now();
    for _ in 0..rounds {
        for &scan in scans {
            black_box(recognize(black_box(position), scan));
        }
    }
    start.elapsed() / (rounds * scans.len()) as u32
}

fn main() {
    let mut rng = Lcg(2026);
    println!("variant         moves  legal outcome  corrupted scan  random scan");
    for variant in [
        Variant::Russian,
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
    ] {
        let position = busiest_position(variant, &mut rng);
        let moves = position.legal_moves();
        let legal: Vec<Bitboard> = moves.iter().map(|m| outcome(&position, m)).collect();
        let geometry = variant.geometry();
        let corrupted: Vec<Bitboard> = legal
            .iter()
            .map(|&scan| {
                scan ^ Bitboard::from_square(
                    geometry.square(rng.below(geometry.square_count())).unwrap(),
                )
            })
            .collect();
        let random: Vec<Bitboard> = (0..64)
            .map(|_| {
                Bitboard((u128::from(rng.next()) << 64 | u128::from(rng.next())) & geometry.all().0)
            })
            .collect();
        println!(
            "{:<15} {:>5}  {:>13?}  {:>14?}  {:>11?}",
            variant.name(),
            moves.len(),
            time_per_call(&legal, &position),
            time_per_call(&corrupted, &position),
            time_per_call(&random, &position),
        );
    }
}
