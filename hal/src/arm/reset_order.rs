//! The order of a reset's carries that keeps the arm's travel short, under the rule that a
//! carry into a spot waits for the carry out of it.
//!
//! A reset has far more carries than a move (a whole board's worth), too many for the exact
//! search `tour.rs` does for a move, so this is the travelling salesman's usual pair: a greedy
//! tour (always the nearest carry whose spot is free), then local improvements that keep every
//! precedence: moving one carry elsewhere in the order (or-opt) and reversing a stretch of it
//! (2-opt), until neither shortens the tour. Costs are looked up in a table built once, so a
//! pass over 60 carries stays in the milliseconds.

use super::point::Point;

/// Most improvement passes: each pass must shorten the tour, so this only bounds pathological
/// rounding; real resets settle in a handful.
const MAX_PASSES: usize = 50;

/// Least saving an improvement must bring, s: rounding noise is no improvement.
const EPSILON: f64 = 1e-9;

/// One carry as the order sees it: where it picks up, where it puts down, and which carries
/// must come before it.
#[derive(Debug, Clone)]
pub(crate) struct Job {
    pub pickup: Point,
    pub drop: Point,
    pub after: Vec<usize>,
}

/// Travel times between the jobs, looked up rather than recomputed.
struct Table {
    /// From the start to each pickup.
    from_start: Vec<f64>,
    /// From job a's drop to job b's pickup, at `a * n + b`.
    between: Vec<f64>,
    /// Each job's own carry, pickup to drop.
    carry: Vec<f64>,
    /// From each drop to the finish.
    to_finish: Vec<f64>,
    n: usize,
}

impl Table {
    fn new(
        jobs: &[Job],
        start: Point,
        finish: Point,
        cost: &impl Fn(Point, Point) -> f64,
    ) -> Table {
        let n = jobs.len();
        let mut between = vec![0.0; n * n];
        for (a, from) in jobs.iter().enumerate() {
            for (b, to) in jobs.iter().enumerate() {
                between[a * n + b] = cost(from.drop, to.pickup);
            }
        }
        Table {
            from_start: jobs.iter().map(|job| cost(start, job.pickup)).collect(),
            between,
            carry: jobs.iter().map(|job| cost(job.pickup, job.drop)).collect(),
            to_finish: jobs.iter().map(|job| cost(job.drop, finish)).collect(),
            n,
        }
    }

    fn total(&self, order: &[usize]) -> f64 {
        let Some((&first, _)) = order.split_first() else {
            return 0.0;
        };
        let mut total = self.from_start[first] + self.to_finish[order[order.len() - 1]];
        for pair in order.windows(2) {
            total += self.between[pair[0] * self.n + pair[1]];
        }
        total + order.iter().map(|&job| self.carry[job]).sum::<f64>()
    }
}

/// Whether every job comes after the jobs it waits for.
fn respects(jobs: &[Job], order: &[usize], position: &mut [usize]) -> bool {
    for (at, &job) in order.iter().enumerate() {
        position[job] = at;
    }
    order
        .iter()
        .enumerate()
        .all(|(at, &job)| jobs[job].after.iter().all(|&before| position[before] < at))
}

/// The first job in `preference` whose predecessors are all done, repeatedly: a valid order
/// that follows the preference as far as the precedences allow.
pub(crate) fn in_preferred_order(jobs: &[Job], preference: &[usize]) -> Vec<usize> {
    let mut done = vec![false; jobs.len()];
    let mut order = Vec::with_capacity(jobs.len());
    while order.len() < jobs.len() {
        let next = preference
            .iter()
            .copied()
            .find(|&job| !done[job] && jobs[job].after.iter().all(|&before| done[before]))
            .expect("the precedences have no cycle");
        done[next] = true;
        order.push(next);
    }
    order
}

