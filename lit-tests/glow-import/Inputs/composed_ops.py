"""ONNX models for the ops glow-import composes from other glow.graph ops (activations,
norms, trigonometry, rearrangements, Einsum, GatherND / ScatterND, CumSum), in the
patterns exporters write them.

Usage: composed_ops.py KIND OUTPUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def node(op, inputs, outputs, **attributes):
    return helper.make_node(op, inputs, outputs, name=outputs[0], **attributes)


def save(nodes, inputs, outputs, initializers, path, opset=21):
    graph = helper.make_graph(nodes, "composed", inputs, outputs, initializers)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)
    onnx.save(m, path)


def functions(path):
    """One output per composed elementwise function, norm and rearrangement of x."""
    unary = [("Elu", {"alpha": 0.7}), ("Selu", {}), ("Celu", {"alpha": 1.5}), ("Softplus", {}),
             ("Softsign", {}), ("Mish", {}), ("ThresholdedRelu", {"alpha": 0.3}),
             ("Shrink", {"lambd": 0.4, "bias": 0.1}), ("Sign", {}), ("Sin", {}), ("Cos", {}),
             ("Atan", {}), ("Sinh", {}), ("Asinh", {}), ("Tan", {}),
             ("Hardmax", {"axis": 1}), ("LpNormalization", {"axis": 1, "p": 2}),
             ("MeanVarianceNormalization", {}), ("DepthToSpace", {"blocksize": 2, "mode": "CRD"}),
             ("SpaceToDepth", {"blocksize": 2})]
    nodes, outputs = [], []
    for op, attributes in unary:
        name = op.lower()
        nodes.append(node(op, ["x"], [name], **attributes))
        outputs.append(value(name, F, None))
    axes = const("axes", np.array([2, 3], np.int64))
    for op in ("ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp"):
        nodes.append(node(op, ["x", "axes"], [op.lower()], keepdims=0))
        outputs.append(value(op.lower(), F, None))
    nodes.append(node("Abs", ["x"], ["magnitude"]))
    nodes.append(node("ReduceLogSum", ["magnitude", "axes"], ["reducelogsum"]))
    outputs.append(value("reducelogsum", F, None))
    nodes.append(node("GroupNormalization", ["x", "gamma", "beta"], ["groupnorm"], num_groups=2))
    outputs.append(value("groupnorm", F, None))
    nodes.append(node("Mean", ["x", "x2"], ["mean"]))
    outputs.append(value("mean", F, None))
    nodes.append(node("Einsum", ["x", "x2"], ["einsum"], equation="bchw,bkhw->bck"))
    outputs.append(value("einsum", F, None))
    rng = np.random.default_rng(3)
    initializers = [axes, const("gamma", rng.standard_normal(4).astype(np.float32)),
                    const("beta", rng.standard_normal(4).astype(np.float32))]
    save(nodes, [value("x", F, [2, 4, 4, 6]), value("x2", F, [2, 4, 4, 6])], outputs,
         initializers, path)


def attention_einsum(path):
    """Attention written with Einsum, as some Hugging Face models export it."""
    nodes = [node("Einsum", ["q", "k"], ["scores"], equation="bhqd,bhkd->bhqk"),
             node("Softmax", ["scores"], ["probabilities"], axis=-1),
             node("Einsum", ["probabilities", "v"], ["context"], equation="bhqk,bhkd->bqhd"),
             node("Einsum", ["context", "w"], ["projected"], equation="...hd,hdo->...o"),
             node("Einsum", ["projected"], ["summed"], equation="bqo")]
    w = np.random.default_rng(4).standard_normal((2, 8, 16)).astype(np.float32)
    save(nodes, [value(n, F, [2, 2, 5, 8]) for n in "qkv"],
         [value("projected", F, None), value("summed", F, None)], [const("w", w)], path)


def nd_indexing(path):
    """GatherND (batch_dims 0 and 1) and ScatterND (none and add) on runtime indices, and
    a ScatterND of constants as Swin's attention mask builds it (folded at import)."""
    nodes = [node("GatherND", ["data", "pairs"], ["gathered"]),
             node("GatherND", ["data", "rows"], ["batched"], batch_dims=1),
             node("ScatterND", ["data", "pairs", "updates"], ["scattered"]),
             node("ScatterND", ["data", "pairs", "updates"], ["accumulated"], reduction="add"),
             node("ConstantOfShape", ["mask_shape"], ["zeros"],
                  value=helper.make_tensor("zero", F, [1], [0.0])),
             node("ScatterND", ["zeros", "mask_index", "mask_values"], ["mask"]),
             node("Add", ["data", "mask"], ["masked"])]
    initializers = [const("mask_shape", np.array([3, 4, 5], np.int64)),
                    const("mask_index", np.array([[[0, 1]], [[2, 3]]], np.int64)),
                    const("mask_values", np.full((2, 1, 5), 100.0, np.float32))]
    save(nodes, [value("data", F, [3, 4, 5]), value("pairs", I64, [2, 2]),
                 value("rows", I64, [3, 2, 1]), value("updates", F, [2, 5])],
         [value(n, F, None) for n in ("gathered", "batched", "scattered", "accumulated", "masked")],
         initializers, path)


