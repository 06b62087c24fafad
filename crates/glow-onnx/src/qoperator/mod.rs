//! onnxruntime's QOperator format as the QDQ format: a graph rewrite on the decoded
//! model, before import.
//!
//! `quantize_static(..., quant_format=QOperator)` (and the ONNX model zoo's int8
//! models) write onnxruntime's `com.microsoft` integer operators — QLinearAdd,
//! QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearGlobalAveragePool,
//! QLinearAveragePool, QLinearConcat, QLinearSoftmax, QLinearWhere, QGemm — and run standard data-movement ops (MaxPool, Reshape, Transpose, ...)
//! directly on the quantized integers. Each contrib op is defined as "dequantize the
//! operands, compute in float, quantize the result", so it becomes exactly that:
//! `DequantizeLinear` per quantized operand, the standard op, `QuantizeLinear` with the
//! output's parameters. A standard op that consumes a quantized tensor becomes the same
//! triple with the input's parameters (these ops move or compare values, so they keep
//! them). glow-quantization-folding then turns every triple back into integer compute,
//! as for QDQ models; QLinearConv and QLinearMatMul are imported as integer ops
//! directly and need nothing here.

use crate::{
    error::ImportError,
    proto::{attribute_proto::AttributeType, AttributeProto, GraphProto, NodeProto},
};
use std::collections::{HashMap, HashSet};

mod integer_matmuls;
mod transformer;

const CONTRIB_DOMAIN: &str = "com.microsoft";

/// The quantization of a value: its scale and zero-point tensors, by name.
#[derive(Clone)]
struct Parameters {
    scale: String,
    zero_point: String,
}

/// Where a contrib op keeps its operands and its output's parameters.
struct Operands {
    /// `(value, scale, zero point)` input indices of each quantized operand, in the
    /// order the float op takes them.
    quantized: Vec<[usize; 3]>,
    /// Inputs passed to the float op unchanged, at these float-op positions.
    plain: Vec<(usize, usize)>,
    /// `(scale, zero point)` input indices of the output, if it is quantized.
    output: Option<[usize; 2]>,
}

/// The rewrite of one contrib op type: its float op and operand layout.
fn contrib_layout(node: &NodeProto) -> Option<(&'static str, Operands)> {
    let unary = |float_op| {
        Some((
            float_op,
            Operands {
                quantized: vec![[0, 1, 2]],
                plain: vec![],
                output: Some([3, 4]),
            },
        ))
    };
    let binary = |float_op| {
        Some((
            float_op,
            Operands {
                quantized: vec![[0, 1, 2], [3, 4, 5]],
                plain: vec![],
                output: Some([6, 7]),
            },
        ))
    };
    match node.op_type() {
        "QLinearAdd" => binary("Add"),
        "QLinearMul" => binary("Mul"),
        "QLinearSigmoid" => unary("Sigmoid"),
        "QLinearLeakyRelu" => unary("LeakyRelu"),
        "QLinearGlobalAveragePool" => unary("GlobalAveragePool"),
        "QLinearAveragePool" => unary("AveragePool"),
        "QLinearSoftmax" => unary("Softmax"),
        "QLinearConcat" => {
            let count = node.input.len().saturating_sub(2) / 3;
            Some((
                "Concat",
                Operands {
                    quantized: (0..count)
                        .map(|k| [2 + 3 * k, 3 + 3 * k, 4 + 3 * k])
                        .collect(),
                    plain: vec![],
                    output: Some([0, 1]),
                },
            ))
        }
        "QLinearWhere" => Some((
            "Where",
            Operands {
                quantized: vec![[1, 2, 3], [4, 5, 6]],
                plain: vec![(0, 0)],
                output: Some([7, 8]),
            },
        )),
        "QGemm" => Some((
            "Gemm",
            Operands {
                quantized: vec![[0, 1, 2], [3, 4, 5]],
                plain: vec![],
                output: (node.input.len() > 7 && !node.input[7].is_empty()).then_some([7, 8]),
            },
        )),
        _ => None,
    }
}

