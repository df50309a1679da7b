//! The network computed the slow, obvious way (dense features, `f64`, the layers as written in
//! `training/evalnet.py`), against the crate: the fixtures, networks whose layers are not a
//! whole number of the crate's vectors, and sums at the edge of what its integers hold.

use evalnet::EvalNet;
use rules::{Color, Position, Variant};

use crate::model::{Model, fixtures, positions, random_model};

/// The features of `position` as `training/evalnet.py` defines them, written straight from the
/// board's coordinates (not from the crate's table): [2, 4 * side * side], the side to move's
/// view first, each view with the board turned by 180 degrees for Black.
pub fn features(position: &Position) -> Vec<f32> {
    let geometry = position.variant().geometry();
    let side = geometry.side();
    let cells = side * side;
    let mut out = vec![0.0; 2 * 4 * cells];
    let me = position.turn();
    for (v, view) in [me, !me].into_iter().enumerate() {
        let planes = [
            position.men_of(view),
            position.kings_of(view),
            position.men_of(!view),
            position.kings_of(!view),
        ];
        for (plane, board) in planes.into_iter().enumerate() {
            for sq in board {
                let (row, col) = geometry.coords(sq);
                let (row, col) = match view {
                    Color::White => (row, col),
                    Color::Black => (side - 1 - row, side - 1 - col),
                };
                out[v * 4 * cells + plane * cells + row * side + col] = 1.0;
            }
        }
    }
    out
}

/// The network's logit for `position`, from a decoded model.
pub fn forward(model: &Model, position: &Position) -> f64 {
    let input = features(position);
    let ft = model.get("ft.weight");
    let (n_features, hidden) = (ft.dims[0] as usize, ft.dims[1] as usize);
    let l1 = model.get("l1.weight");
    let inner = l1.dims[1] as usize;
    let mut joined = vec![0.0f64; 2 * hidden];
    for view in 0..2 {
        for j in 0..hidden {
            let mut sum = f64::from(model.get("ft.bias").values[j]);
            for i in 0..n_features {
                sum +=
                    f64::from(input[view * n_features + i]) * f64::from(ft.values[i * hidden + j]);
            }
            joined[view * hidden + j] = sum.clamp(0.0, 1.0);
        }
    }
    let mut logit = f64::from(model.get("out.bias").values[0]);
    for k in 0..inner {
        let mut sum = f64::from(model.get("l1.bias").values[k]);
        for (i, x) in joined.iter().enumerate() {
            sum += x * f64::from(l1.values[i * inner + k]);
        }
        logit += sum.clamp(0.0, 1.0) * f64::from(model.get("out.weight").values[k]);
    }
    logit
}

fn largest_difference(net: &EvalNet, model: &Model, positions: &[Position]) -> f64 {
    positions
        .iter()
        .map(|p| (f64::from(net.evaluate_position(p)) - forward(model, p)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn fixtures_match_the_reference_computation() {
    for (variant, path) in fixtures() {
        let net = EvalNet::load(&path).unwrap();
        assert_eq!(net.variant(), variant);
        let model = Model::read(&path);
        assert_eq!(net.hidden(), model.get("ft.bias").values.len());
        let worst = largest_difference(&net, &model, &positions(variant, 300, 11));
        eprintln!("{variant}: largest difference from the reference {worst:e}");
        assert!(worst < f64::from(crate::TOLERANCE), "{variant}: {worst}");
    }
}

#[test]
fn odd_widths_match_the_reference_computation() {
    // First layers narrower than one of the crate's vectors, whole numbers of them and
    // between (the widest past what the crate clips into a buffer on the stack), second layers
    // of odd and even widths.
    for (i, (h, l)) in [(1, 1), (7, 5), (24, 16), (40, 17), (64, 33), (131, 6)]
        .into_iter()
        .enumerate()
    {
        let model = random_model(Variant::Russian, h, l, 100 + i as u64);
        let net = EvalNet::from_onnx(&model.encode()).unwrap();
        assert_eq!((net.hidden(), net.inner()), (h, l));
        let worst = largest_difference(&net, &model, &positions(Variant::Russian, 200, i as u64));
        assert!(
            worst < f64::from(crate::TOLERANCE),
            "hidden {h}, inner {l}: {worst}"
        );
    }
}

#[test]
fn sums_at_the_edge_of_sixteen_bits_do_not_wrap() {
    // Every piece adds 1 to the even hidden units and takes 1 from the odd ones, so a full
    // board's sums come within a quarter of the bound the crate scales to: scaled any finer,
    // they would wrap around and the clipped inputs flip.
    let mut model = random_model(Variant::Russian, 16, 8, 7);
    for tensor in ["ft.weight", "ft.bias"] {
        let t = model.tensor(tensor);
        let hidden = *t.dims.last().unwrap() as usize;
        for (i, value) in t.values.iter_mut().enumerate() {
            *value = if (i % hidden).is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        }
    }
    let net = EvalNet::from_onnx(&model.encode()).unwrap();
    let mut batch = positions(Variant::Russian, 100, 5);
    batch.push(Position::new(Variant::Russian));
    let worst = largest_difference(&net, &model, &batch);
    assert!(worst < f64::from(crate::TOLERANCE), "{worst}");
}
