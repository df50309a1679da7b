//! The order of a move's errands that keeps the arm's travel shortest.
//!
//! A robot move is a handful of errands, each "pick up here, put down there": the own piece
//! from its square to its landing, every captured piece to one of the bin's drop points, a
//! crowned man to the bin and a spare king onto its square. Some must follow others (the king
//! can only go down once the man is gone). The arm starts and ends at the park pose.
//!
//! Moves have few errands (a dozen captures is already a rare game), so the best order is
//! found exactly by dynamic programming over the set of errands done and the place the arm
//! stands: `O(2^n * places * n * drops)`, well under a millisecond for 12 errands. Beyond
//! [`EXACT_LIMIT`] errands it falls back to taking the nearest available errand next.

use super::point::Point;

/// Most errands ordered exactly; longer lists (only huge 12x12 king captures) go greedy.
pub(crate) const EXACT_LIMIT: usize = 16;

/// Pick up at `pickup`, put down at one of the places `drops` (indices into the place table),
/// and only after every errand in the bit set `after`.
#[derive(Debug, Clone)]
pub(crate) struct Errand {
    pub pickup: Point,
    pub drops: Vec<usize>,
    pub after: u64,
}

/// One errand of a tour with the drop place chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Leg {
    pub errand: usize,
    pub drop: usize,
}

/// The errands and where the arm starts and ends.
#[derive(Debug)]
pub(crate) struct Route<'a> {
    /// Every place an errand can end, plus the start.
    pub places: &'a [Point],
    /// Index of the start in `places`.
    pub start: usize,
    /// Where the arm goes after the last errand.
    pub finish: Point,
    pub errands: &'a [Errand],
}