def positions(path):
    """RoBERTa's position ids: cumsum of the non-padding mask, times the mask, plus
    the padding index (Hugging Face's create_position_ids_from_input_ids)."""
    nodes = [node("Equal", ["input_ids", "pad"], ["is_pad"]),
             node("Not", ["is_pad"], ["keep"]),
             node("Cast", ["keep"], ["mask"], to=TensorProto.INT64),
             node("CumSum", ["mask", "axis"], ["running"]),
             node("Mul", ["running", "mask"], ["counted"]),
             node("Add", ["counted", "pad"], ["position_ids"]),
             node("CumSum", ["mask", "axis"], ["from_end"], exclusive=1, reverse=1)]
    save(nodes, [value("input_ids", I64, [2, 6])],
         [value("position_ids", I64, None), value("from_end", I64, None)],
         [const("pad", np.array(1, np.int64)), const("axis", np.array(1, np.int64))], path)


def bits(path):
    """Bitwise ops on uint8 and int32, and the signal windows (constants)."""
    U8, I32 = TensorProto.UINT8, TensorProto.INT32
    nodes = [node("BitwiseAnd", ["a", "b"], ["and8"]), node("BitwiseOr", ["a", "b"], ["or8"]),
             node("BitwiseXor", ["i", "j"], ["xor32"]), node("BitwiseNot", ["a"], ["not8"]),
             node("BitwiseNot", ["i"], ["not32"]),
             node("HannWindow", ["size"], ["hann"]),
             node("HammingWindow", ["size"], ["hamming"], periodic=0),
             node("BlackmanWindow", ["size"], ["blackman"])]
    save(nodes, [value("a", U8, [2, 8]), value("b", U8, [2, 8]), value("i", I32, [5]),
                 value("j", I32, [5])],
         [value(n, U8, None) for n in ("and8", "or8", "not8")]
         + [value(n, I32, None) for n in ("xor32", "not32")]
         + [value(n, F, None) for n in ("hann", "hamming", "blackman")],
         [const("size", np.array(10, np.int64))], path)


def bad(path, which):
    """Models the composed converters refuse with a one-line error."""
    if which == "einsum-label":
        nodes = [node("Einsum", ["a", "b"], ["y"], equation="ij,j1->i")]
    elif which == "einsum-diagonal":
        nodes = [node("Einsum", ["a", "b"], ["y"], equation="ii,ij->j")]
    elif which == "einsum-operands":
        nodes = [node("Einsum", ["a", "b"], ["y"], equation="ij->i")]
    elif which == "gather-nd-batch":
        nodes = [node("GatherND", ["a", "i"], ["y"], batch_dims=1)]
    else:
        nodes = [node("DepthToSpace", ["img"], ["y"], blocksize=3)]
    save(nodes, [value("a", F, [3, 3]), value("b", F, [3, 3]), value("i", I64, [2, 1]),
                 value("img", F, [1, 8, 2, 2])], [value("y", F, None)], [], path)


KINDS = {"functions": functions, "bits": bits, "attention-einsum": attention_einsum,
         "nd-indexing": nd_indexing, "positions": positions}

if __name__ == "__main__":
    if sys.argv[1].startswith("bad-"):
        bad(sys.argv[2], sys.argv[1][4:])
    else:
        KINDS[sys.argv[1]](sys.argv[2])
