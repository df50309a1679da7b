//! The stock of spare kings beside the board.
//!
//! A crowned man is swapped for a real king from the reserve slots, taken in the calibrated
//! order; when none is left the robot asks the visitor to crown the piece instead. The stock
//! is state of the exhibition (an operator refills it), so it lives here apart from the
//! calibration and the planner only reads it: a slot counts as used once the daemon has seen
//! the plan carried out.

/// Which reserve slots still hold a king.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingReserve {
    slots: usize,
    next: usize,
}

impl KingReserve {
    /// A full reserve of `slots` kings, as the operator leaves it before a game.
    pub const fn full(slots: usize) -> KingReserve {
        KingReserve { slots, next: 0 }
    }

    /// A reserve with no king left: the visitor crowns every piece.
    pub const fn empty() -> KingReserve {
        KingReserve { slots: 0, next: 0 }
    }

    /// The slot the next king comes from, or `None` when the stock is used up.
    pub const fn next_slot(&self) -> Option<usize> {
        if self.next < self.slots {
            Some(self.next)
        } else {
            None
        }
    }

    /// Marks the next king as taken and says from which slot, or `None` when none is left.
    pub fn take(&mut self) -> Option<usize> {
        let slot = self.next_slot()?;
        self.next += 1;
        Some(slot)
    }

    /// Kings left.
    pub const fn remaining(&self) -> usize {
        self.slots - self.next
    }

    /// Every slot holds a king again.
    pub fn refill(&mut self) {
        self.next = 0;
    }
}
