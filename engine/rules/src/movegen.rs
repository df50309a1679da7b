//! Legal move generation, written once for every board size.
//!
//! The generator is specialised per board width `W` (dark squares a row) through a const
//! parameter so that every diagonal step is a shift by a constant; the rules of the variant are
//! data read at run time. Captures follow the Turkish-strike rule: jumped pieces stay on the
//! board until the move ends, so they block the capturing piece and cannot be jumped twice.

use crate::board_bits::BoardBits;
use crate::color::Color;
use crate::geometry::{Direction, MAX_SIDE};
use crate::moves::{MAX_LANDINGS, Move};
use crate::setup::Setup;
use crate::square::{Bitboard, Square};
use crate::variant::{CaptureChoice, CapturePromotion, Rules};

#[inline]
fn shift<const W: u32, B: BoardBits>(b: B, dir: Direction) -> B {
    match dir {
        Direction::UpLeft => b << W,
        Direction::UpRight => b << (W + 1),
        Direction::DownLeft => b >> (W + 1),
        Direction::DownRight => b >> W,
    }
}

const fn opposite(dir: Direction) -> Direction {
    match dir {
        Direction::UpLeft => Direction::DownRight,
        Direction::UpRight => Direction::DownLeft,
        Direction::DownLeft => Direction::UpRight,
        Direction::DownRight => Direction::UpLeft,
    }
}

#[inline]
fn square_of<B: BoardBits>(bit: B) -> Square {
    Square::from_bit(bit.lowest_index())
}

/// Calls the generic function `f` specialised for `pos`'s board: its width `W` (dark squares
/// a row) and the narrowest integer its padded layout fits (see `board_bits`).
macro_rules! on_board {
    ($pos:expr, $f:ident($($arg:expr),*)) => {
        match $pos.variant.geometry().width() {
            4 => $f::<4, u64>($($arg),*),
            5 => $f::<5, u64>($($arg),*),
            6 => $f::<6, u128>($($arg),*),
            w => unreachable!("no board has {w} dark squares a row"),
        }
    };
}

/// Appends every legal move of `pos` to `out` (which is cleared first).
pub(crate) fn legal_moves(pos: &Setup, out: &mut Vec<Move>) {
    out.clear();
    on_board!(pos, generate(pos, out));
}

/// Every capture sequence the pieces can make, before the variant's capture-choice rule
/// (majority, Italian priorities) is applied: what a player might try.
pub(crate) fn captures_before_choice(pos: &Setup) -> Vec<Move> {
    let mut moves = Vec::new();
    on_board!(pos, all_captures(pos, &mut moves));
    moves
}

/// Whether the side to move has a capture (cheaper than generating moves).
pub(crate) fn has_capture(pos: &Setup) -> bool {
    on_board!(pos, any_capture(pos))
}

/// Number of legal moves, without building them when there is no capture; `scratch` holds
/// the captures when there are some.
pub(crate) fn count_legal_moves(pos: &Setup, scratch: &mut Vec<Move>) -> usize {
    on_board!(pos, count(pos, scratch))
}

/// The captures of `pos` into `out` when it must capture (`out` is left empty otherwise);
/// whether the side to move has a legal move at all.
pub(crate) fn forced_captures(pos: &Setup, out: &mut Vec<Move>) -> bool {
    on_board!(pos, forced(pos, out))
}

fn all_captures<const W: u32, B: BoardBits>(pos: &Setup, out: &mut Vec<Move>) {
    Generator::<W, B>::new(pos, out).captures();
}

fn any_capture<const W: u32, B: BoardBits>(pos: &Setup) -> bool {
    Generator::<W, B>::new(pos, &mut Vec::new()).any_capture()
}

fn forced<const W: u32, B: BoardBits>(pos: &Setup, out: &mut Vec<Move>) -> bool {
    out.clear();
    let mut generator = Generator::<W, B>::new(pos, out);
    generator.forced_captures(pos) || generator.any_quiet_move()
}

fn count<const W: u32, B: BoardBits>(pos: &Setup, scratch: &mut Vec<Move>) -> usize {
    scratch.clear();
    let mut generator = Generator::<W, B>::new(pos, scratch);
    if generator.forced_captures(pos) {
        generator.out.len()
    } else {
        generator.count_quiet_moves()
    }
}

