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
mod proto;

use std::fmt;
use std::path::Path;

use rules::{Color, Geometry, Position, Square, Variant};

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
/// The kinds of piece, in the order of [`piece_boards`].
const KINDS: usize = 4;
/// Room for every `Variant as usize`.
const VARIANTS: usize = 16;
/// The second layer is computed this many outputs at a time, on fixed-size arrays.
const BLOCK: usize = 16;

/// An evaluation network loaded for one variant.
#[derive(Clone)]
pub struct EvalNet {
    variant: Variant,
    /// Indexed by `Variant as usize`: whether the variant's board is the network's (a table,
    /// so that the check on every update costs a load).
    boards: [bool; VARIANTS],
    hidden: usize,
    inner: usize,
    /// `ft.weight`: row `f` (feature `f`'s `hidden` weights) at `f * hidden`.
    ft_weight: Vec<f32>,
    ft_bias: Vec<f32>,
    /// `l1.weight` cut into blocks of [`BLOCK`] outputs (the last padded with zeros): block
    /// `b` holds, for each of the `2 * hidden` inputs in turn, its weights to outputs
    /// `b * BLOCK..(b + 1) * BLOCK`.
    l1_weight: Vec<[f32; BLOCK]>,
    /// `l1.bias` padded with zeros to whole blocks.
    l1_bias: Vec<[f32; BLOCK]>,
    /// `out.weight` padded with zeros to whole blocks, so padded outputs add nothing.
    out_weight: Vec<[f32; BLOCK]>,
    out_bias: f32,
    /// For view `v` (0 White's, 1 Black's) and piece kind `k`, entry `(v * KINDS + k)[bit]` is
    /// the offset in `ft_weight` of the row of the feature of such a piece on square `bit`.
    rows: Box<[[u32; BITS]; 2 * KINDS]>,
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
/// values, then Black's. The search keeps one per ply and writes each from its parent's with
/// [`EvalNet::update`], so no node allocates.
#[derive(Debug, Clone, PartialEq)]
pub struct Accumulator {
    sums: Vec<f32>,
}

impl Accumulator {
    /// The sums of `color`'s view (`hidden` values, before clipping).
    pub fn view(&self, color: Color) -> &[f32] {
        let half = self.sums.len() / 2;
        match color {
            Color::White => &self.sums[..half],
            Color::Black => &self.sums[half..],
        }
    }
}

/// The pieces of a position by kind as raw bits: White's men, White's kings, Black's men,
/// Black's kings.
#[inline]
fn piece_boards(position: &Position) -> [u128; KINDS] {
    let white = position.pieces(Color::White).0;
    let black = position.pieces(Color::Black).0;
    let kings = position.kings().0;
    [white & !kings, white & kings, black & !kings, black & kings]
}

/// The bit positions of `bits`, lowest first (a `Bitboard`'s squares, on the raw bits).
#[inline]
fn bits(mut bits: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            bit
        })
    })
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

/// `acc += row`.
#[inline]
fn add(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// `acc -= row`.
#[inline]
fn sub(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a -= w;
    }
}

