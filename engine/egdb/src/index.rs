//! The perfect index of one material: a bijection between the legal positions of a
//! [`Material`] (side to move first, seen from White's side after the colour flip of
//! [`canonical`]) and `0..size`.
//!
//! Squares are the 8x8 board's dense indices 0..32 (0 = a1). The side to move's men may stand
//! on rows 0..7 but not on its crowning row (squares 28..32), the opponent's men not on row 0
//! (squares 0..4); kings anywhere. So the index splits the men by how many stand on the rows
//! only one colour's men may use (row 0 for the mover's, row 7 for the opponent's), which
//! makes the opponent's men a combination of the middle squares the mover's men left free:
//! every number is one position and every position one number, with no holes to store.

use rules::{BOARD_8X8, Bitboard, Color, Position, Setup, Variant};

use crate::Material;

/// Squares only the mover's men may use besides the middle: row 0.
const ROW0: u32 = 0x0000_000F;
/// Squares only the opponent's men may use besides the middle: row 7.
const ROW7: u32 = 0xF000_0000;
/// Rows 1..=6, where men of both colours may stand.
const MID: u32 = 0x0FFF_FFF0;

/// Binomial coefficients C(n, k) for n, k ≤ 32.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
};

fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The colex rank of `set` among the subsets of `universe` of the same size.
fn rank(set: u32, universe: u32) -> u64 {
    let mut r = 0;
    let mut bits = set;
    let mut i = 1;
    while bits != 0 {
        let b = bits.trailing_zeros();
        let below = universe & ((1u32 << b) - 1);
        r += binomial(below.count_ones(), i);
        i += 1;
        bits &= bits - 1;
    }
    r
}

/// The `p`-th (from 0) square of `universe`.
fn nth_bit(mut universe: u32, p: u32) -> u32 {
    for _ in 0..p {
        universe &= universe - 1;
    }
    universe & universe.wrapping_neg()
}

/// Inverse of [`rank`]: the subset of `k` squares of `universe` with rank `r`.
fn unrank(mut r: u64, k: u32, universe: u32) -> u32 {
    let mut set = 0;
    let mut top = universe.count_ones();
    for i in (1..=k).rev() {
        let mut p = top - 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        set |= nth_bit(universe, p);
        top = p;
    }
    set
}

/// The pieces of a position as dense-square masks, seen by the side to move.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) struct Pieces {
    pub own_men: u32,
    pub own_kings: u32,
    pub opp_men: u32,
    pub opp_kings: u32,
}

impl Pieces {
    pub(crate) fn material(&self) -> Material {
        Material {
            own_men: self.own_men.count_ones() as u8,
            own_kings: self.own_kings.count_ones() as u8,
            opp_men: self.opp_men.count_ones() as u8,
            opp_kings: self.opp_kings.count_ones() as u8,
        }
    }
}

fn dense(bb: Bitboard) -> u32 {
    bb.into_iter()
        .fold(0, |acc, sq| acc | 1 << BOARD_8X8.index(sq))
}

fn padded(mask: u32) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let mut bits = mask;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bb = bb.with(BOARD_8X8.square(i).expect("a dense index below 32"));
        bits &= bits - 1;
    }
    bb
}

/// The position's pieces from the side to move's view: with Black to move the board is
/// turned half a turn and the colours swapped (dense square `i` becomes `31 - i`, a bit
/// reversal), which the rules of every 8x8 variant leave unchanged, so one table serves
/// both sides to move.
pub(crate) fn canonical(position: &Position) -> Pieces {
    let turn = position.turn();
    let flip = |bb: Bitboard| {
        let d = dense(bb);
        if turn == Color::White {
            d
        } else {
            d.reverse_bits()
        }
    };
    Pieces {
        own_men: flip(position.men_of(turn)),
        own_kings: flip(position.kings_of(turn)),
        opp_men: flip(position.men_of(!turn)),
        opp_kings: flip(position.kings_of(!turn)),
    }
}

/// The position of canonical pieces, White (the side to move) moving up.
pub(crate) fn position_of(variant: Variant, p: &Pieces) -> Option<Position> {
    let setup = Setup {
        variant,
        white: padded(p.own_men | p.own_kings),
        black: padded(p.opp_men | p.opp_kings),
        kings: padded(p.own_kings | p.opp_kings),
        turn: Color::White,
    };
    Position::from_setup(setup).ok()
}

/// One block of men placements: `k0` of the mover's men on row 0, `k7` of the opponent's on
/// row 7.
#[derive(Debug, Clone, Copy)]
struct Block {
    k0: u32,
    k7: u32,
    offset: u64,
    size: u64,
    mid_own: u64,
    row7: u64,
    mid_opp: u64,
}

/// The index of one material.
#[derive(Debug, Clone)]
pub(crate) struct Index {
    material: Material,
    blocks: Vec<Block>,
    own_king_count: u64,
    opp_king_count: u64,
    size: u64,
}

