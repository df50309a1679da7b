//! A test-side ONNX model of just what the evaluation network reads (metadata and initializers),
//! with its own small protocol buffers reader and writer, independent of the crate's: fixtures
//! are decoded, changed (metadata, shapes, values, encodings) and written again.
//!
//! The writer puts the fields in the order ONNX does (graph, then metadata); nodes, inputs and
//! outputs are dropped, which the crate ignores anyway.

use std::path::PathBuf;

use rules::{Position, Variant};
use testkit::Lcg;

/// The fixture networks (untrained weights from `training/export_eval.py --random`) and the
/// variant each was written for.
pub fn fixtures() -> Vec<(Variant, PathBuf)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"));
    vec![
        (Variant::Russian, dir.join("random-russian.onnx")),
        (
            Variant::International,
            dir.join("random-international.onnx"),
        ),
        (Variant::Canadian, dir.join("random-canadian.onnx")),
    ]
}

/// A file of the workspace's `models/` folder.
pub fn workspace_model(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models")).join(name)
}

/// The learned evaluations of the workspace's `models/` folder (`<variant>-eval.onnx`) and the
/// variant each file's name gives, in name order.
pub fn shipped_evaluations() -> Vec<(Variant, PathBuf)> {
    let dir = workspace_model("");
    let mut found: Vec<(Variant, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            let variant = name.strip_suffix("-eval.onnx")?;
            let variant = variant
                .parse()
                .unwrap_or_else(|_| panic!("{name}: no variant is called {variant}"));
            Some((variant, path))
        })
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    found
}

/// `count` positions from seeded random games of `variant`, restarting now and then.
pub fn positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut position = Position::new(variant);
    while out.len() < count {
        let moves = position.legal_moves();
        if moves.is_empty() || rng.below(80) == 0 {
            position = Position::new(variant);
            continue;
        }
        out.push(position);
        position.play_unchecked(&moves[rng.below(moves.len())]);
    }
    out
}

/// How a tensor's floats are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `raw_data`, little-endian bytes (what `numpy_helper.from_array` writes).
    Raw,
    /// `float_data`, packed.
    Packed,
    /// `float_data`, one fixed32 field per value.
    Unpacked,
}

/// An initializer.
#[derive(Debug, Clone)]
pub struct Tensor {
    pub name: String,
    pub dims: Vec<i64>,
    pub data_type: i32,
    pub values: Vec<f32>,
    pub encoding: Encoding,
}

impl Tensor {
    pub fn new(name: &str, dims: &[i64], values: Vec<f32>) -> Tensor {
        Tensor {
            name: name.to_owned(),
            dims: dims.to_vec(),
            data_type: 1,
            values,
            encoding: Encoding::Raw,
        }
    }
}

/// What the evaluation network reads of an ONNX model.
#[derive(Debug, Clone, Default)]
pub struct Model {
    pub metadata: Vec<(String, String)>,
    pub initializers: Vec<Tensor>,
}

impl Model {
    pub fn read(path: &std::path::Path) -> Model {
        Model::decode(&std::fs::read(path).unwrap())
    }

    /// Sets (or adds) a metadata entry.
    pub fn set_metadata(&mut self, key: &str, value: &str) -> &mut Model {
        self.remove_metadata(key);
        self.metadata.push((key.to_owned(), value.to_owned()));
        self
    }

    pub fn remove_metadata(&mut self, key: &str) -> &mut Model {
        self.metadata.retain(|(k, _)| k != key);
        self
    }

    pub fn tensor(&mut self, name: &str) -> &mut Tensor {
        self.initializers
            .iter_mut()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("no initializer {name}"))
    }

    pub fn get(&self, name: &str) -> &Tensor {
        self.initializers.iter().find(|t| t.name == name).unwrap()
    }

    pub fn decode(bytes: &[u8]) -> Model {
        let mut model = Model::default();
        for (number, value) in fields(bytes) {
            match (number, value) {
                (7, Value::Bytes(graph)) => {
                    for (number, value) in fields(graph) {
                        if let (5, Value::Bytes(t)) = (number, value) {
                            model.initializers.push(decode_tensor(t));
                        }
                    }
                }
                (14, Value::Bytes(entry)) => {
                    let (mut k, mut v) = (String::new(), String::new());
                    for (number, value) in fields(entry) {
                        match (number, value) {
                            (1, Value::Bytes(s)) => k = String::from_utf8(s.to_vec()).unwrap(),
                            (2, Value::Bytes(s)) => v = String::from_utf8(s.to_vec()).unwrap(),
                            _ => {}
                        }
                    }
                    model.metadata.push((k, v));
                }
                _ => {}
            }
        }
        model
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut graph = Vec::new();
        bytes_field(2, b"evalnet", &mut graph);
        for t in &self.initializers {
            bytes_field(5, &encode_tensor(t), &mut graph);
        }
        let mut out = Vec::new();
        tag(1, 0, &mut out);
        varint(8, &mut out);
        bytes_field(7, &graph, &mut out);
        for (k, v) in &self.metadata {
            let mut entry = Vec::new();
            bytes_field(1, k.as_bytes(), &mut entry);
            bytes_field(2, v.as_bytes(), &mut entry);
            bytes_field(14, &entry, &mut out);
        }
        out
    }
}

