//! The learned evaluation of the alpha-beta search: a small NNUE-style network, evaluated
//! natively (no ONNX Runtime) and updated incrementally as moves are made.
//!
//! The weights come from an ONNX file written by `training/export_eval.py`; the graph, built by
//! `training/evalnet.py`, is the specification this crate follows:
//!
//! - A position is seen from both seats. The view of colour `p` has four planes of
//!   `side * side` cells: `p`'s men, `p`'s kings, the other side's men, the other side's kings,
//!   with the board turned by 180 degrees for Black (as `network::encoding` shows it). Feature
//!   `plane * side * side + row * side + col` is 1 where the plane has a piece.
//! - The feature transformer maps each view to `hidden` sums (`ft.weight` `[F, H]`, `ft.bias`
//!   `[H]`), clipped to `[0, 1]`.
//! - The side to move's view and then the opponent's go through `l1` (`[2H, L]`, clipped to
//!   `[0, 1]`) and `out` (`[L, 1]`): the side to move's winning chances as a logit.
//!
//! The first layer's sums for both views are kept in an [`Accumulator`]. A move changes a few
//! pieces, so [`EvalNet::update`] adds and subtracts a few rows of `ft.weight` instead of
//! recomputing them; [`EvalNet::evaluate`] then runs the two small layers.
//!
//! The first two layers run in integers, as NNUE engines do: the search evaluates millions of
//! positions a second, and 16-bit lanes are twice as many per vector instruction as 32-bit
//! floats, with a multiply-add that sums pairs. At load, `ft.weight` and `ft.bias` are scaled
//! into `i16` by the largest factor with which no position's sums can overflow, and `l1.weight`
//! by the largest with which no second-layer sum can overflow `i32` (see `Quantized`). The
//! sums are then exact integers, so an update equals a recomputation to the bit. What the
//! rounding of the weights costs is checked against ONNX Runtime by the tests: a few
//! thousandths of a logit.
//!
//! ```no_run
//! # use evalnet::EvalNet;
//! # use rules::{Position, Variant};
//! let net = EvalNet::load("models/russian-eval.onnx".as_ref())?;
//! let before = Position::new(Variant::Russian);
//! let mut acc = net.accumulator();
//! net.refresh(&before, &mut acc);
//! let after = before.play(&before.legal_moves()[0]).unwrap();
//! let mut next = net.accumulator();
//! net.update(&before, &after, &acc, &mut next);
//! let logit = net.evaluate(&next, after.turn());
//! # Ok::<(), evalnet::EvalNetError>(())
//! ```
#![warn(missing_docs)]

mod error;
mod onnx;
mod piece_bits;
mod proto;

use std::fmt;
use std::path::Path;

use rules::{BoardBits, Color, Geometry, Position, Square, Variant};
use wide::{f32x4, i16x8, i32x4};

use piece_bits::{KINDS, bits, piece_bits};

pub use error::EvalNetError;

/// The layout version (`checkerbot.eval_version`) this crate reads; `training/evalnet.py`'s
/// `EVAL_VERSION`.
pub const EVAL_VERSION: u32 = 1;
/// The widest first layer accepted (`hidden`): wider is not a network for a fast search.
pub const MAX_HIDDEN: usize = 1024;
/// The widest second layer accepted.
pub const MAX_INNER: usize = 256;

const KIND_KEY: &str = "checkerbot.kind";
const KIND: &str = "evaluation";
const VERSION_KEY: &str = "checkerbot.eval_version";
const VARIANT_KEY: &str = "checkerbot.variant";