fn generate<const W: u32, B: BoardBits>(pos: &Setup, out: &mut Vec<Move>) {
    let mut generator = Generator::<W, B>::new(pos, out);
    generator.captures();
    if generator.out.is_empty() {
        generator.quiet_moves();
    } else {
        apply_capture_choice(pos, out);
    }
}

struct Generator<'a, const W: u32, B: BoardBits> {
    rules: &'static Rules,
    all: B,
    /// Squares a piece may land on; during a capture this includes the mover's start square.
    empty: B,
    own_men: B,
    own_kings: B,
    opp: B,
    /// Enemy pieces a man may jump (all of them, except kings in Italian).
    opp_for_men: B,
    promotion_row: B,
    man_forward: [Direction; 2],
    /// Men may capture toward higher rows (White's forward).
    man_capture_up: bool,
    /// Men may capture toward lower rows (Black's forward).
    man_capture_down: bool,
    from: Square,
    start_is_man: bool,
    landings: [Square; MAX_LANDINGS],
    out: &'a mut Vec<Move>,
}

impl<'a, const W: u32, B: BoardBits> Generator<'a, W, B> {
    fn new(pos: &Setup, out: &'a mut Vec<Move>) -> Self {
        let rules = pos.variant.rules();
        let geometry = rules.geometry;
        let turn = pos.turn;
        let own = B::narrow(pos.pieces(turn).0);
        let opp = B::narrow(pos.pieces(!turn).0);
        let kings = B::narrow(pos.kings.0);
        let all = B::narrow(geometry.all().0);
        let man_forward = Direction::forward(turn);
        Generator {
            rules,
            all,
            empty: all & !(own | opp),
            own_men: own & !kings,
            own_kings: own & kings,
            opp,
            opp_for_men: if rules.men_capture_kings {
                opp
            } else {
                opp & !kings
            },
            promotion_row: B::narrow(geometry.promotion_row(turn).0),
            man_forward,
            man_capture_up: rules.men_capture_backward || turn == Color::White,
            man_capture_down: rules.men_capture_backward || turn == Color::Black,
            from: Square::from_bit(0),
            start_is_man: false,
            landings: [Square::from_bit(0); MAX_LANDINGS],
            out,
        }
    }

    #[inline]
    fn step(&self, b: B, dir: Direction) -> B {
        shift::<W, B>(b, dir) & self.all
    }

    /// Men with an immediate jump available, computed for all men at once.
    fn men_that_can_jump(&self) -> B {
        let mut movers = B::ZERO;
        for dir in Direction::ALL {
            let allowed = match dir {
                Direction::UpLeft | Direction::UpRight => self.man_capture_up,
                Direction::DownLeft | Direction::DownRight => self.man_capture_down,
            };
            if allowed {
                let back = opposite(dir);
                let victims = self.step(self.empty, back) & self.opp_for_men;
                movers |= self.step(victims, back);
            }
        }
        movers & self.own_men
    }

    fn any_capture(&self) -> bool {
        if self.men_that_can_jump() != B::ZERO {
            return true;
        }
        let mut kings = self.own_kings;
        while kings != B::ZERO {
            let king = kings.lowest();
            kings ^= king;
            let found = if self.rules.flying_kings {
                self.flying_king_can_jump(king, B::ZERO)
            } else {
                Direction::ALL.into_iter().any(|dir| {
                    let victim = self.step(king, dir) & self.opp;
                    victim != B::ZERO && self.step(victim, dir) & self.empty != B::ZERO
                })
            };
            if found {
                return true;
            }
        }
        false
    }

    /// Generates the captures of `pos` (this generator's position) with the variant's capture
    /// rule applied, when one is forced; whether one is.
    fn forced_captures(&mut self, pos: &Setup) -> bool {
        if !self.any_capture() {
            return false;
        }
        self.captures();
        apply_capture_choice(pos, self.out);
        true
    }

    fn captures(&mut self) {
        let empty = self.empty;
        let mut men = self.men_that_can_jump();
        while men != B::ZERO {
            let man = men.lowest();
            men ^= man;
            self.from = square_of(man);
            self.start_is_man = true;
            self.empty = empty | man;
            self.man_jumps(man, B::ZERO, 0);
        }
        let mut kings = self.own_kings;
        while kings != B::ZERO {
            let king = kings.lowest();
            kings ^= king;
            self.from = square_of(king);
            self.start_is_man = false;
            self.empty = empty | king;
            self.king_jumps(king, B::ZERO, 0);
        }
        self.empty = empty;
    }