/// The contrib op types this module rewrites (for the importer's supported-op list).
pub const CONTRIB_OPS: &[&str] = &[
    "QGemm",
    "QLinearAdd",
    "QLinearAveragePool",
    "QLinearConcat",
    "QLinearGlobalAveragePool",
    "QLinearLeakyRelu",
    "QLinearMul",
    "QLinearSigmoid",
    "QLinearSoftmax",
    "QLinearWhere",
];

/// The quantized transformer fusions rewritten onto their float twins
/// ([`transformer`]).
pub const TRANSFORMER_OPS: &[&str] = transformer::OPS;

/// onnxruntime's integer matmuls with float results ([`integer_matmuls`]).
pub const INTEGER_MATMUL_OPS: &[&str] = integer_matmuls::OPS;

/// Whether `node` is a contrib op this module rewrites.
pub fn is_rewritten(node: &NodeProto) -> bool {
    node.domain() == CONTRIB_DOMAIN
        && [CONTRIB_OPS, TRANSFORMER_OPS, INTEGER_MATMUL_OPS]
            .iter()
            .any(|ops| ops.contains(&node.op_type()))
}

/// A standard op that runs on quantized integers in QOperator graphs and keeps its
/// input's quantization: `(op, data inputs, quantized outputs)`; `None` outputs: all.
type DirectOp = (&'static str, &'static [usize], Option<&'static [usize]>);

/// The standard ops QOperator graphs run on quantized integers.
const DIRECT_OPS: &[DirectOp] = &[
    ("DepthToSpace", &[0], None),
    ("Expand", &[0], None),
    ("Flatten", &[0], None),
    ("Gather", &[0], None),
    ("GlobalMaxPool", &[0], None),
    ("Identity", &[0], None),
    ("MaxPool", &[0], Some(&[0])),
    ("Pad", &[0], None),
    ("ReduceMax", &[0], None),
    ("ReduceMin", &[0], None),
    ("Reshape", &[0], None),
    ("Resize", &[0], None),
    ("Slice", &[0], None),
    ("SpaceToDepth", &[0], None),
    ("Split", &[0], None),
    ("Squeeze", &[0], None),
    ("Tile", &[0], None),
    ("Transpose", &[0], None),
    ("Unsqueeze", &[0], None),
    ("ArgMax", &[0], Some(&[])),
    ("ArgMin", &[0], Some(&[])),
];

/// Fresh value names that collide with nothing in the graph.
struct Names(HashSet<String>);

impl Names {
    fn of(graph: &GraphProto) -> Self {
        let mut names = HashSet::new();
        for node in &graph.node {
            names.extend(node.input.iter().cloned());
            names.extend(node.output.iter().cloned());
        }
        names.extend(graph.initializer.iter().map(|t| t.name().to_string()));
        names.extend(graph.input.iter().map(|i| i.name().to_string()));
        names.extend(graph.output.iter().map(|o| o.name().to_string()));
        Self(names)
    }

    fn fresh(&mut self, base: &str) -> String {
        let mut candidate = base.to_string();
        let mut n = 1;
        while self.0.contains(&candidate) {
            n += 1;
            candidate = format!("{base}#{n}");
        }
        self.0.insert(candidate.clone());
        candidate
    }
}

fn new_node(op: &str, name: String, inputs: Vec<String>, outputs: Vec<String>) -> NodeProto {
    NodeProto {
        op_type: Some(op.into()),
        name: Some(name),
        input: inputs,
        output: outputs,
        ..Default::default()
    }
}

fn int_attribute(name: &str, value: i64) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(AttributeType::Int as i32),
        i: Some(value),
        ..Default::default()
    }
}

fn float_attribute(name: &str, value: f32) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(AttributeType::Float as i32),
        f: Some(value),
        ..Default::default()
    }
}

fn attribute<'n>(node: &'n NodeProto, name: &str) -> Option<&'n AttributeProto> {
    node.attribute.iter().find(|a| a.name() == name)
}

/// What the rewrite builds: the new nodes, the quantization of the values they define.
struct Rewriter {
    names: Names,
    quantized: HashMap<String, Parameters>,
    nodes: Vec<NodeProto>,
    opset: i64,
    /// The name of the node being rewritten, which its replacements carry.
    label: String,
}