/// Bits of the padded square layout (`rules::Bitboard` is a `u128`).
const BITS: usize = 128;
/// Room for every `Variant as usize`.
const VARIANTS: usize = 16;
/// The `i16` lanes of one vector: each view's sums, and each row of weights, are padded with
/// zeros to whole vectors.
const LANES: usize = 8;
/// Networks with at most this many vectors of second-layer inputs (`2 * hidden` padded) clip
/// them into a buffer on the stack; wider ones allocate one per evaluation.
const STACK_VECTORS: usize = 32;
/// The second layer's outputs computed together (see `EvalNet::upper_layers`); its rows of
/// weights are padded with outputs of zeros to a multiple of this.
const OUTPUTS_AT_ONCE: usize = 4;
/// A shipped network's first layer in vectors (32 sums a view: every variant's but Russian's):
/// [`EvalNet::update`] and [`EvalNet::evaluate`] have versions for just this width and
/// [`WIDE`], the search's hot path, and the latter clips into a buffer of just its size
/// (zeroing a larger one cost more than the clipping, every evaluation).
const NARROW: usize = 4;
/// Russian's first layer in vectors (64 sums a view), with code of its own as [`NARROW`].
const WIDE: usize = 8;
/// The largest number of `i16` units that stand for 1.0 in the first layer's sums (the clip's
/// top): a finer scale than this would not make the evaluation measurably closer.
const MAX_FT_SCALE: f64 = 4096.0;

/// An evaluation network loaded for one variant.
#[derive(Clone)]
pub struct EvalNet {
    variant: Variant,
    /// Indexed by `Variant as usize`: whether the variant's board is the network's (a table,
    /// so that the check on every update costs a load).
    boards: [bool; VARIANTS],
    hidden: usize,
    /// `hidden` in vectors of [`LANES`] (the last padded with zeros).
    width: usize,
    inner: usize,
    /// `ft.weight` times `ft_scale`, rounded: row `f` (feature `f`'s `hidden` weights) at
    /// `f * width`.
    ft_weight: Vec<i16x8>,
    /// `ft.bias` times `ft_scale`, rounded.
    ft_bias: Vec<i16x8>,
    /// The `i16` units of 1.0 in the first layer's sums: its clip to `[0, 1]` is to
    /// `[0, ft_scale]`.
    ft_scale: i16,
    /// `l1.weight` times `l1_scale`, rounded, one row per output: output `o`'s weights for the
    /// side to move's `hidden` inputs, then the opponent's (each padded to `width` vectors),
    /// at `o * 2 * width`; then rows of zeros up to a multiple of [`OUTPUTS_AT_ONCE`] outputs.
    l1_weight: Vec<i16x8>,
    /// What turns a second-layer integer sum back into its real value: `1 / (ft_scale *
    /// l1_scale)`.
    l1_unscale: f32,
    /// `l1.bias`, four outputs a vector (the last padded with zeros).
    l1_bias: Vec<f32x4>,
    /// `out.weight`, four outputs a vector (the last padded with zeros, which make a padded
    /// output's contribution nothing).
    out_weight: Vec<f32x4>,
    out_bias: f32,
    /// For view `v` (0 White's, 1 Black's) and piece kind `k`, entry `(v * KINDS + k)[bit]` is
    /// the offset in `ft_weight` of the row of the feature of such a piece on square `bit`.
    rows: Box<[[u32; BITS]; 2 * KINDS]>,
    /// Every square's bit lies below 64 (8x8 and 10x10 boards): [`EvalNet::update`] compares
    /// positions in `u64`.
    narrow: bool,
    /// The model's metadata (`metadata_props`) in file order, for what the caller reads of it
    /// (the v maps of `checkerbot.calibration`).
    metadata: Vec<(String, String)>,
}

impl fmt::Debug for EvalNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EvalNet")
            .field("variant", &self.variant)
            .field("hidden", &self.hidden)
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

/// The first layer's sums (before clipping) of one position, for both views: White's `hidden`
/// values, then Black's, in the network's integer units. The search keeps one per ply and
/// writes each from its parent's with [`EvalNet::update`], so no node allocates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accumulator {
    /// White's view then Black's, each padded to whole vectors.
    sums: Vec<i16x8>,
    hidden: usize,
}

