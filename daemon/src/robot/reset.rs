//! Setting the board up after a game (`game.reset_board`): what the robot believes stands
//! where, the batches the arm carries out, and how each batch's scan corrects the belief.
//!
//! The arm's planner ([`hal::arm::plan_reset`]) plans from the board's pieces and the stock to
//! the next game's start. The board's pieces are the last scan's occupancy with the kinds the
//! game knows (its final position); a piece the scan shows where the game has none (a visitor
//! put it there) is taken to be a man of the colour its target square wants, or, on a square
//! the target leaves empty, of the side whose half of the board it stands on. The carries are
//! made in batches ([`BATCH`] at most), cut so that no square or slot is touched twice in one:
//! then the scan after the batch says for each carry whether it was made (a failed pick leaves
//! its piece where it was), and the belief and the stock follow the board, not the plan. A
//! difference on a square no carry of the batch touched is a hand in the board: the reset
//! waits until the board is still, then plans again from what it sees. A slot that gave
//! nothing twice is taken to be empty.

use std::collections::{BTreeSet, HashMap};

use hal::arm::{Carry, Layout, Piece, PieceColour, ResetOutcome, Slot, Spot};
use rules::{Bitboard, Geometry, Position};
use tokio::time::Instant;

use super::arm_squares::{bitboard, board_square, layout, piece_at, rules_square};

/// Carries in one batch at most: a scan checks the board after each batch.
pub const BATCH: usize = 6;

/// Consecutive board reads that must agree before a board a hand was in counts as still.
pub const STILL_READS: u32 = 3;

/// Arm failures in a row after which the reset gives up.
const ARM_FAILURES: u32 = 5;

/// Picks from a slot that brought nothing, after which the slot counts as empty: the planner
/// takes from other slots. A pick can fail on a full slot too, so while the reset would
/// otherwise end short, such slots are tried again until [`GIVE_UP_AFTER`] picks in all.
const EMPTY_AFTER: u32 = 2;

/// Picks from a slot that brought nothing, after which it is not tried again in this reset.
const GIVE_UP_AFTER: u32 = 4;

/// A reset in progress.
#[derive(Debug)]
pub struct ResetRun {
    pub started: Instant,
    /// What stands where, as far as the robot knows.
    pub board: Layout,
    /// The position to set up.
    pub target_position: Position,
    /// The same, as the arm names it.
    pub target: Layout,
    /// Carries made.
    pub moved: u32,
    /// Times the board disagreed with a batch.
    pub replans: u32,
    /// Batches begun.
    pub batches: u32,
    /// The most batches before the reset gives up.
    pub max_batches: u32,
    /// The batch the arm is carrying out.
    pub batch: Vec<Carry>,
    /// Arm failures in a row, and the last one's text.
    pub arm_failures: (u32, String),
    /// Picks from each slot that brought nothing.
    slot_misses: HashMap<Slot, u32>,
    /// Slots taken to be empty, with the piece the stock had there, in case they are not.
    doubted_slots: Vec<(Slot, Piece)>,
    /// A hand was in the board: the last read, and how many reads in a row showed it.
    pub settling: Option<(Bitboard, u32)>,
    /// The last scan of the board.
    pub scan: Bitboard,
}

/// How a batch's scan went.
#[derive(Debug, PartialEq, Eq)]
pub enum AfterBatch {
    /// Plan the next batch.
    Go,
    /// Something moved that no carry of the batch touched: wait until the board is still.
    HandInBoard,
}

impl ResetRun {
    /// A reset from what `scan` shows, with the kinds `finished` (the game's last position)
    /// knows, to `target`.
    pub fn new(finished: &Position, scan: Bitboard, target: Position) -> ResetRun {
        let target_layout = layout(&target);
        let mut run = ResetRun {
            started: Instant::now(),
            board: layout(finished),
            target_position: target,
            target: target_layout,
            moved: 0,
            replans: 0,
            batches: 0,
            max_batches: 0,
            batch: Vec::new(),
            arm_failures: (0, String::new()),
            slot_misses: HashMap::new(),
            doubted_slots: Vec::new(),
            settling: None,
            scan,
        };
        run.follow(scan);
        run
    }