/// Splits `values` into blocks of [`BLOCK`], the last padded with zeros.
fn blocks(values: &[f32]) -> Vec<[f32; BLOCK]> {
    values
        .chunks(BLOCK)
        .map(|c| {
            let mut b = [0.0; BLOCK];
            b[..c.len()].copy_from_slice(c);
            b
        })
        .collect()
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

        Ok(EvalNet {
            variant,
            boards: board_table(side),
            hidden,
            inner,
            ft_weight,
            ft_bias,
            l1_weight: blocked_rows(&l1_weight, inner),
            l1_bias: blocks(&l1_bias),
            out_weight: blocks(&out_weight),
            out_bias: out_bias[0],
            rows: row_table(geometry, hidden),
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
            sums: vec![0.0; 2 * self.hidden],
        }
    }

    /// The rows of `ft.weight` a piece of `kind` on bit `bit` adds to White's and Black's views.
    #[inline]
    fn feature_rows(&self, kind: usize, bit: u32) -> (&[f32], &[f32]) {
        let h = self.hidden;
        let white = self.rows[kind][bit as usize] as usize;
        let black = self.rows[KINDS + kind][bit as usize] as usize;
        (
            &self.ft_weight[white..white + h],
            &self.ft_weight[black..black + h],
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
            2 * self.hidden,
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
        let (white, black) = acc.sums.split_at_mut(self.hidden);
        white.copy_from_slice(&self.ft_bias);
        black.copy_from_slice(&self.ft_bias);
        for (kind, board) in piece_boards(position).into_iter().enumerate() {
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
        let old = piece_boards(before);
        let new = piece_boards(after);
        let removed: [u128; KINDS] = std::array::from_fn(|k| old[k] & !new[k]);
        let added: [u128; KINDS] = std::array::from_fn(|k| new[k] & !old[k]);
        let h = self.hidden;
        let (to_white, to_black) = to.sums.split_at_mut(h);
        let (from_white, from_black) = from.sums.split_at(h);

        // A square holds one piece, so the kinds' bits are disjoint: one bit in their union is
        // one piece.
        let union = |boards: &[u128; KINDS]| boards.iter().fold(0, |a, b| a | b);
        let single = u128::is_power_of_two;
        if single(union(&removed)) && single(union(&added)) {
            // A quiet move (or a promotion): one pass over each view.
            let rows_of = |boards: &[u128; KINDS]| {
                let kind = boards.iter().position(|&b| b != 0).unwrap_or(0);
                self.feature_rows(kind, boards[kind].trailing_zeros())
            };
            let (sub_white, sub_black) = rows_of(&removed);
            let (add_white, add_black) = rows_of(&added);
            for (to, from, plus, minus) in [
                (to_white, from_white, add_white, sub_white),
                (to_black, from_black, add_black, sub_black),
            ] {
                let n = to.len();
                let (from, plus, minus) = (&from[..n], &plus[..n], &minus[..n]);
                for i in 0..n {
                    to[i] = from[i] + plus[i] - minus[i];
                }
            }
            return;
        }

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
        let h = self.hidden;
        assert_eq!(acc.sums.len(), 2 * h, "an accumulator of another network");
        let (white, black) = acc.sums.split_at(h);
        let (own, other) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let mut logit = self.out_bias;
        let weights = self.l1_weight.chunks_exact(2 * h);
        for ((block, bias), out) in weights.zip(&self.l1_bias).zip(&self.out_weight) {
            let mut sums = *bias;
            let (own_weights, other_weights) = block.split_at(h);
            for (view, weights) in [(own, own_weights), (other, other_weights)] {
                for (x, w) in view.iter().zip(weights) {
                    // Clipped to zero, as many are: nothing to add.
                    if *x <= 0.0 {
                        continue;
                    }
                    let x = x.min(1.0);
                    for (s, w) in sums.iter_mut().zip(w) {
                        *s += x * w;
                    }
                }
            }
            for (s, w) in sums.iter().zip(out) {
                logit += s.clamp(0.0, 1.0) * w;
            }
        }
        logit
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

/// `weights` ([inputs, width], row-major) as blocks of [`BLOCK`] outputs: block `b` holds each
/// input's weights to outputs `b * BLOCK..(b + 1) * BLOCK`, zeros past `width`.
fn blocked_rows(weights: &[f32], width: usize) -> Vec<[f32; BLOCK]> {
    let inputs = weights.len() / width;
    let mut out = vec![[0.0; BLOCK]; width.div_ceil(BLOCK) * inputs];
    for (input, row) in weights.chunks_exact(width).enumerate() {
        for (b, chunk) in row.chunks(BLOCK).enumerate() {
            out[b * inputs + input][..chunk.len()].copy_from_slice(chunk);
        }
    }
    out
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

/// The feature table of [`EvalNet`]'s `rows` for a board and a first layer `hidden` wide.
fn row_table(geometry: &Geometry, hidden: usize) -> Box<[[u32; BITS]; 2 * KINDS]> {
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
                rows[v * KINDS + kind][sq.bit() as usize] = (feature * hidden) as u32;
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