impl Rewriter {
    /// `DequantizeLinear(value, scale, zero point)` into a fresh float value.
    fn dequantize(&mut self, value: &str, parameters: &Parameters, axis: Option<i64>) -> String {
        let float = self.names.fresh(&format!("{value}/dequantized"));
        let mut dq = new_node(
            "DequantizeLinear",
            format!("{}/dequantize", self.label),
            vec![
                value.into(),
                parameters.scale.clone(),
                parameters.zero_point.clone(),
            ],
            vec![float.clone()],
        );
        if let Some(axis) = axis {
            dq.attribute.push(int_attribute("axis", axis));
        }
        self.nodes.push(dq);
        float
    }

    /// `QuantizeLinear(float, scale, zero point)` into `output`, recorded as quantized.
    fn quantize(&mut self, float: String, output: &str, parameters: Parameters) {
        self.nodes.push(new_node(
            "QuantizeLinear",
            format!("{}/quantize", self.label),
            vec![
                float,
                parameters.scale.clone(),
                parameters.zero_point.clone(),
            ],
            vec![output.into()],
        ));
        self.quantized.insert(output.into(), parameters);
    }
}

fn input(node: &NodeProto, index: usize) -> String {
    node.input.get(index).cloned().unwrap_or_default()
}

/// The float op of contrib op `node`, on the dequantized operands `operands`.
fn float_op(
    node: &NodeProto,
    float_type: &str,
    operands: Vec<String>,
    output: String,
    rewriter: &mut Rewriter,
) -> Result<(), String> {
    let label = rewriter.label.clone();
    let mut op = new_node(float_type, label.clone(), operands, vec![output.clone()]);
    let copied = |excluded: &[&str]| -> Vec<AttributeProto> {
        node.attribute
            .iter()
            .filter(|a| !excluded.contains(&a.name()))
            .cloned()
            .collect()
    };
    match node.op_type() {
        "QLinearGlobalAveragePool" | "QLinearAveragePool" => {
            op.attribute = copied(&["channels_last"]);
            let channels_last = attribute(node, "channels_last").map_or(0, |a| a.i());
            if channels_last != 0 {
                // NHWC in and out: transposes around the NCHW pool.
                let nchw = rewriter.names.fresh(&format!("{output}/nchw"));
                let pooled = rewriter.names.fresh(&format!("{output}/pooled"));
                let mut to_nchw = new_node(
                    "Transpose",
                    format!("{label}/to_nchw"),
                    vec![op.input[0].clone()],
                    vec![nchw.clone()],
                );
                to_nchw
                    .attribute
                    .push(ints_attribute("perm", &[0, 3, 1, 2]));
                rewriter.nodes.push(to_nchw);
                op.input[0] = nchw;
                op.output[0] = pooled.clone();
                rewriter.nodes.push(op);
                let mut to_nhwc = new_node(
                    "Transpose",
                    format!("{label}/to_nhwc"),
                    vec![pooled],
                    vec![output],
                );
                to_nhwc
                    .attribute
                    .push(ints_attribute("perm", &[0, 2, 3, 1]));
                rewriter.nodes.push(to_nhwc);
                return Ok(());
            }
        }
        "QLinearSoftmax" => {
            // `opset` is the original Softmax's: before 13 it flattened the input at
            // `axis` (default 1) into rows; from 13 on it works along `axis` (default -1).
            let softmax_opset = attribute(node, "opset").map_or(rewriter.opset, |a| a.i());
            let legacy = softmax_opset < 13;
            let axis = attribute(node, "axis").map_or(if legacy { 1 } else { -1 }, |a| a.i());
            if legacy == (rewriter.opset < 13) {
                op.attribute = vec![int_attribute("axis", axis)];
            } else if legacy {
                // Rows of the flattened input, then the input's shape back.
                let rows = rewriter.names.fresh(&format!("{output}/rows"));
                let shape = rewriter.names.fresh(&format!("{output}/shape"));
                let normalized = rewriter.names.fresh(&format!("{output}/normalized"));
                let mut flatten = new_node(
                    "Flatten",
                    format!("{label}/flatten"),
                    vec![op.input[0].clone()],
                    vec![rows.clone()],
                );
                flatten.attribute.push(int_attribute("axis", axis));
                rewriter.nodes.push(new_node(
                    "Shape",
                    format!("{label}/shape"),
                    vec![op.input[0].clone()],
                    vec![shape.clone()],
                ));
                rewriter.nodes.push(flatten);
                op.input[0] = rows;
                op.output[0] = normalized.clone();
                op.attribute = vec![int_attribute("axis", -1)];
                rewriter.nodes.push(op);
                rewriter.nodes.push(new_node(
                    "Reshape",
                    format!("{label}/unflatten"),
                    vec![normalized, shape],
                    vec![output],
                ));
                return Ok(());
            } else {
                return Err(format!(
                    "a Softmax of opset {softmax_opset} in a model of opset {} is not supported",
                    rewriter.opset
                ));
            }
        }
        "QGemm" => {
            // Y = alpha * a_scale * b_scale * ((A' - a_zp)(B' - b_zp) + C), C in int32
            // units of a_scale * b_scale: Gemm(A, B, C) with beta = alpha.
            let alpha = attribute(node, "alpha").map_or(1.0, |a| a.f());
            op.attribute = copied(&["alpha"]);
            op.attribute.push(float_attribute("alpha", alpha));
            op.attribute.push(float_attribute("beta", alpha));
        }
        _ => op.attribute = copied(&[]),
    }
    rewriter.nodes.push(op);
    Ok(())
}