impl Accumulator {
    /// The sums of `color`'s view (`hidden` values, before clipping), in the network's
    /// integer units.
    pub fn view(&self, color: Color) -> Vec<i16> {
        let half = self.sums.len() / 2;
        let vectors = match color {
            Color::White => &self.sums[..half],
            Color::Black => &self.sums[half..],
        };
        let mut values: Vec<i16> = vectors.iter().flat_map(|v| v.to_array()).collect();
        values.truncate(self.hidden);
        values
    }
}

/// Row and column of `sq` as `view` sees the board (row 0 nearest to it): turned by 180
/// degrees for Black. The same as `network::encoding::view_coords`, which this crate does not
/// depend on (it links ONNX Runtime).
const fn view_coords(geometry: &Geometry, view: Color, sq: Square) -> (usize, usize) {
    let (row, col) = geometry.coords(sq);
    match view {
        Color::White => (row, col),
        Color::Black => (geometry.side() - 1 - row, geometry.side() - 1 - col),
    }
}

/// `acc += row`, lane by lane. The sums of a position always fit (see `Quantized`), so a sum
/// on the way there that does not (pieces added before others are taken away) wraps back, as
/// vector additions do.
#[inline]
fn add(acc: &mut [i16x8], row: &[i16x8]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += *w;
    }
}

/// `acc -= row`, wrapping as [`add`].
#[inline]
fn sub(acc: &mut [i16x8], row: &[i16x8]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a -= *w;
    }
}

impl EvalNet {
    /// Reads a network from the bytes of an ONNX file written by `training/export_eval.py`.
    ///
    /// The metadata must say `checkerbot.kind` = `evaluation`, `checkerbot.eval_version` =
    /// [`EVAL_VERSION`] and name a variant; the six initializers must have the shapes of
    /// `training/evalnet.py` for that variant's board, with `hidden` at most [`MAX_HIDDEN`] and
    /// the second layer at most [`MAX_INNER`] wide, and hold finite 32-bit floats.
    pub fn from_onnx(bytes: &[u8]) -> Result<EvalNet, EvalNetError> {
        let model = onnx::parse(bytes)?;
        match model.metadata(KIND_KEY) {
            Some(KIND) => {}
            other => {
                return Err(EvalNetError::NotEvaluation {
                    kind: other.map(str::to_owned),
                });
            }
        }
        let version = model
            .metadata(VERSION_KEY)
            .ok_or(EvalNetError::MissingMetadata(VERSION_KEY))?;
        if version != EVAL_VERSION.to_string() {
            return Err(EvalNetError::Version {
                found: version.to_owned(),
            });
        }
        let name = model
            .metadata(VARIANT_KEY)
            .ok_or(EvalNetError::MissingMetadata(VARIANT_KEY))?;
        let variant: Variant = name
            .parse()
            .map_err(|_| EvalNetError::UnknownVariant(name.to_owned()))?;
        let geometry = variant.geometry();
        let side = geometry.side();
        let features = 4 * side * side;

        let ft = initializer(&model, "ft.weight")?;
        let hidden = match ft.dims[..] {
            [f, h] if f == features as i64 && (1..=MAX_HIDDEN as i64).contains(&h) => h as usize,
            _ => {
                return Err(shape(
                    "ft.weight",
                    format!(
                        "[{features}, hidden] with hidden from 1 to {MAX_HIDDEN} \
                         ({features} = 4 planes of the {side}x{side} board of {variant})"
                    ),
                    &ft.dims,
                ));
            }
        };
        let l1 = initializer(&model, "l1.weight")?;
        let inner = match l1.dims[..] {
            [i, l] if i == 2 * hidden as i64 && (1..=MAX_INNER as i64).contains(&l) => l as usize,
            _ => {
                return Err(shape(
                    "l1.weight",
                    format!(
                        "[{}, inner] with inner from 1 to {MAX_INNER} (twice ft.weight's {hidden})",
                        2 * hidden
                    ),
                    &l1.dims,
                ));
            }
        };
        let ft_weight = values(ft, "ft.weight", &[features, hidden])?;
        let ft_bias = values(initializer(&model, "ft.bias")?, "ft.bias", &[hidden])?;
        let l1_weight = values(l1, "l1.weight", &[2 * hidden, inner])?;
        let l1_bias = values(initializer(&model, "l1.bias")?, "l1.bias", &[inner])?;
        let out_weight = values(
            initializer(&model, "out.weight")?,
            "out.weight",
            &[inner, 1],
        )?;
        let out_bias = values(initializer(&model, "out.bias")?, "out.bias", &[1])?;

        let quantized = Quantized::new(geometry, &ft_weight, &ft_bias, &l1_weight, hidden)?;
        let width = hidden.div_ceil(LANES);
        Ok(EvalNet {
            variant,
            boards: board_table(side),
            hidden,
            width,
            inner,
            ft_weight: quantized.ft_weight,
            ft_bias: quantized.ft_bias,
            ft_scale: quantized.ft_scale,
            l1_weight: quantized.l1_weight,
            l1_unscale: quantized.l1_unscale,
            l1_bias: quads(&l1_bias),
            out_weight: quads(&out_weight),
            out_bias: out_bias[0],
            rows: row_table(geometry, width),
            narrow: geometry.squares().all(|sq| sq.bit() < 64),
            metadata: model
                .metadata
                .iter()
                .map(|&(key, value)| (key.to_owned(), value.to_owned()))
                .collect(),
        })
    }