    fn geometry(&self) -> &'static Geometry {
        self.target_position.variant().geometry()
    }

    /// Takes the board's occupancy from `scan`: pieces gone are forgotten, pieces found are
    /// men of the colour their square wants.
    pub fn follow(&mut self, scan: Bitboard) {
        let geometry = self.geometry();
        self.scan = scan;
        let seen: BTreeSet<_> = scan
            .into_iter()
            .map(|sq| board_square(geometry, sq))
            .collect();
        self.board.retain(|square, _| seen.contains(square));
        let half = geometry.side() / 2;
        for square in seen {
            if self.board.contains_key(&square) {
                continue;
            }
            let wanted = rules_square(geometry, square)
                .and_then(|sq| piece_at(&self.target_position, sq))
                .map(|piece| piece.colour);
            let colour = wanted.unwrap_or(if usize::from(square.row) < half {
                PieceColour::White
            } else {
                PieceColour::Black
            });
            self.board.insert(square, Piece::man(colour));
        }
    }

    /// The next batch of `outcome`'s carries: at most [`BATCH`], none touching a spot an
    /// earlier one of the batch touched. Empty when nothing is left to carry.
    pub fn next_batch(&mut self, outcome: &ResetOutcome) -> Vec<Carry> {
        let carries = outcome.plan().carries();
        if self.max_batches == 0 {
            // Room for every carry in a batch of its own, and as many again for retries.
            self.max_batches = 2 * carries.len() as u32 + 10;
        }
        let mut touched: BTreeSet<SpotKey> = BTreeSet::new();
        let mut batch = Vec::new();
        for carry in carries {
            let (from, to) = (SpotKey::of(carry.from), SpotKey::of(carry.to));
            if batch.len() == BATCH || touched.contains(&from) || touched.contains(&to) {
                break;
            }
            // A bin takes any number of pieces.
            touched.insert(from);
            if !matches!(carry.to, Spot::Bin(_)) {
                touched.insert(to);
            }
            batch.push(*carry);
        }
        self.batch.clone_from(&batch);
        if !batch.is_empty() {
            self.batches += 1;
        }
        batch
    }

    /// The batch is over and the board shows `scan`; `made` says which carries the scan
    /// confirms, and `arm_failed` whether the arm stopped with a fault before the batch's
    /// end. Returns the slots found empty (for the stock) and what to do next.
    ///
    /// A carry from a slot that was not made counts as a pick that brought nothing only when
    /// the arm went through the whole batch: after a fault, the carries after it were never
    /// tried, and the one it cut short says nothing about its slot either.
    pub fn after_batch(
        &mut self,
        scan: Bitboard,
        made: &[bool],
        arm_failed: bool,
    ) -> (Vec<Slot>, AfterBatch) {
        let geometry = self.geometry();
        let mut touched = Bitboard::EMPTY;
        let mut empty_slots = Vec::new();
        for (i, carry) in std::mem::take(&mut self.batch).into_iter().enumerate() {
            for spot in [carry.from, carry.to] {
                if let Spot::Square(square) = spot
                    && let Some(sq) = rules_square(geometry, square)
                {
                    touched = touched.with(sq);
                }
            }
            if made.get(i).copied().unwrap_or(false) {
                if carry.from == carry.to {
                    continue;
                }
                self.moved += 1;
                if let Spot::Square(square) = carry.from {
                    self.board.remove(&square);
                }
                if let Spot::Square(square) = carry.to {
                    self.board.insert(square, carry.piece);
                }
            } else if let Some(slot) = carry.from.slot().filter(|_| !arm_failed) {
                let misses = self.slot_misses.entry(slot).or_default();
                *misses += 1;
                if misses.is_multiple_of(EMPTY_AFTER) {
                    empty_slots.push(slot);
                }
            }
        }
        let expected = bitboard(geometry, &self.board);
        if scan != expected || !made.iter().all(|&made| made) {
            self.replans += 1;
        }
        self.follow(scan);
        let unexplained = (scan ^ expected) - touched;
        let next = if unexplained.is_empty() {
            AfterBatch::Go
        } else {
            self.settling = Some((scan, 1));
            AfterBatch::HandInBoard
        };
        (empty_slots, next)
    }

    /// A read while a hand was in the board; true once the board has been still for
    /// [`STILL_READS`] reads (the belief then follows it).
    pub fn settle(&mut self, scan: Bitboard) -> bool {
        let reads = match self.settling {
            Some((last, reads)) if last == scan => reads + 1,
            _ => 1,
        };
        if reads >= STILL_READS {
            self.settling = None;
            self.follow(scan);
            true
        } else {
            self.settling = Some((scan, reads));
            false
        }
    }

    /// After the arm failed in the middle of the batch: the first carry the board does not
    /// show finished (its square not yet emptied, or its destination not filled), as a carry
    /// from its spot back to it, to put down a piece the cup may still hold.
    pub fn interrupted_carry(&self, scan: Bitboard) -> Option<Carry> {
        let geometry = self.geometry();
        let shows = |spot: Spot, full: bool| match spot {
            Spot::Square(square) => {
                rules_square(geometry, square).is_some_and(|sq| scan.contains(sq) == full)
            }
            _ => true,
        };
        self.batch
            .iter()
            .find(|carry| !(shows(carry.from, false) && shows(carry.to, true)))
            .filter(|carry| !matches!(carry.from, Spot::Bin(_)))
            .map(|carry| Carry {
                from: carry.from,
                to: carry.from,
                piece: carry.piece,
            })
    }

    /// `slot`, which the stock said held `piece`, is taken to be empty after picks that
    /// brought nothing.
    pub fn doubt_slot(&mut self, slot: Slot, piece: Piece) {
        self.doubted_slots.push((slot, piece));
    }

    /// The slots taken to be empty that are worth another try (fewer than
    /// [`GIVE_UP_AFTER`] picks brought nothing), with their pieces; called when the reset
    /// would end short without them. They leave the doubted list: missing twice more puts
    /// them back on it.
    pub fn slots_to_try_again(&mut self) -> Vec<(Slot, Piece)> {
        let misses = &self.slot_misses;
        let (again, given_up) = std::mem::take(&mut self.doubted_slots)
            .into_iter()
            .partition(|(slot, _)| misses.get(slot).copied().unwrap_or(0) < GIVE_UP_AFTER);
        self.doubted_slots = given_up;
        again
    }

    /// An arm failure; true when there were too many in a row.
    pub fn arm_failed(&mut self, error: String) -> bool {
        self.arm_failures.0 += 1;
        self.arm_failures.1 = error;
        self.arm_failures.0 >= ARM_FAILURES
    }

    /// The arm finished a batch without failing.
    pub fn arm_worked(&mut self) {
        self.arm_failures.0 = 0;
    }

    /// Whether the board shows the target as far as the robot knows.
    pub fn is_done(&self) -> bool {
        self.board == self.target
    }

    /// The target's squares the board lacks, and the squares it holds that the target leaves
    /// empty, as the rules' squares.
    pub fn differences(&self) -> (Bitboard, Bitboard) {
        let target = self.target_position.occupied();
        (target - self.scan, self.scan - target)
    }
}