fn ints_attribute(name: &str, values: &[i64]) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(AttributeType::Ints as i32),
        ints: values.to_vec(),
        ..Default::default()
    }
}

/// Rewrites contrib op `node` (see the module documentation).
fn rewrite_contrib(node: &NodeProto, rewriter: &mut Rewriter) -> Result<(), String> {
    let (float_type, layout) = contrib_layout(node).expect("only rewritten ops come here");
    let needed = layout
        .quantized
        .iter()
        .flat_map(|operand| operand[..2].iter())
        .chain(layout.output.iter().map(|o| &o[0]))
        .chain(layout.plain.iter().map(|(from, _)| from))
        .copied()
        .max()
        .unwrap_or(0);
    if node.input.len() <= needed || layout.quantized.is_empty() {
        return Err(format!(
            "{} inputs; this op needs at least {}",
            node.input.len(),
            needed + 1
        ));
    }
    if node.output.len() != 1 {
        return Err(format!("{} outputs; this op has one", node.output.len()));
    }
    let mut operands = vec![String::new(); layout.quantized.len() + layout.plain.len()];
    let mut next = 0;
    for (k, &[value, scale, zero_point]) in layout.quantized.iter().enumerate() {
        while layout.plain.iter().any(|(_, at)| *at == next) {
            next += 1;
        }
        let parameters = Parameters {
            scale: input(node, scale),
            zero_point: input(node, zero_point),
        };
        // QGemm's B may be quantized per output column: along N, its axis in B'.
        let axis = (node.op_type() == "QGemm" && k == 1).then(|| {
            let transposed = attribute(node, "transB").is_some_and(|a| a.i() != 0);
            if transposed {
                0
            } else {
                1
            }
        });
        operands[next] = rewriter.dequantize(&input(node, value), &parameters, axis);
        next += 1;
    }
    for &(from, at) in &layout.plain {
        operands[at] = input(node, from);
    }
    if node.op_type() == "QGemm" && node.input.len() > 6 && !node.input[6].is_empty() {
        // The int32 bias, in units of a_scale * b_scale.
        let label = rewriter.label.clone();
        let bias_scale = rewriter
            .names
            .fresh(&format!("{}/bias_scale", node.input[6]));
        rewriter.nodes.push(new_node(
            "Mul",
            format!("{label}/bias_scale"),
            vec![input(node, 1), input(node, 4)],
            vec![bias_scale.clone()],
        ));
        let bias = Parameters {
            scale: bias_scale,
            zero_point: String::new(),
        };
        let float_bias = rewriter.dequantize(&input(node, 6), &bias, Some(0));
        operands.push(float_bias);
    }
    let output = node.output[0].clone();
    match layout.output {
        Some([scale, zero_point]) => {
            let float = rewriter.names.fresh(&format!("{output}/float"));
            float_op(node, float_type, operands, float.clone(), rewriter)?;
            let parameters = Parameters {
                scale: input(node, scale),
                zero_point: input(node, zero_point),
            };
            rewriter.quantize(float, &output, parameters);
        }
        None => float_op(node, float_type, operands, output, rewriter)?,
    }
    Ok(())
}