    /// The value of the model's metadata entry `key`, if it has one: what this crate does not
    /// read itself, such as the v maps (`checkerbot.calibration`) the player applies.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.as_str())
    }

    /// Reads a network from an ONNX file (see [`EvalNet::from_onnx`]).
    pub fn load(path: &Path) -> Result<EvalNet, EvalNetError> {
        let bytes = std::fs::read(path).map_err(|source| EvalNetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        EvalNet::from_onnx(&bytes)
    }

    /// The variant the network was trained for (`checkerbot.variant`).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The first layer's width per view (`H`).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The second layer's width (`L`).
    pub fn inner(&self) -> usize {
        self.inner
    }

    /// A new accumulator for this network (zeros until [`EvalNet::refresh`] or
    /// [`EvalNet::update`] writes it).
    pub fn accumulator(&self) -> Accumulator {
        Accumulator {
            sums: vec![i16x8::ZERO; 2 * self.width],
            hidden: self.hidden,
        }
    }

    /// The rows of `ft.weight` a piece of `kind` on bit `bit` adds to White's and Black's views.
    #[inline]
    fn feature_rows(&self, kind: usize, bit: u32) -> (&[i16x8], &[i16x8]) {
        let h = self.width;
        let white = self.rows[kind][bit as usize] as usize;
        let black = self.rows[KINDS + kind][bit as usize] as usize;
        (
            &self.ft_weight[white..white + h],
            &self.ft_weight[black..black + h],
        )
    }

    /// [`EvalNet::feature_rows`] for a network known to be `W` vectors wide.
    #[inline]
    fn feature_rows_of<const W: usize>(&self, kind: usize, bit: u32) -> (&[i16x8; W], &[i16x8; W]) {
        let row = |offset: u32| -> &[i16x8; W] {
            let offset = offset as usize;
            self.ft_weight[offset..offset + W]
                .try_into()
                .expect("a row is W vectors")
        };
        (
            row(self.rows[kind][bit as usize]),
            row(self.rows[KINDS + kind][bit as usize]),
        )
    }

    #[inline]
    fn check(&self, position: &Position, acc: &Accumulator) {
        assert!(
            self.boards
                .get(position.variant() as usize)
                .copied()
                .unwrap_or(false),
            "a position of another board than the network's"
        );
        assert_eq!(
            acc.sums.len(),
            2 * self.width,
            "an accumulator of another network"
        );
    }

    /// Computes `acc` for `position` from scratch. (A position of another variant on the same
    /// board is taken as it is: which network suits which variant is the caller's choice.)
    ///
    /// # Panics
    /// If `position`'s board has another size than the network's variant, or `acc` was made by
    /// a network of another width.
    pub fn refresh(&self, position: &Position, acc: &mut Accumulator) {
        self.check(position, acc);
        let (white, black) = acc.sums.split_at_mut(self.width);
        white.copy_from_slice(&self.ft_bias);
        black.copy_from_slice(&self.ft_bias);
        for (kind, board) in piece_bits::<u128>(position).into_iter().enumerate() {
            for bit in bits(board) {
                let (w, b) = self.feature_rows(kind, bit);
                add(white, w);
                add(black, b);
            }
        }
    }

    /// Writes into `to` the accumulator of `after` from `from`, the accumulator of `before`:
    /// the rows of the pieces that left a square (`before` and not `after`, per colour and
    /// kind) are subtracted and those of the pieces that arrived are added. Any change works
    /// (captures, promotions, a null move), and the move need not be known.
    ///
    /// # Panics
    /// As [`EvalNet::refresh`].
    pub fn update(
        &self,
        before: &Position,
        after: &Position,
        from: &Accumulator,
        to: &mut Accumulator,
    ) {
        self.check(before, from);
        self.check(after, to);
        if self.narrow {
            self.apply_changes::<u64>(before, after, from, to);
        } else {
            self.apply_changes::<u128>(before, after, from, to);
        }
    }

    /// [`EvalNet::update`] with the boards' bits in `B`.
    #[inline]
    fn apply_changes<B: BoardBits>(
        &self,
        before: &Position,
        after: &Position,
        from: &Accumulator,
        to: &mut Accumulator,
    ) {
        let old = piece_bits::<B>(before);
        let new = piece_bits::<B>(after);
        let removed: [B; KINDS] = std::array::from_fn(|k| old[k] & !new[k]);
        let added: [B; KINDS] = std::array::from_fn(|k| new[k] & !old[k]);
        match self.width {
            NARROW => self.apply_in_registers::<NARROW, B>(&removed, &added, from, to),
            WIDE => self.apply_in_registers::<WIDE, B>(&removed, &added, from, to),
            _ => self.apply(&removed, &added, from, to),
        }
    }

    /// `to = from - removed + added`, for a network `W` vectors wide a view: both views' sums
    /// stay in registers while the rows go by, and every loop has a known length (no bounds
    /// checks, unrolled). The search's hot path with the shipped networks.
    #[inline]
    fn apply_in_registers<const W: usize, B: BoardBits>(
        &self,
        removed: &[B; KINDS],
        added: &[B; KINDS],
        from: &Accumulator,
        to: &mut Accumulator,
    ) {
        let (from_white, from_black) = from.sums.split_at(W);
        let mut white: [i16x8; W] = std::array::from_fn(|i| from_white[i]);
        let mut black: [i16x8; W] = std::array::from_fn(|i| from_black[i]);
        for kind in 0..KINDS {
            for bit in bits(removed[kind]) {
                let (w, b) = self.feature_rows_of::<W>(kind, bit);
                for i in 0..W {
                    white[i] -= w[i];
                    black[i] -= b[i];
                }
            }
            for bit in bits(added[kind]) {
                let (w, b) = self.feature_rows_of::<W>(kind, bit);
                for i in 0..W {
                    white[i] += w[i];
                    black[i] += b[i];
                }
            }
        }
        let (to_white, to_black) = to.sums.split_at_mut(W);
        to_white[..W].copy_from_slice(&white);
        to_black[..W].copy_from_slice(&black);
    }

    /// `to = from - removed + added`, for a network of any width.
    fn apply<B: BoardBits>(
        &self,
        removed: &[B; KINDS],
        added: &[B; KINDS],
        from: &Accumulator,
        to: &mut Accumulator,
    ) {
        let h = self.width;
        let (to_white, to_black) = to.sums.split_at_mut(h);
        let (from_white, from_black) = from.sums.split_at(h);
        to_white.copy_from_slice(from_white);
        to_black.copy_from_slice(from_black);
        for kind in 0..KINDS {
            for bit in bits(removed[kind]) {
                let (w, b) = self.feature_rows(kind, bit);
                sub(to_white, w);
                sub(to_black, b);
            }
            for bit in bits(added[kind]) {
                let (w, b) = self.feature_rows(kind, bit);
                add(to_white, w);
                add(to_black, b);
            }
        }
    }

    /// The network's output for the position of `acc` with `turn` to move: `turn`'s winning
    /// chances as a logit (positive: `turn` is more likely to win).
    ///
    /// # Panics
    /// If `acc` was made by a network of another width.
    pub fn evaluate(&self, acc: &Accumulator, turn: Color) -> f32 {
        let inputs = 2 * self.width;
        assert_eq!(acc.sums.len(), inputs, "an accumulator of another network");
        if self.width == NARROW {
            let mut buffer = [i16x8::ZERO; 2 * NARROW];
            self.upper_layers::<NARROW>(acc, turn, &mut buffer)
        } else if self.width == WIDE {
            let mut buffer = [i16x8::ZERO; 2 * WIDE];
            self.upper_layers::<WIDE>(acc, turn, &mut buffer)
        } else if inputs <= STACK_VECTORS {
            let mut buffer = [i16x8::ZERO; STACK_VECTORS];
            self.upper_layers::<0>(acc, turn, &mut buffer[..inputs])
        } else {
            self.upper_layers::<0>(acc, turn, &mut vec![i16x8::ZERO; inputs])
        }
    }

    /// The second and output layers of [`EvalNet::evaluate`], the second layer's inputs (the
    /// side to move's clipped sums, then the opponent's) written into `inputs`. `W` is the
    /// network's width when the caller knows it (every loop then has a known length, unrolled
    /// with no bounds checks), or 0.
    #[inline]
    fn upper_layers<const W: usize>(
        &self,
        acc: &Accumulator,
        turn: Color,
        inputs: &mut [i16x8],
    ) -> f32 {
        let h = if W == 0 { self.width } else { W };
        let (white, black) = (&acc.sums[..h], &acc.sums[h..2 * h]);
        let inputs = &mut inputs[..2 * h];
        let (own, other) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (first, second) = inputs.split_at_mut(h);
        let top = i16x8::splat(self.ft_scale);
        for (clipped, sums) in [(first, own), (second, other)] {
            for (c, s) in clipped.iter_mut().zip(sums) {
                *c = s.max(i16x8::ZERO).min(top);
            }
        }
        // Four outputs at a time: each input vector read once for all four, and their four
        // lanes of sums turned, added and activated as one vector.
        let row_length = 2 * h;
        let unscale = f32x4::splat(self.l1_unscale);
        let mut logits = f32x4::ZERO;
        let quads = self.l1_weight.chunks_exact(OUTPUTS_AT_ONCE * row_length);
        for ((rows, &bias), &weight) in quads.zip(&self.l1_bias).zip(&self.out_weight) {
            let (r0, rest) = rows.split_at(row_length);
            let (r1, rest) = rest.split_at(row_length);
            let (r2, r3) = rest.split_at(row_length);
            let mut sums = [i32x4::ZERO; OUTPUTS_AT_ONCE];
            for ((((x, w0), w1), w2), w3) in inputs.iter().zip(r0).zip(r1).zip(r2).zip(r3) {
                sums[0] += x.dot(*w0);
                sums[1] += x.dot(*w1);
                sums[2] += x.dot(*w2);
                sums[3] += x.dot(*w3);
            }
            // Turned, the first vector holds each output's first lane, and so on.
            let [first, second, third, fourth] = f32x4::transpose(sums.map(i32x4::round_float));
            let hidden = ((first + second) + (third + fourth)).mul_add(unscale, bias);
            let hidden = hidden.max(f32x4::ZERO).min(f32x4::ONE);
            logits = hidden.mul_add(weight, logits);
        }
        self.out_bias + logits.reduce_add()
    }

    /// The network's output for `position` (its side to move's winning chances as a logit),
    /// computed from scratch: for tests and one-off use, not for a search.
    ///
    /// # Panics
    /// If `position`'s board has another size than the network's variant.
    pub fn evaluate_position(&self, position: &Position) -> f32 {
        let mut acc = self.accumulator();
        self.refresh(position, &mut acc);
        self.evaluate(&acc, position.turn())
    }
}