/// A spot as a key for "touched in this batch": a bin is any bin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum SpotKey {
    Square(u8, u8),
    Slot(Slot),
    Bin,
}

impl SpotKey {
    fn of(spot: Spot) -> SpotKey {
        match spot {
            Spot::Square(square) => SpotKey::Square(square.row, square.col),
            Spot::Bin(_) => SpotKey::Bin,
            other => SpotKey::Slot(other.slot().expect("slots are the other spots")),
        }
    }
}

#[cfg(test)]
mod tests {
    use hal::arm::{Carry, Piece, PieceColour, Spot};
    use rules::{Bitboard, Position, Variant, notation};

    use super::{AfterBatch, ResetRun, STILL_READS};
    use crate::robot::arm_squares::board_square;

    const VARIANT: Variant = Variant::Russian;

    fn square(name: &str) -> rules::Square {
        notation::parse_square(VARIANT, name).unwrap()
    }

    /// A reset after a game that ended with White's man on d4 instead of c3: one carry puts it
    /// back. The run is planned, and its one carry is the batch under way.
    fn one_carry_reset() -> (ResetRun, Position) {
        let start = Position::new(VARIANT);
        let finished = start
            .play(&notation::parse_move(&start, "c3-d4").unwrap())
            .unwrap();
        let mut run = ResetRun::new(&finished, finished.occupied(), start);
        let geometry = VARIANT.geometry();
        run.batch = vec![Carry {
            from: Spot::Square(board_square(geometry, square("d4"))),
            to: Spot::Square(board_square(geometry, square("c3"))),
            piece: Piece::man(PieceColour::White),
        }];
        (run, start)
    }