/// Rewrites a standard op that reads quantized integers (see [`DIRECT_OPS`]); returns
/// false when it reads none.
fn rewrite_direct(node: &NodeProto, rewriter: &mut Rewriter) -> bool {
    let Some((_, data_inputs, outputs)) = DIRECT_OPS
        .iter()
        .find(|(op, _, _)| node.domain().is_empty() && *op == node.op_type())
    else {
        return false;
    };
    let Some(parameters) = data_inputs
        .iter()
        .find_map(|i| node.input.get(*i).and_then(|v| rewriter.quantized.get(v)))
        .cloned()
    else {
        return false;
    };
    let mut float = node.clone();
    for &i in *data_inputs {
        float.input[i] = rewriter.dequantize(&node.input[i], &parameters, None);
    }
    if node.op_type() == "Pad" && node.input.len() > 2 && !node.input[2].is_empty() {
        // The pad value is in the quantized units too.
        float.input[2] = rewriter.dequantize(&node.input[2], &parameters, None);
    }
    let quantized_outputs: Vec<usize> = match outputs {
        Some(list) => list.to_vec(),
        None => (0..node.output.len()).collect(),
    };
    let mut pending = Vec::new();
    for &k in &quantized_outputs {
        let Some(output) = node.output.get(k).filter(|o| !o.is_empty()) else {
            continue;
        };
        let fresh = rewriter.names.fresh(&format!("{output}/float"));
        float.output[k] = fresh.clone();
        pending.push((fresh, output.clone()));
    }
    rewriter.nodes.push(float);
    for (fresh, output) in pending {
        rewriter.quantize(fresh, &output, parameters.clone());
    }
    true
}

/// Rewrites the QOperator ops of `graph` into QDQ form (see the module documentation).
pub fn rewrite_qoperator_graph(graph: &mut GraphProto, opset: i64) -> Result<(), ImportError> {
    let uses_qoperator = graph
        .node
        .iter()
        .any(|n| is_rewritten(n) || matches!(n.op_type(), "QLinearConv" | "QLinearMatMul"));
    if !uses_qoperator {
        return Ok(());
    }
    let original = std::mem::take(&mut graph.node);
    let mut rewriter = Rewriter {
        names: Names::of(graph),
        quantized: HashMap::new(),
        nodes: Vec::with_capacity(original.len()),
        opset,
        label: String::new(),
    };
    for node in original {
        rewriter.label = crate::import::node_label(&node);
        if is_rewritten(&node) {
            let rewritten = if TRANSFORMER_OPS.contains(&node.op_type()) {
                transformer::rewrite(&node, &mut rewriter)
            } else if INTEGER_MATMUL_OPS.contains(&node.op_type()) {
                integer_matmuls::rewrite(&node, &mut rewriter)
            } else {
                rewrite_contrib(&node, &mut rewriter)
            };
            rewritten.map_err(|reason| ImportError::Node {
                node: rewriter.label.clone(),
                op_type: format!("{CONTRIB_DOMAIN}.{}", node.op_type()),
                reason,
            })?;
            continue;
        }
        if rewrite_direct(&node, &mut rewriter) {
            continue;
        }
        // Producers of quantized integers that the importer takes as they are.
        let produced = match node.op_type() {
            "QLinearConv" | "QLinearMatMul" if node.input.len() > 7 => Some((6, 7)),
            "QuantizeLinear" if node.input.len() > 1 && attribute(&node, "axis").is_none() => {
                Some((1, 2))
            }
            _ => None,
        };
        if let (Some((scale, zero_point)), Some(output)) = (produced, node.output.first()) {
            let parameters = Parameters {
                scale: input(&node, scale),
                zero_point: input(&node, zero_point),
            };
            rewriter.quantized.insert(output.clone(), parameters);
        }
        rewriter.nodes.push(node);
    }
    let nodes = rewriter.nodes;
    graph.node = nodes;
    Ok(())
}