impl Index {
    pub(crate) fn new(material: Material) -> Index {
        let om = u32::from(material.own_men);
        let pm = u32::from(material.opp_men);
        let mut blocks = Vec::new();
        let mut offset = 0;
        for k0 in 0..=om.min(4) {
            for k7 in 0..=pm.min(4) {
                let own_mid = om - k0;
                let opp_mid = pm - k7;
                if own_mid > 24 || opp_mid + own_mid > 24 {
                    continue;
                }
                let mid_own = binomial(24, own_mid);
                let row7 = binomial(4, k7);
                let mid_opp = binomial(24 - own_mid, opp_mid);
                let size = binomial(4, k0) * mid_own * row7 * mid_opp;
                blocks.push(Block {
                    k0,
                    k7,
                    offset,
                    size,
                    mid_own,
                    row7,
                    mid_opp,
                });
                offset += size;
            }
        }
        let free = 32 - om - pm;
        let own_king_count = binomial(free, u32::from(material.own_kings));
        let opp_king_count = binomial(
            free.saturating_sub(u32::from(material.own_kings)),
            u32::from(material.opp_kings),
        );
        Index {
            material,
            blocks,
            own_king_count,
            opp_king_count,
            size: offset * own_king_count * opp_king_count,
        }
    }

    /// Number of positions of the material.
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    /// The number of canonical pieces of this material.
    pub(crate) fn index(&self, p: &Pieces) -> u64 {
        let k0 = (p.own_men & ROW0).count_ones();
        let k7 = (p.opp_men & ROW7).count_ones();
        let block = self
            .blocks
            .iter()
            .find(|b| b.k0 == k0 && b.k7 == k7)
            .expect("the pieces are of this index's material");
        let r1 = rank(p.own_men & ROW0, ROW0);
        let r2 = rank(p.own_men & MID, MID);
        let r3 = rank(p.opp_men & ROW7, ROW7);
        let r4 = rank(p.opp_men & MID, MID & !p.own_men);
        let men = block.offset + ((r1 * block.mid_own + r2) * block.row7 + r3) * block.mid_opp + r4;
        let free = !(p.own_men | p.opp_men);
        let rk = rank(p.own_kings, free);
        let rl = rank(p.opp_kings, free & !p.own_kings);
        (men * self.own_king_count + rk) * self.opp_king_count + rl
    }

    /// The canonical pieces of number `i` (below [`Index::size`]).
    pub(crate) fn pieces(&self, i: u64) -> Pieces {
        let rl = i % self.opp_king_count;
        let rest = i / self.opp_king_count;
        let rk = rest % self.own_king_count;
        let men = rest / self.own_king_count;
        let block = self
            .blocks
            .iter()
            .find(|b| men >= b.offset && men < b.offset + b.size)
            .expect("the number is below the index's size");
        let mut rem = men - block.offset;
        let r4 = rem % block.mid_opp;
        rem /= block.mid_opp;
        let r3 = rem % block.row7;
        rem /= block.row7;
        let r2 = rem % block.mid_own;
        let r1 = rem / block.mid_own;
        let m = self.material;
        let own_men = unrank(r1, block.k0, ROW0) | unrank(r2, u32::from(m.own_men) - block.k0, MID);
        let opp_men = unrank(r3, block.k7, ROW7)
            | unrank(r4, u32::from(m.opp_men) - block.k7, MID & !own_men);
        let free = !(own_men | opp_men);
        let own_kings = unrank(rk, u32::from(m.own_kings), free);
        let opp_kings = unrank(rl, u32::from(m.opp_kings), free & !own_kings);
        Pieces {
            own_men,
            own_kings,
            opp_men,
            opp_kings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_is_one_position_and_back() {
        for material in [
            Material::new(1, 0, 1, 0),
            Material::new(2, 0, 1, 0),
            Material::new(0, 2, 1, 0),
            Material::new(1, 1, 0, 1),
            Material::new(0, 1, 2, 0),
        ] {
            let index = Index::new(material);
            let mut seen = std::collections::HashSet::new();
            for i in 0..index.size() {
                let p = index.pieces(i);
                assert_eq!(p.material(), material);
                let all = [p.own_men, p.own_kings, p.opp_men, p.opp_kings];
                assert_eq!(
                    all.iter().map(|m| m.count_ones()).sum::<u32>(),
                    (all[0] | all[1] | all[2] | all[3]).count_ones()
                );
                assert!(
                    position_of(Variant::Russian, &p).is_some(),
                    "{material:?} {i}"
                );
                assert_eq!(index.index(&p), i);
                assert!(seen.insert(all));
            }
        }
    }

    #[test]
    fn the_size_counts_every_legal_placement() {
        // One man each: the mover's on 28 squares, the opponent's on 28, not the same one.
        let index = Index::new(Material::new(1, 0, 1, 0));
        let brute = (0..28u32)
            .flat_map(|a| (4..32u32).map(move |b| (a, b)))
            .filter(|(a, b)| a != b)
            .count() as u64;
        assert_eq!(index.size(), brute);
        assert_eq!(Index::new(Material::new(0, 3, 0, 1)).size(), 4960 * 29);
    }
}