impl Route<'_> {
    fn available(&self, errand: usize, done: u64) -> bool {
        done & (1 << errand) == 0 && done & self.errands[errand].after == self.errands[errand].after
    }

    fn leg_cost(&self, from: usize, leg: Leg, cost: &impl Fn(Point, Point) -> f64) -> f64 {
        let pickup = self.errands[leg.errand].pickup;
        cost(self.places[from], pickup) + cost(pickup, self.places[leg.drop])
    }

    fn legs_from(&self, done: u64) -> impl Iterator<Item = Leg> + '_ {
        (0..self.errands.len())
            .filter(move |&errand| self.available(errand, done))
            .flat_map(move |errand| {
                self.errands[errand]
                    .drops
                    .iter()
                    .map(move |&drop| Leg { errand, drop })
            })
    }

    /// The cheapest order, exact up to [`EXACT_LIMIT`] errands.
    pub fn shortest(&self, cost: &impl Fn(Point, Point) -> f64) -> Vec<Leg> {
        if self.errands.len() > EXACT_LIMIT {
            return self.nearest_first(cost);
        }
        // The programme asks for the same few costs millions of times, and a joint-space
        // estimate solves the kinematics for each: they are worked out once.
        let count = self.errands.len();
        let places = self.places.len();
        let to_pickup: Vec<f64> = self
            .places
            .iter()
            .flat_map(|&place| self.errands.iter().map(move |e| cost(place, e.pickup)))
            .collect();
        let from_pickup: Vec<f64> = self
            .errands
            .iter()
            .flat_map(|e| self.places.iter().map(move |&place| cost(e.pickup, place)))
            .collect();
        let to_finish: Vec<f64> = self.places.iter().map(|&p| cost(p, self.finish)).collect();
        let leg_cost = |at: usize, leg: Leg| {
            to_pickup[at * count + leg.errand] + from_pickup[leg.errand * places + leg.drop]
        };
        let states = (1usize << count) * places;
        let mut best = vec![f64::INFINITY; states];
        let mut came_from: Vec<Option<(usize, Leg)>> = vec![None; states];
        best[self.start] = 0.0;
        for done in 0..(1u64 << count) {
            for at in 0..places {
                let state = done as usize * places + at;
                if best[state].is_infinite() {
                    continue;
                }
                for leg in self.legs_from(done) {
                    let next = (done | 1 << leg.errand) as usize * places + leg.drop;
                    let total = best[state] + leg_cost(at, leg);
                    if total < best[next] {
                        best[next] = total;
                        came_from[next] = Some((state, leg));
                    }
                }
            }
        }
        let all = ((1usize << count) - 1) * places;
        let mut state = (0..places)
            .map(|at| all + at)
            .min_by(|&a, &b| {
                let finish = |state: usize| best[state] + to_finish[state % places];
                finish(a).total_cmp(&finish(b))
            })
            .expect("there is always a place");
        let mut legs = Vec::with_capacity(count);
        while let Some((previous, leg)) = came_from[state] {
            legs.push(leg);
            state = previous;
        }
        legs.reverse();
        legs
    }

    /// Takes the cheapest available errand next: the fallback for long lists.
    pub fn nearest_first(&self, cost: &impl Fn(Point, Point) -> f64) -> Vec<Leg> {
        let mut done = 0u64;
        let mut at = self.start;
        let mut legs = Vec::with_capacity(self.errands.len());
        while let Some(leg) = self.legs_from(done).min_by(|&a, &b| {
            self.leg_cost(at, a, cost)
                .total_cmp(&self.leg_cost(at, b, cost))
        }) {
            legs.push(leg);
            done |= 1 << leg.errand;
            at = leg.drop;
        }
        legs
    }

    /// The errands in the order given, each put down at its drop nearest to its pickup: what
    /// a planner that does not optimise does.
    pub fn in_given_order(&self, cost: &impl Fn(Point, Point) -> f64) -> Vec<Leg> {
        self.errands
            .iter()
            .enumerate()
            .map(|(index, errand)| {
                let drop = *errand
                    .drops
                    .iter()
                    .min_by(|&&a, &&b| {
                        cost(errand.pickup, self.places[a])
                            .total_cmp(&cost(errand.pickup, self.places[b]))
                    })
                    .expect("every errand has a drop");
                Leg {
                    errand: index,
                    drop,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn distance(a: Point, b: Point) -> f64 {
        a.distance(b)
    }

    fn total(route: &Route<'_>, legs: &[Leg]) -> f64 {
        let mut at = route.start;
        let mut sum = 0.0;
        for &leg in legs {
            sum += route.leg_cost(at, leg, &distance);
            at = leg.drop;
        }
        sum + distance(route.places[at], route.finish)
    }

    /// Every order and every choice of drop, for checking the dynamic programme.
    fn brute_force(route: &Route<'_>, done: u64, at: usize) -> f64 {
        if done.count_ones() as usize == route.errands.len() {
            return distance(route.places[at], route.finish);
        }
        route
            .legs_from(done)
            .map(|leg| {
                route.leg_cost(at, leg, &distance)
                    + brute_force(route, done | 1 << leg.errand, leg.drop)
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn the_dynamic_programme_finds_the_best_order() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut random_point = || {
            let mut coordinate = || (rng.next_u64() % 300) as f64;
            Point::new(coordinate(), coordinate(), 0.0)
        };
        for count in 1..=6 {
            for _ in 0..20 {
                let places: Vec<Point> = (0..4).map(|_| random_point()).collect();
                let mut errands: Vec<Errand> = (0..count)
                    .map(|_| Errand {
                        pickup: random_point(),
                        drops: vec![1, 2],
                        after: 0,
                    })
                    .collect();
                // The first errand lands on place 3, and the last must follow it.
                errands[0].drops = vec![3];
                if count > 1 {
                    errands[count - 1].after = 1;
                }
                let route = Route {
                    places: &places,
                    start: 0,
                    finish: places[0],
                    errands: &errands,
                };
                let best = route.shortest(&distance);
                assert_eq!(best.len(), count);
                let best_order: Vec<usize> = best.iter().map(|leg| leg.errand).collect();
                if count > 1 {
                    let first = best_order.iter().position(|&e| e == 0).unwrap();
                    let last = best_order.iter().position(|&e| e == count - 1).unwrap();
                    assert!(first < last, "precedence broken: {best_order:?}");
                }
                let expected = brute_force(&route, 0, 0);
                assert!((total(&route, &best) - expected).abs() < 1e-9);
                assert!(total(&route, &route.nearest_first(&distance)) >= expected - 1e-9);
                assert!(total(&route, &route.in_given_order(&distance)) >= expected - 1e-9);
            }
        }
    }
}