    #[test]
    fn a_batch_the_scan_confirms_goes_on_and_the_board_is_set_up() {
        let (mut run, start) = one_carry_reset();
        let (empty, next) = run.after_batch(start.occupied(), &[true], false);
        assert_eq!(next, AfterBatch::Go);
        assert!(empty.is_empty());
        assert!(run.is_done());
        assert_eq!(run.replans, 0);
        assert_eq!(run.moved, 1);
    }

    #[test]
    fn a_failed_pick_is_planned_again_not_taken_for_a_hand() {
        let (mut run, _) = one_carry_reset();
        let before = run.scan;
        let (_, next) = run.after_batch(before, &[false], false);
        assert_eq!(
            next,
            AfterBatch::Go,
            "the carry's own squares explain the scan"
        );
        assert_eq!(run.replans, 1);
        assert!(!run.is_done());
        assert_eq!(run.moved, 0);
    }

    #[test]
    fn a_slot_is_taken_to_be_empty_only_after_picks_the_arm_made_in_full() {
        let (mut run, start) = one_carry_reset();
        let from_slot = Carry {
            from: Spot::RackSlot(3),
            to: run.batch[0].to,
            piece: Piece::man(PieceColour::White),
        };
        let scan = run.scan;
        // Twice the arm stopped with a fault before the carry was made: the slot was never
        // really tried.
        for _ in 0..2 {
            run.batch = vec![from_slot];
            let (empty, _) = run.after_batch(scan, &[false], true);
            assert!(empty.is_empty());
        }
        // Twice the arm went through the batch and brought nothing: the slot is empty.
        run.batch = vec![from_slot];
        let (empty, _) = run.after_batch(scan, &[false], false);
        assert!(empty.is_empty());
        run.batch = vec![from_slot];
        let (empty, _) = run.after_batch(scan, &[false], false);
        assert_eq!(empty, vec![Spot::RackSlot(3).slot().unwrap()]);
        assert!(!run.is_done() && start.occupied() != run.scan);
    }

    #[test]
    fn a_slot_taken_to_be_empty_is_tried_again_until_four_picks_brought_nothing() {
        let (mut run, _) = one_carry_reset();
        let slot = Spot::RackSlot(3).slot().unwrap();
        let man = Piece::man(PieceColour::White);
        let from_slot = Carry {
            from: Spot::RackSlot(3),
            to: run.batch[0].to,
            piece: man,
        };
        let scan = run.scan;
        let miss = |run: &mut ResetRun| {
            run.batch = vec![from_slot];
            run.after_batch(scan, &[false], false).0
        };
        assert!(miss(&mut run).is_empty());
        assert_eq!(miss(&mut run), vec![slot]);
        run.doubt_slot(slot, man);
        // The reset would end short without it: the slot gets another chance, once.
        assert_eq!(run.slots_to_try_again(), vec![(slot, man)]);
        assert!(run.slots_to_try_again().is_empty());
        assert!(miss(&mut run).is_empty());
        assert_eq!(miss(&mut run), vec![slot]);
        run.doubt_slot(slot, man);
        // Four picks brought nothing: the slot is empty for the rest of the reset.
        assert!(run.slots_to_try_again().is_empty());
    }

    #[test]
    fn a_hand_in_the_board_pauses_the_reset_until_the_board_is_still() {
        let (mut run, start) = one_carry_reset();
        // The carry was made, and meanwhile a visitor lifted Black's man on a7, a square no
        // carry of the batch touched.
        let lifted = start.occupied() - Bitboard::EMPTY.with(square("a7"));
        let (_, next) = run.after_batch(lifted, &[true], false);
        assert_eq!(next, AfterBatch::HandInBoard);
        assert!(run.settling.is_some());
        // The hand moves on: a read that differs starts the count again.
        let moved_on = lifted - Bitboard::EMPTY.with(square("b6"));
        assert!(!run.settle(moved_on));
        for _ in 1..STILL_READS - 1 {
            assert!(!run.settle(moved_on));
        }
        assert!(run.settle(moved_on), "still for {STILL_READS} reads");
        assert!(run.settling.is_none());
        // The belief follows the board, so the next plan brings both men back.
        let (missing, extra) = run.differences();
        assert_eq!(
            missing,
            Bitboard::EMPTY.with(square("a7")).with(square("b6"))
        );
        assert!(extra.is_empty());
        assert!(!run.is_done());
    }
}