    /// Continues a capture by a man standing on `at`; returns whether it could jump at all.
    fn man_jumps(&mut self, at: B, captured: B, depth: usize) -> bool {
        // Directions are spelled out so that each call gets constant shifts.
        let mut found = false;
        if self.man_capture_up {
            found |= self.man_jump(at, captured, depth, Direction::UpLeft);
            found |= self.man_jump(at, captured, depth, Direction::UpRight);
        }
        if self.man_capture_down {
            found |= self.man_jump(at, captured, depth, Direction::DownLeft);
            found |= self.man_jump(at, captured, depth, Direction::DownRight);
        }
        found
    }

    #[inline]
    fn man_jump(&mut self, at: B, captured: B, depth: usize, dir: Direction) -> bool {
        let victim = self.step(at, dir) & self.opp_for_men & !captured;
        if victim == B::ZERO {
            return false;
        }
        let landing = self.step(victim, dir) & self.empty;
        if landing == B::ZERO {
            return false;
        }
        let captured = captured | victim;
        self.landings[depth] = square_of(landing);
        let depth = depth + 1;
        if landing & self.promotion_row != B::ZERO {
            match self.rules.capture_promotion {
                CapturePromotion::ContinueAsKing => {
                    if !self.king_jumps(landing, captured, depth) {
                        self.emit(depth, captured, true);
                    }
                }
                CapturePromotion::OnlyAtEnd => {
                    if !self.man_jumps(landing, captured, depth) {
                        self.emit(depth, captured, true);
                    }
                }
                CapturePromotion::EndsMove => self.emit(depth, captured, true),
            }
        } else if !self.man_jumps(landing, captured, depth) {
            self.emit(depth, captured, false);
        }
        true
    }

    fn king_jumps(&mut self, at: B, captured: B, depth: usize) -> bool {
        if self.rules.flying_kings {
            self.flying_king_jumps(at, captured, depth)
        } else {
            self.short_king_jumps(at, captured, depth)
        }
    }

    fn short_king_jumps(&mut self, at: B, captured: B, depth: usize) -> bool {
        let mut found = false;
        for dir in Direction::ALL {
            let victim = self.step(at, dir) & self.opp & !captured;
            if victim == B::ZERO {
                continue;
            }
            let landing = self.step(victim, dir) & self.empty;
            if landing == B::ZERO {
                continue;
            }
            found = true;
            let captured = captured | victim;
            self.landings[depth] = square_of(landing);
            if !self.short_king_jumps(landing, captured, depth + 1) {
                self.emit(depth + 1, captured, self.start_is_man);
            }
        }
        found
    }

    /// The first enemy piece a flying king on `at` meets in `dir`, if it can be jumped.
    #[inline]
    fn flying_victim(&self, at: B, dir: Direction, captured: B) -> B {
        let mut sq = self.step(at, dir);
        while sq & self.empty != B::ZERO {
            sq = self.step(sq, dir);
        }
        let victim = sq & self.opp & !captured;
        if victim != B::ZERO && self.step(victim, dir) & self.empty != B::ZERO {
            victim
        } else {
            B::ZERO
        }
    }

    fn flying_king_can_jump(&self, at: B, captured: B) -> bool {
        Direction::ALL
            .into_iter()
            .any(|dir| self.flying_victim(at, dir, captured) != B::ZERO)
    }

    fn flying_king_jumps(&mut self, at: B, captured: B, depth: usize) -> bool {
        let mut found = false;
        for dir in Direction::ALL {
            let victim = self.flying_victim(at, dir, captured);
            if victim == B::ZERO {
                continue;
            }
            found = true;
            let captured = captured | victim;
            let mut landings = [B::ZERO; MAX_SIDE];
            let mut count = 0;
            let mut landing = self.step(victim, dir) & self.empty;
            while landing != B::ZERO {
                landings[count] = landing;
                count += 1;
                landing = self.step(landing, dir) & self.empty;
            }
            // A king must land where the capture continues, if it can continue from any landing.
            let continuing: u32 = (0..count)
                .filter(|&i| self.flying_king_can_jump(landings[i], captured))
                .fold(0, |mask, i| mask | 1 << i);
            for (i, &landing) in landings[..count].iter().enumerate() {
                if continuing != 0 && continuing & 1 << i == 0 {
                    continue;
                }
                self.landings[depth] = square_of(landing);
                if continuing == 0 {
                    self.emit(depth + 1, captured, self.start_is_man);
                } else {
                    self.flying_king_jumps(landing, captured, depth + 1);
                }
            }
        }
        found
    }