/// The first two layers' weights in integers, with their scales.
///
/// The first layer's sums must fit `i16` in every position: a square holds at most one piece,
/// so hidden unit `j`'s sum is at most `|ft.bias[j]|` plus, for each cell a piece can stand on
/// (in either view), the largest `|ft.weight|` of unit `j` among the cell's four features. The
/// scale is the largest whole number with which the largest such bound stays within `i16`
/// (and at most [`MAX_FT_SCALE`]). The second layer's inputs are then at most that scale
/// each, and its scale the largest with which `2 * hidden` of them times the largest weight
/// stay within half of `i32` (and each weight within `i16`).
struct Quantized {
    ft_weight: Vec<i16x8>,
    ft_bias: Vec<i16x8>,
    ft_scale: i16,
    /// Output-major: output `o`'s `2 * width` vectors at `o * 2 * width`.
    l1_weight: Vec<i16x8>,
    l1_unscale: f32,
}

impl Quantized {
    /// `ft_weight` is `[4 * side * side, hidden]` for `geometry`'s board and `l1_weight`
    /// `[2 * hidden, inner]`, row-major.
    fn new(
        geometry: &Geometry,
        ft_weight: &[f32],
        ft_bias: &[f32],
        l1_weight: &[f32],
        hidden: usize,
    ) -> Result<Quantized, EvalNetError> {
        let side = geometry.side();
        let cells = side * side;
        let mut playable: Vec<usize> = Color::ALL
            .into_iter()
            .flat_map(|view| {
                geometry.squares().map(move |sq| {
                    let (row, col) = view_coords(geometry, view, sq);
                    row * side + col
                })
            })
            .collect();
        playable.sort_unstable();
        playable.dedup();
        let largest_sum = (0..hidden)
            .map(|j| {
                let cell_bound = |&cell: &usize| {
                    (0..KINDS)
                        .map(|plane| {
                            f64::from(ft_weight[(plane * cells + cell) * hidden + j].abs())
                        })
                        .fold(0.0, f64::max)
                };
                f64::from(ft_bias[j].abs()) + playable.iter().map(cell_bound).sum::<f64>()
            })
            .fold(0.0, f64::max);
        // Each rounded weight may add half a unit: room for one per cell and the bias.
        let room = f64::from(i16::MAX) - playable.len() as f64;
        let ft_scale = (room / largest_sum).min(MAX_FT_SCALE).floor();
        if ft_scale < 1.0 {
            return Err(EvalNetError::OutOfRange {
                largest: largest_sum,
            });
        }
        let inputs = 2 * hidden;
        let inner = l1_weight.len() / inputs;
        let largest_weight = l1_weight
            .iter()
            .map(|w| f64::from(w.abs()))
            .fold(0.0, f64::max);
        let l1_scale = if largest_weight > 0.0 {
            let sums = f64::from(i32::MAX / 2) / (inputs as f64 * ft_scale * largest_weight);
            (f64::from(i16::MAX) / largest_weight).min(sums)
        } else {
            1.0
        };
        // Output `o`'s weights from the side to move's view, then from the opponent's; then
        // outputs of zeros up to a whole number of `OUTPUTS_AT_ONCE`.
        let padded = inner.next_multiple_of(OUTPUTS_AT_ONCE);
        let row_length = 2 * hidden.div_ceil(LANES);
        let mut l1 = Vec::with_capacity(padded * row_length);
        for output in 0..inner {
            for view in 0..2 {
                let column = (0..hidden).map(|j| l1_weight[(view * hidden + j) * inner + output]);
                l1.extend(vectors(column, l1_scale));
            }
        }
        l1.resize(padded * row_length, i16x8::ZERO);
        Ok(Quantized {
            ft_weight: ft_weight
                .chunks_exact(hidden)
                .flat_map(|row| vectors(row.iter().copied(), ft_scale))
                .collect(),
            ft_bias: vectors(ft_bias.iter().copied(), ft_scale),
            ft_scale: ft_scale as i16,
            l1_weight: l1,
            l1_unscale: (1.0 / (ft_scale * l1_scale)) as f32,
        })
    }
}