enum Value<'a> {
    Varint(u64),
    Fixed32(u32),
    Bytes(&'a [u8]),
}

fn read_varint(buf: &[u8], pos: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = buf[*pos];
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return v;
        }
        shift += 7;
    }
}

/// The fields of a message (wire types 0, 1, 2, 5; fixed64 values are dropped).
fn fields(buf: &[u8]) -> Vec<(u64, Value<'_>)> {
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < buf.len() {
        let key = read_varint(buf, &mut pos);
        let value = match key & 7 {
            0 => Value::Varint(read_varint(buf, &mut pos)),
            1 => {
                pos += 8;
                continue;
            }
            2 => {
                let len = read_varint(buf, &mut pos) as usize;
                pos += len;
                Value::Bytes(&buf[pos - len..pos])
            }
            5 => {
                pos += 4;
                Value::Fixed32(u32::from_le_bytes(buf[pos - 4..pos].try_into().unwrap()))
            }
            w => panic!("wire type {w} in a fixture"),
        };
        out.push((key >> 3, value));
    }
    out
}

fn decode_tensor(buf: &[u8]) -> Tensor {
    let mut t = Tensor::new("", &[], Vec::new());
    t.data_type = 0;
    for (number, value) in fields(buf) {
        match (number, value) {
            (1, Value::Varint(d)) => t.dims.push(d as i64),
            (1, Value::Bytes(run)) => {
                let mut pos = 0;
                while pos < run.len() {
                    t.dims.push(read_varint(run, &mut pos) as i64);
                }
            }
            (2, Value::Varint(d)) => t.data_type = d as i32,
            (4, Value::Fixed32(v)) => t.values.push(f32::from_bits(v)),
            (4 | 9, Value::Bytes(run)) => t.values.extend(
                run.chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap())),
            ),
            (8, Value::Bytes(s)) => t.name = String::from_utf8(s.to_vec()).unwrap(),
            _ => {}
        }
    }
    // Only the float tensors' values are meaningful here.
    if t.data_type != 1 {
        t.values.clear();
    }
    t
}

fn encode_tensor(t: &Tensor) -> Vec<u8> {
    let mut out = Vec::new();
    // Dims unpacked (as onnx writes them), data type, then the data and the name.
    for &d in &t.dims {
        tag(1, 0, &mut out);
        varint(d as u64, &mut out);
    }
    tag(2, 0, &mut out);
    varint(t.data_type as u64, &mut out);
    let le: Vec<u8> = t.values.iter().flat_map(|v| v.to_le_bytes()).collect();
    match t.encoding {
        Encoding::Raw => {}
        Encoding::Packed => bytes_field(4, &le, &mut out),
        Encoding::Unpacked => {
            for v in &t.values {
                tag(4, 5, &mut out);
                out.extend(v.to_le_bytes());
            }
        }
    }
    bytes_field(8, t.name.as_bytes(), &mut out);
    if t.encoding == Encoding::Raw {
        bytes_field(9, &le, &mut out);
    }
    out
}

pub fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub fn tag(number: u64, wire: u64, out: &mut Vec<u8>) {
    varint(number << 3 | wire, out);
}

pub fn bytes_field(number: u64, data: &[u8], out: &mut Vec<u8>) {
    tag(number, 2, out);
    varint(data.len() as u64, out);
    out.extend_from_slice(data);
}

/// Seeded weights for a network of any width, large enough that both clips bite.
pub fn random_model(variant: Variant, h: usize, l: usize, seed: u64) -> Model {
    let side = variant.geometry().side();
    let f = 4 * side * side;
    let mut rng = Lcg(seed);
    let mut values = |n: usize, scale: f32| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0 * scale)
            .collect()
    };
    let mut model = Model {
        metadata: Vec::new(),
        initializers: vec![
            Tensor::new("ft.weight", &[f as i64, h as i64], values(f * h, 0.25)),
            Tensor::new("ft.bias", &[h as i64], values(h, 0.5)),
            Tensor::new(
                "l1.weight",
                &[2 * h as i64, l as i64],
                values(2 * h * l, 0.5),
            ),
            Tensor::new("l1.bias", &[l as i64], values(l, 0.5)),
            Tensor::new("out.weight", &[l as i64, 1], values(l, 1.0)),
            Tensor::new("out.bias", &[1], values(1, 0.5)),
        ],
    };
    model
        .set_metadata("checkerbot.kind", "evaluation")
        .set_metadata("checkerbot.eval_version", "1")
        .set_metadata("checkerbot.variant", variant.name());
    model
}
