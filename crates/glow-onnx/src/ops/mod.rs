//! ONNX op converters, one module per op family, and the table that maps op types to
//! them. Each converter computes its outputs' static types, folds compile-time
//! constants, and otherwise appends `glow.graph` ops through the typed builders.

mod activations;
mod attention;
mod bitwise;
mod broadcast;
mod causal_conv;
mod center_crop_pad;
mod compose;
mod control_flow;
mod convolution;
mod dynamic_quantization;
mod einsum;
mod elementwise;
mod fourier;
mod grid_sample;
mod indexing;
mod linear_attention;
mod losses;
mod lp_pool;
mod matmul_nbits;
mod nd_indexing;
mod nn;
mod norms;
mod ort_fusions;
mod ort_session_fusions;
mod quantization;
mod quantized_compute;
mod rearrange;
mod recurrent;
mod reduce;
mod rotary_embedding;
mod shape;
mod signal_windows;
mod volumetric;
mod window;

use crate::{
    builder::{Converted, NodeContext},
    proto::{ModelProto, NodeProto},
};

/// A converter for one op type.
pub(crate) type Convert = for<'c, 'a, 'e> fn(&mut NodeContext<'c, 'a, 'e>) -> Converted<'c, 'a>;

const TABLE: &[(&str, Convert)] = &[
    // elementwise
    ("Abs", elementwise::abs),
    ("Add", elementwise::add),
    ("And", elementwise::and),
    ("BitShift", elementwise::bit_shift),
    ("BitwiseAnd", bitwise::bitwise_and),
    ("BitwiseNot", bitwise::bitwise_not),
    ("BitwiseOr", bitwise::bitwise_or),
    ("BitwiseXor", bitwise::bitwise_xor),
    ("BitCast", elementwise::bit_cast),
    ("CausalConvWithState", causal_conv::causal_conv_with_state),
    ("CenterCropPad", center_crop_pad::center_crop_pad),
    ("If", control_flow::r#if),
    ("LinearAttention", linear_attention::linear_attention),
    ("DFT", fourier::dft),
    ("STFT", fourier::stft),
    ("Cast", elementwise::cast),
    ("CastLike", elementwise::cast_like),
    ("Ceil", elementwise::ceil),
    ("Clip", elementwise::clip),
    ("Div", elementwise::div),
    ("Dropout", elementwise::dropout),
    ("Equal", elementwise::equal),
    ("Erf", elementwise::erf),
    ("Exp", elementwise::exp),
    ("Floor", elementwise::floor),
    ("Gelu", elementwise::gelu),
    ("Greater", elementwise::greater),
    ("GreaterOrEqual", elementwise::greater_or_equal),
    ("HardSigmoid", elementwise::hard_sigmoid),
    ("HardSwish", elementwise::hard_swish),
    ("Identity", elementwise::identity),
    ("IsNaN", elementwise::is_nan),
    ("LeakyRelu", elementwise::leaky_relu),
    ("Less", elementwise::less),
    ("LessOrEqual", elementwise::less_or_equal),
    ("Log", elementwise::log),
    ("Max", elementwise::max),
    ("Min", elementwise::min),
    ("Mod", elementwise::r#mod),
    ("Mul", elementwise::mul),
    ("Neg", elementwise::neg),
    ("Not", elementwise::not),
    ("Or", elementwise::or),
    ("Pow", elementwise::pow),
    ("PRelu", elementwise::prelu),
    ("Reciprocal", elementwise::reciprocal),
    ("Relu", elementwise::relu),
    ("Round", elementwise::round),
    ("Sigmoid", elementwise::sigmoid),
    ("Sqrt", elementwise::sqrt),
    ("Sub", elementwise::sub),
    ("Sum", elementwise::sum),
    ("Tanh", elementwise::tanh),
    ("Where", elementwise::r#where),
    ("Xor", elementwise::xor),
    // elementwise functions composed of other ops, and trigonometry
    ("Acos", activations::acos),
    ("Acosh", activations::acosh),
    ("Asin", activations::asin),
    ("Asinh", activations::asinh),
    ("Atan", activations::atan),
    ("Atanh", activations::atanh),
    ("Celu", activations::celu),
    ("Cos", activations::cos),
    ("Cosh", activations::cosh),
    ("Elu", activations::elu),
    ("IsInf", activations::is_inf),
    ("Mean", activations::mean),
    ("Mish", activations::mish),
    ("Selu", activations::selu),
    ("Shrink", activations::shrink),
    ("Sign", activations::sign),
    ("Sin", activations::sin),
    ("Sinh", activations::sinh),
    ("Softplus", activations::softplus),
    ("Softsign", activations::softsign),
    ("Swish", activations::swish),
    ("Tan", activations::tan),
    ("ThresholdedRelu", activations::thresholded_relu),
    // neural-network layers
    ("AveragePool", nn::average_pool),
    ("BatchNormalization", nn::batch_normalization),
    ("Conv", convolution::conv),
    ("ConvTranspose", convolution::conv_transpose),
    ("Flatten", nn::flatten),
    ("Gemm", nn::gemm),
    ("GlobalAveragePool", nn::global_average_pool),
    ("GlobalMaxPool", nn::global_max_pool),
    ("InstanceNormalization", nn::instance_normalization),
    ("LRN", nn::lrn),
    ("LayerNormalization", nn::layer_normalization),
    ("LogSoftmax", nn::log_softmax),
    ("MatMul", nn::matmul),
    ("MaxPool", nn::max_pool),
    ("Softmax", nn::softmax),
    // quantization (QDQ)
    ("DequantizeLinear", quantization::dequantize_linear),
    (
        "DynamicQuantizeLinear",
        dynamic_quantization::dynamic_quantize_linear,
    ),
    ("QuantizeLinear", quantization::quantize_linear),
    ("QLinearConv", quantized_compute::qlinear_conv),
    ("QLinearMatMul", quantized_compute::qlinear_matmul),
    ("ConvInteger", quantized_compute::conv_integer),
    ("MatMulInteger", quantized_compute::matmul_integer),
    // indexing and resampling
    ("GatherElements", indexing::gather_elements),
    ("Resize", indexing::resize),
    ("Upsample", indexing::upsample),
    ("Scatter", indexing::scatter_elements),
    ("ScatterElements", indexing::scatter_elements),
    ("TopK", indexing::top_k),
    ("GatherND", nd_indexing::gather_nd),
    ("ScatterND", nd_indexing::scatter_nd),
    // reductions
    ("ArgMax", reduce::arg_max),
    ("ArgMin", reduce::arg_min),
    ("ReduceMax", reduce::reduce_max),
    ("ReduceMean", reduce::reduce_mean),
    ("ReduceMin", reduce::reduce_min),
    ("ReduceProd", reduce::reduce_prod),
    ("ReduceSum", reduce::reduce_sum),
    // norms and normalizations composed of reductions
    ("GroupNormalization", norms::group_normalization),
    ("LpNormalization", norms::lp_normalization),
    (
        "MeanVarianceNormalization",
        norms::mean_variance_normalization,
    ),
    ("ReduceL1", norms::reduce_l1),
    ("ReduceL2", norms::reduce_l2),
    ("ReduceLogSum", norms::reduce_log_sum),
    ("ReduceLogSumExp", norms::reduce_log_sum_exp),
    ("ReduceSumSquare", norms::reduce_sum_square),
    ("RMSNormalization", norms::rms_normalization),
    // shapes and data movement
    ("Concat", shape::concat),
    ("Constant", shape::constant),
    ("ConstantOfShape", shape::constant_of_shape),
    ("Expand", shape::expand),
    ("Gather", shape::gather),
    ("Pad", shape::pad),
    ("Range", shape::range),
    ("Reshape", shape::reshape),
    ("Shape", shape::shape),
    ("Size", shape::size),
    ("Slice", shape::slice),
    ("Split", shape::split),
    ("Squeeze", shape::squeeze),
    ("Tile", shape::tile),
    ("Transpose", shape::transpose),
    ("Trilu", shape::trilu),
    ("Unsqueeze", shape::unsqueeze),
    // rearrangements and encodings
    ("CumProd", rearrange::cum_prod),
    ("CumSum", rearrange::cum_sum),
    ("DepthToSpace", rearrange::depth_to_space),
    ("Attention", attention::attention),
    ("Einsum", einsum::einsum),
    (
        "NegativeLogLikelihoodLoss",
        losses::negative_log_likelihood_loss,
    ),
    (
        "SoftmaxCrossEntropyLoss",
        losses::softmax_cross_entropy_loss,
    ),
    ("GRU", recurrent::gru),
    ("GridSample", grid_sample::grid_sample),
    ("AffineGrid", grid_sample::affine_grid),
    ("LSTM", recurrent::lstm),
    ("LpPool", lp_pool::lp_pool),
    ("RNN", recurrent::rnn),
    ("RotaryEmbedding", rotary_embedding::rotary_embedding),
    ("EyeLike", rearrange::eye_like),
    ("Hardmax", rearrange::hardmax),
    ("OneHot", rearrange::one_hot),
    ("SpaceToDepth", rearrange::space_to_depth),
    // signal windows (constants)
    ("BlackmanWindow", signal_windows::blackman_window),
    ("HammingWindow", signal_windows::hamming_window),
    ("HannWindow", signal_windows::hann_window),
];

/// onnxruntime's `com.microsoft` ops the importer converts (its transformer
/// optimizer's fusions and its session optimizer's FusedConv / FusedMatMul; its
/// quantized ops are rewritten when the model is loaded).
const CONTRIB_TABLE: &[(&str, Convert)] = &[
    ("Attention", ort_fusions::attention),
    ("BiasGelu", ort_fusions::bias_gelu),
    (
        "EmbedLayerNormalization",
        ort_fusions::embed_layer_normalization,
    ),
    ("FastGelu", ort_fusions::fast_gelu),
    ("FusedConv", ort_session_fusions::fused_conv),
    ("FusedMatMul", ort_session_fusions::fused_matmul),
    ("MatMulNBits", matmul_nbits::matmul_nbits),
    ("Gelu", ort_fusions::gelu),
    ("QuickGelu", ort_fusions::quick_gelu),
    (
        "SimplifiedLayerNormalization",
        ort_fusions::simplified_layer_normalization,
    ),
    (
        "SkipLayerNormalization",
        ort_fusions::skip_layer_normalization,
    ),
    (
        "SkipSimplifiedLayerNormalization",
        ort_fusions::skip_simplified_layer_normalization,
    ),
];

/// onnxruntime's ops that it registers in the default domain although ONNX does not
/// define them (its transformer optimizer writes them there).
const ORT_DEFAULT_DOMAIN: &[&str] = &["SimplifiedLayerNormalization"];

/// The converter of a node's op type (default domain, or `com.microsoft`).
pub(crate) fn converter(node: &NodeProto) -> Option<Convert> {
    let table = match node.domain() {
        "" | "ai.onnx" if ORT_DEFAULT_DOMAIN.contains(&node.op_type()) => CONTRIB_TABLE,
        "" | "ai.onnx" => TABLE,
        "com.microsoft" => CONTRIB_TABLE,
        _ => return None,
    };
    table
        .iter()
        .find(|(name, _)| *name == node.op_type())
        .map(|(_, convert)| *convert)
}

/// Every supported ONNX op type, sorted: the default domain's (with onnxruntime's
/// SimplifiedLayerNormalization, which it puts there), then onnxruntime's
/// `com.microsoft` ops (quantized ones rewritten into QDQ form when the model is
/// loaded, transformer fusions converted).
pub fn supported_ops() -> Vec<String> {
    let mut names: Vec<String> = TABLE.iter().map(|(name, _)| name.to_string()).collect();
    names.extend(ORT_DEFAULT_DOMAIN.iter().map(|name| name.to_string()));
    names.sort_unstable();
    let mut contrib: Vec<&str> = crate::qoperator::CONTRIB_OPS.to_vec();
    contrib.extend(crate::qoperator::TRANSFORMER_OPS);
    contrib.extend(crate::qoperator::INTEGER_MATMUL_OPS);
    contrib.extend(CONTRIB_TABLE.iter().map(|(name, _)| *name));
    contrib.sort_unstable();
    names.extend(contrib.iter().map(|op| format!("com.microsoft.{op}")));
    names
}

/// Whether the importer converts `node`.
pub fn is_supported(node: &NodeProto) -> bool {
    converter(node).is_some()
}

/// `(op type, node name)` of every node of the main graph the importer cannot
/// convert, in graph order (op types of other domains are qualified); with
/// `inside_branches`, those of If branches too (`--list-unsupported`).
pub fn unsupported_nodes(model: &ModelProto, inside_branches: bool) -> Vec<(String, String)> {
    let Some(graph) = model.graph.as_ref() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    collect_unsupported(graph, inside_branches, &mut found);
    found
}

/// The unsupported nodes of `graph` and, when `inside_branches`, of the branches of its
/// If nodes, in graph order. The importer itself checks only the branch an If takes,
/// when it converts it.
fn collect_unsupported(
    graph: &crate::proto::GraphProto,
    inside_branches: bool,
    found: &mut Vec<(String, String)>,
) {
    for node in &graph.node {
        if !is_supported(node) {
            let op = if node.domain().is_empty() {
                node.op_type().to_string()
            } else {
                format!("{}.{}", node.domain(), node.op_type())
            };
            found.push((op, crate::import::node_label(node)));
        } else if inside_branches && node.op_type() == "If" {
            for branch in node.attribute.iter().filter_map(|a| a.g.as_ref()) {
                collect_unsupported(branch, true, found);
            }
        }
    }
}