/// A short order of `jobs` from `start`, ending at `finish`, each job after its predecessors.
pub(crate) fn shortest(
    jobs: &[Job],
    start: Point,
    finish: Point,
    cost: &impl Fn(Point, Point) -> f64,
) -> Vec<usize> {
    let table = Table::new(jobs, start, finish, cost);
    let mut order = nearest_first(jobs, &table);
    improve(jobs, &table, &mut order);
    order
}

/// Greedy: from where the arm stands, the available job whose pickup is nearest.
fn nearest_first(jobs: &[Job], table: &Table) -> Vec<usize> {
    let n = jobs.len();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut at: Option<usize> = None;
    while order.len() < n {
        let next = (0..n)
            .filter(|&job| !done[job] && jobs[job].after.iter().all(|&before| done[before]))
            .min_by(|&a, &b| {
                let reach = |job: usize| match at {
                    None => table.from_start[job],
                    Some(from) => table.between[from * n + job],
                };
                reach(a).total_cmp(&reach(b))
            })
            .expect("the precedences have no cycle");
        done[next] = true;
        order.push(next);
        at = Some(next);
    }
    order
}

/// Or-opt and 2-opt moves that keep the precedences, while any shortens the tour.
fn improve(jobs: &[Job], table: &Table, order: &mut Vec<usize>) {
    let n = order.len();
    let mut position = vec![0; jobs.len()];
    let mut best = table.total(order);
    let mut candidate = Vec::with_capacity(n);
    for _ in 0..MAX_PASSES {
        let mut improved = false;
        // Move one job to another place in the order.
        for from in 0..n {
            for to in 0..n {
                if from == to {
                    continue;
                }
                candidate.clear();
                candidate.extend_from_slice(order);
                let job = candidate.remove(from);
                candidate.insert(to, job);
                let total = table.total(&candidate);
                if total < best - EPSILON && respects(jobs, &candidate, &mut position) {
                    best = total;
                    order.clone_from(&candidate);
                    improved = true;
                }
            }
        }
        // Reverse a stretch of the order.
        for first in 0..n {
            for last in first + 2..n {
                candidate.clear();
                candidate.extend_from_slice(order);
                candidate[first..=last].reverse();
                let total = table.total(&candidate);
                if total < best - EPSILON && respects(jobs, &candidate, &mut position) {
                    best = total;
                    order.clone_from(&candidate);
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// The estimated time of `order`, s, from `start` to `finish`.
#[cfg(test)]
fn duration(
    jobs: &[Job],
    order: &[usize],
    start: Point,
    finish: Point,
    cost: &impl Fn(Point, Point) -> f64,
) -> f64 {
    Table::new(jobs, start, finish, cost).total(order)
}

#[cfg(test)]
mod tests {
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    fn distance(a: Point, b: Point) -> f64 {
        a.horizontal_distance(b)
    }

    #[test]
    fn improvements_keep_precedences_and_never_lengthen_the_greedy_tour() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut random_point = || {
            let mut coordinate = || (rng.next_u64() % 300) as f64;
            Point::new(coordinate(), coordinate(), 0.0)
        };
        for count in [1usize, 2, 5, 12, 30] {
            let mut jobs: Vec<Job> = (0..count)
                .map(|_| Job {
                    pickup: random_point(),
                    drop: random_point(),
                    after: Vec::new(),
                })
                .collect();
            // A chain of waits: each third job waits for the one before it.
            for job in (1..count).step_by(3) {
                jobs[job].after.push(job - 1);
            }
            let start = Point::default();
            let table = Table::new(&jobs, start, start, &distance);
            let greedy = nearest_first(&jobs, &table);
            let best = shortest(&jobs, start, start, &distance);
            let mut position = vec![0; count];
            assert!(respects(&jobs, &best, &mut position));
            let mut sorted = best.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..count).collect::<Vec<_>>());
            assert!(
                duration(&jobs, &best, start, start, &distance)
                    <= duration(&jobs, &greedy, start, start, &distance) + 1e-9
            );
            let given = in_preferred_order(&jobs, &(0..count).rev().collect::<Vec<_>>());
            assert!(respects(&jobs, &given, &mut position));
        }
    }
}