/// `values` four to a vector, the last padded with zeros.
fn quads(values: &[f32]) -> Vec<f32x4> {
    padded_chunks::<f32, OUTPUTS_AT_ONCE>(values)
        .map(f32x4::from)
        .collect()
}

/// `values` times `scale`, rounded to `i16`, in vectors (the last padded with zeros).
fn vectors(values: impl Iterator<Item = f32>, scale: f64) -> Vec<i16x8> {
    let rounded: Vec<i16> = values
        .map(|value| (f64::from(value) * scale).round() as i16)
        .collect();
    padded_chunks::<i16, LANES>(&rounded)
        .map(i16x8::from)
        .collect()
}

/// `values` in arrays of `N`, the last padded with zeros.
fn padded_chunks<T: Copy + Default, const N: usize>(values: &[T]) -> impl Iterator<Item = [T; N]> {
    values.chunks(N).map(|chunk| {
        let mut array = [T::default(); N];
        array[..chunk.len()].copy_from_slice(chunk);
        array
    })
}

/// Which variants (by `Variant as usize`) are played on a board of `side`.
fn board_table(side: usize) -> [bool; VARIANTS] {
    let mut table = [false; VARIANTS];
    for variant in Variant::ALL {
        if let Some(entry) = table.get_mut(variant as usize) {
            *entry = variant.geometry().side() == side;
        }
    }
    table
}

