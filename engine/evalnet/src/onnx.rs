//! The parts of an ONNX `ModelProto` the evaluation network needs: its metadata and its
//! initializers. Everything else (the graph's nodes, inputs, outputs, opsets, doc strings) is
//! skipped: the graph's computation is fixed by `training/evalnet.py` and done in Rust.

use crate::proto::{Bytes, ProtoError, Reader, le_floats};

// ModelProto.
const MODEL_GRAPH: u32 = 7;
const MODEL_METADATA: u32 = 14;
// StringStringEntryProto.
const ENTRY_KEY: u32 = 1;
const ENTRY_VALUE: u32 = 2;
// GraphProto.
const GRAPH_INITIALIZER: u32 = 5;
// TensorProto.
const TENSOR_DIMS: u32 = 1;
const TENSOR_DATA_TYPE: u32 = 2;
const TENSOR_FLOAT_DATA: u32 = 4;
const TENSOR_NAME: u32 = 8;
const TENSOR_RAW_DATA: u32 = 9;

/// `TensorProto.DataType.FLOAT`.
pub(crate) const FLOAT: i32 = 1;

/// What was read of a model.
#[derive(Debug, Default)]
pub(crate) struct Model<'a> {
    /// `metadata_props` in file order.
    pub metadata: Vec<(&'a str, &'a str)>,
    /// The graph's initializers in file order.
    pub initializers: Vec<Initializer<'a>>,
}

impl<'a> Model<'a> {
    /// The value of a metadata key (the last one, should it be repeated).
    pub fn metadata(&self, key: &str) -> Option<&'a str> {
        self.metadata
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// The initializer of this name (the last one, should it be repeated).
    pub fn initializer(&self, name: &str) -> Option<&Initializer<'a>> {
        self.initializers.iter().rev().find(|t| t.name == name)
    }
}

/// One initializer tensor, its data not yet decoded unless it came as `float_data`.
#[derive(Debug, Default)]
pub(crate) struct Initializer<'a> {
    pub name: &'a str,
    pub dims: Vec<i64>,
    /// `TensorProto.DataType` (0 when absent: undefined).
    pub data_type: i32,
    /// `raw_data`, little-endian.
    pub raw: Option<Bytes<'a>>,
    /// `float_data`.
    pub floats: Vec<f32>,
}

impl Initializer<'_> {
    /// The values as `f32`, from `raw_data` if present, else from `float_data`.
    pub fn values(&self) -> Result<Vec<f32>, ProtoError> {
        match self.raw {
            Some(raw) => Ok(le_floats(raw, "raw data of whole 32-bit floats")?.collect()),
            None => Ok(self.floats.clone()),
        }
    }
}

/// Reads a `ModelProto`.
pub(crate) fn parse(bytes: &[u8]) -> Result<Model<'_>, ProtoError> {
    let mut model = Model::default();
    let mut r = Reader::new(bytes);
    while let Some(field) = r.next_field()? {
        match field.number {
            MODEL_GRAPH => {
                let graph = field.bytes("a graph message")?;
                // Protocol buffers merge a repeated message field; ONNX writes one graph.
                model.initializers.clear();
                parse_graph(graph, &mut model.initializers)?;
            }
            MODEL_METADATA => {
                model
                    .metadata
                    .push(parse_entry(field.bytes("a metadata entry")?)?);
            }
            _ => {}
        }
    }
    Ok(model)
}

fn parse_entry(entry: Bytes<'_>) -> Result<(&str, &str), ProtoError> {
    let (mut key, mut value) = ("", "");
    let mut r = entry.message();
    while let Some(field) = r.next_field()? {
        match field.number {
            ENTRY_KEY => key = field.bytes("a metadata key")?.string()?,
            ENTRY_VALUE => value = field.bytes("a metadata value")?.string()?,
            _ => {}
        }
    }
    Ok((key, value))
}

fn parse_graph<'a>(graph: Bytes<'a>, out: &mut Vec<Initializer<'a>>) -> Result<(), ProtoError> {
    let mut r = graph.message();
    while let Some(field) = r.next_field()? {
        if field.number == GRAPH_INITIALIZER {
            out.push(parse_tensor(field.bytes("an initializer tensor")?)?);
        }
    }
    Ok(())
}

fn parse_tensor(tensor: Bytes<'_>) -> Result<Initializer<'_>, ProtoError> {
    let mut t = Initializer::default();
    let mut dims = Vec::new();
    let mut r = tensor.message();
    while let Some(field) = r.next_field()? {
        match field.number {
            TENSOR_DIMS => field.varints_into(&mut dims, "tensor dimensions")?,
            // An int32 enum: negative values are sign-extended to ten bytes.
            TENSOR_DATA_TYPE => t.data_type = field.varint("a tensor data type")? as i32,
            TENSOR_FLOAT_DATA => field.floats_into(&mut t.floats, "tensor float data")?,
            TENSOR_NAME => t.name = field.bytes("a tensor name")?.string()?,
            TENSOR_RAW_DATA => t.raw = Some(field.bytes("tensor raw data")?),
            _ => {}
        }
    }
    // int64 on the wire: two's complement in a u64.
    t.dims = dims.into_iter().map(|d| d as i64).collect();
    Ok(t)
}