    fn emit(&mut self, len: usize, captured: B, promotes: bool) {
        let mv = Move::capture(
            self.from,
            &self.landings,
            len,
            Bitboard(captured.widen()),
            promotes,
        );
        // Different paths taking the same pieces are one move; a single capture has one path.
        if captured.count() >= 2 && self.out.contains(&mv) {
            return;
        }
        self.out.push(mv);
    }

    /// The number of moves [`Generator::quiet_moves`] would produce, counted by bit sets.
    fn count_quiet_moves(&self) -> usize {
        let mut count = 0;
        for dir in self.man_forward {
            count += (self.step(self.own_men, dir) & self.empty).count();
        }
        if self.rules.flying_kings {
            for dir in Direction::ALL {
                // Slide every king at once, one step per round, until all rays are blocked.
                let mut front = self.step(self.own_kings, dir) & self.empty;
                while front != B::ZERO {
                    count += front.count();
                    front = self.step(front, dir) & self.empty;
                }
            }
        } else {
            for dir in Direction::ALL {
                count += (self.step(self.own_kings, dir) & self.empty).count();
            }
        }
        count as usize
    }

    /// Whether [`Generator::quiet_moves`] would produce any move: a piece with an empty
    /// square one step ahead (a flying king's slide starts with that step too).
    fn any_quiet_move(&self) -> bool {
        self.man_forward
            .into_iter()
            .any(|dir| self.step(self.own_men, dir) & self.empty != B::ZERO)
            || Direction::ALL
                .into_iter()
                .any(|dir| self.step(self.own_kings, dir) & self.empty != B::ZERO)
    }

    fn quiet_moves(&mut self) {
        for dir in self.man_forward {
            let mut targets = self.step(self.own_men, dir) & self.empty;
            while targets != B::ZERO {
                let to = targets.lowest();
                targets ^= to;
                let from = shift::<W, B>(to, opposite(dir));
                self.out.push(Move::quiet(
                    square_of(from),
                    square_of(to),
                    to & self.promotion_row != B::ZERO,
                ));
            }
        }
        if self.rules.flying_kings {
            let mut kings = self.own_kings;
            while kings != B::ZERO {
                let king = kings.lowest();
                kings ^= king;
                for dir in Direction::ALL {
                    let mut to = self.step(king, dir) & self.empty;
                    while to != B::ZERO {
                        self.out
                            .push(Move::quiet(square_of(king), square_of(to), false));
                        to = self.step(to, dir) & self.empty;
                    }
                }
            }
        } else {
            for dir in Direction::ALL {
                let mut targets = self.step(self.own_kings, dir) & self.empty;
                while targets != B::ZERO {
                    let to = targets.lowest();
                    targets ^= to;
                    let from = shift::<W, B>(to, opposite(dir));
                    self.out
                        .push(Move::quiet(square_of(from), square_of(to), false));
                }
            }
        }
    }
}

/// Keeps only the captures the variant's capture rule allows.
fn apply_capture_choice(pos: &Setup, moves: &mut Vec<Move>) {
    if pos.variant.rules().capture_choice == CaptureChoice::Free {
        return;
    }
    retain_max(moves, |m| m.captured().count() as usize);
    if pos.variant.rules().capture_choice == CaptureChoice::Italian {
        let kings = pos.kings;
        retain_max(moves, |m| usize::from(kings.contains(m.from())));
        retain_max(moves, |m| (m.captured() & kings).count() as usize);
        // The earliest king taken wins: compare the positions of kings in the capture order.
        let geometry = pos.variant.geometry();
        let king_positions = |m: &Move| -> Vec<usize> {
            m.captures_in_order(geometry)
                .iter()
                .enumerate()
                .filter(|(_, sq)| kings.contains(**sq))
                .map(|(i, _)| i)
                .collect()
        };
        if let Some(best) = moves.iter().map(king_positions).min() {
            moves.retain(|m| king_positions(m) == best);
        }
    }
}

fn retain_max(moves: &mut Vec<Move>, score: impl Fn(&Move) -> usize) {
    if let Some(best) = moves.iter().map(&score).max() {
        moves.retain(|m| score(m) == best);
    }
}