/// The feature table of [`EvalNet`]'s `rows` for a board and a first layer `width` vectors
/// wide.
fn row_table(geometry: &Geometry, width: usize) -> Box<[[u32; BITS]; 2 * KINDS]> {
    let mut rows = Box::new([[0u32; BITS]; 2 * KINDS]);
    let side = geometry.side();
    let cells = side * side;
    let kinds = [
        (Color::White, false),
        (Color::White, true),
        (Color::Black, false),
        (Color::Black, true),
    ];
    for (v, view) in Color::ALL.into_iter().enumerate() {
        for (kind, (owner, king)) in kinds.into_iter().enumerate() {
            let plane = if owner == view { 0 } else { 2 } + usize::from(king);
            for sq in geometry.squares() {
                let (row, col) = view_coords(geometry, view, sq);
                let feature = plane * cells + row * side + col;
                rows[v * KINDS + kind][sq.bit() as usize] = (feature * width) as u32;
            }
        }
    }
    rows
}

fn initializer<'m, 'a>(
    model: &'m onnx::Model<'a>,
    name: &'static str,
) -> Result<&'m onnx::Initializer<'a>, EvalNetError> {
    let t = model
        .initializer(name)
        .ok_or(EvalNetError::MissingInitializer(name))?;
    if t.data_type != onnx::FLOAT {
        return Err(EvalNetError::DataType {
            name,
            found: t.data_type,
        });
    }
    Ok(t)
}

fn shape(name: &'static str, expected: String, found: &[i64]) -> EvalNetError {
    EvalNetError::Shape {
        name,
        expected,
        found: found.to_vec(),
    }
}

/// The values of an initializer of shape `dims`, all finite.
fn values(
    t: &onnx::Initializer<'_>,
    name: &'static str,
    dims: &[usize],
) -> Result<Vec<f32>, EvalNetError> {
    if t.dims.len() != dims.len() || t.dims.iter().zip(dims).any(|(&a, &b)| a != b as i64) {
        let expected = format!(
            "[{}]",
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Err(shape(name, expected, &t.dims));
    }
    let values = t.values()?;
    let expected = dims.iter().product();
    if values.len() != expected {
        return Err(EvalNetError::DataLength {
            name,
            expected,
            found: values.len(),
        });
    }
    if let Some(index) = values.iter().position(|v| !v.is_finite()) {
        return Err(EvalNetError::NotFinite { name, index });
    }
    Ok(values)
}
