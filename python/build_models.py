"""Builds ResNet-50 (v1.5), MobileNetV2, EfficientNet-B0 and a BERT-style transformer encoder as ONNX
files with onnx's helper API and deterministic (seeded, He-initialized) weights, for the
importer, the runners and the benchmarks. Torch is not needed; the files are not
committed.

Usage: build_models.py [--out DIR] [resnet50|mobilenetv2|efficientnet_b0|encoder|minilm|resnet50_int8|mobilenetv2_int8 ...]
Writes DIR/<name>.onnx (default DIR: .cache/models). A `_int8` name is the float model
through onnxruntime's own int8 tooling, as its users run it: quant_pre_process, then
quantize_static (QDQ, per-channel int8 weights, uint8 activations) calibrated on four
seeded standard-normal inputs (enough to exercise the integer kernels and time them; a
real deployment calibrates on real data).
"""
import argparse
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = pathlib.Path(__file__).resolve().parent.parent


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.initializers, self.count = [], [], 0

    def name(self, prefix):
        self.count += 1
        return f"{prefix}_{self.count}"

    def weight(self, prefix, shape, fan_in):
        name = self.name(prefix)
        data = self.rng.standard_normal(shape).astype(np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        self.initializers.append(numpy_helper.from_array(data, name))
        return name

    def vector(self, prefix, values):
        name = self.name(prefix)
        self.initializers.append(numpy_helper.from_array(np.asarray(values, dtype=np.float32), name))
        return name

    def silu(self, x):
        """x * sigmoid(x), as torch.onnx exports SiLU / Swish."""
        gate, out = self.name("sigmoid"), self.name("silu")
        self.nodes.append(helper.make_node("Sigmoid", [x], [gate], name=gate))
        self.nodes.append(helper.make_node("Mul", [x, gate], [out], name=out))
        return out

    def squeeze_excite(self, x, channels, reduced):
        """EfficientNet's squeeze-and-excitation: GAP, 1x1 conv down, SiLU, 1x1 conv
        up, sigmoid, scale the input."""
        pool = self.name("se_pool")
        self.nodes.append(helper.make_node("GlobalAveragePool", [x], [pool], name=pool))
        tensors = pool
        for cin, cout, last in ((channels, reduced, False), (reduced, channels, True)):
            w = self.weight("se_w", (cout, cin, 1, 1), cin)
            bias = self.vector("se_b", 0.1 * self.rng.standard_normal(cout))
            conv = self.name("se_conv")
            self.nodes.append(helper.make_node("Conv", [tensors, w, bias], [conv], name=conv,
                                               kernel_shape=[1, 1]))
            if last:
                gate = self.name("se_gate")
                self.nodes.append(helper.make_node("Sigmoid", [conv], [gate], name=gate))
                tensors = gate
            else:
                tensors = self.silu(conv)
        out = self.name("se_scale")
        self.nodes.append(helper.make_node("Mul", [x, tensors], [out], name=out))
        return out

    def conv_bn(self, x, cin, cout, kernel, stride=1, group=1, relu=True, relu6=False,
                silu=False):
        w = self.weight("w", (cout, cin // group, kernel, kernel), cin // group * kernel * kernel)
        pad = kernel // 2
        conv = self.name("conv")
        self.nodes.append(helper.make_node("Conv", [x, w], [conv], name=conv, kernel_shape=[kernel, kernel],
                                           strides=[stride, stride], pads=[pad] * 4, group=group))
        gamma = self.vector("gamma", 1.0 + 0.1 * self.rng.standard_normal(cout))
        beta = self.vector("beta", 0.1 * self.rng.standard_normal(cout))
        mean = self.vector("mean", 0.1 * self.rng.standard_normal(cout))
        var = self.vector("var", 1.0 + 0.1 * np.abs(self.rng.standard_normal(cout)))
        bn = self.name("bn")
        self.nodes.append(helper.make_node("BatchNormalization", [conv, gamma, beta, mean, var], [bn],
                                           name=bn, epsilon=1e-5))
        if silu:
            return self.silu(bn)
        if relu6:
            out = self.name("relu6")
            lo, hi = self.vector("zero", 0.0), self.vector("six", 6.0)
            self.initializers[-1].dims[:] = []
            self.initializers[-2].dims[:] = []
            self.nodes.append(helper.make_node("Clip", [bn, lo, hi], [out], name=out))
            return out
        if relu:
            out = self.name("relu")
            self.nodes.append(helper.make_node("Relu", [bn], [out], name=out))
            return out
        return bn

    def add(self, a, b, relu):
        out = self.name("add")
        self.nodes.append(helper.make_node("Add", [a, b], [out], name=out))
        if relu:
            r = self.name("relu")
            self.nodes.append(helper.make_node("Relu", [out], [r], name=r))
            return r
        return out

    def head(self, x, channels, classes):
        pool = self.name("gap")
        self.nodes.append(helper.make_node("GlobalAveragePool", [x], [pool], name=pool))
        flat = self.name("flatten")
        self.nodes.append(helper.make_node("Flatten", [pool], [flat], name=flat, axis=1))
        w = self.weight("fc_w", (classes, channels), channels)
        b = self.vector("fc_b", np.zeros(classes))
        self.nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], name="fc", transB=1))

    def model(self, name):
        graph = helper.make_graph(
            self.nodes, name, [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224])],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 1000])], self.initializers)
        # IR version 9: what onnxruntime 1.23 reads (the onnx 1.23 default is newer).
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9,
                                  producer_name="glow-mlir build_models.py")
        onnx.checker.check_model(model, full_check=True)
        return model


def resnet50():
    b = Builder(50)
    x = b.conv_bn("input", 3, 64, 7, stride=2)
    pool = b.name("maxpool")
    b.nodes.append(helper.make_node("MaxPool", [x], [pool], name=pool, kernel_shape=[3, 3],
                                    strides=[2, 2], pads=[1, 1, 1, 1]))
    x, cin = pool, 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for block in range(blocks):
            stride = 2 if block == 0 and stage > 0 else 1
            cout = width * 4
            y = b.conv_bn(x, cin, width, 1)
            y = b.conv_bn(y, width, width, 3, stride=stride)
            y = b.conv_bn(y, width, cout, 1, relu=False)
            shortcut = b.conv_bn(x, cin, cout, 1, stride=stride, relu=False) if block == 0 else x
            x, cin = b.add(y, shortcut, relu=True), cout
    b.head(x, 2048, 1000)
    return b.model("resnet50")


def mobilenetv2():
    b = Builder(2)
    x = b.conv_bn("input", 3, 32, 3, stride=2, relu6=True)
    cin = 32
    for expand, cout, repeats, stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                          (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(repeats):
            s = stride if i == 0 else 1
            hidden = cin * expand
            y = b.conv_bn(x, cin, hidden, 1, relu6=True) if expand != 1 else x
            y = b.conv_bn(y, hidden, hidden, 3, stride=s, group=hidden, relu6=True)
            y = b.conv_bn(y, hidden, cout, 1, relu=False)
            x = b.add(y, x, relu=False) if s == 1 and cin == cout else y
            cin = cout
    x = b.conv_bn(x, cin, 1280, 1, relu6=True)
    b.head(x, 1280, 1000)
    return b.model("mobilenetv2")


def minilm():
    """The BERT-style encoder at MiniLM-L6's shape: 6 layers, hidden 384, 12 heads, FFN
    1536, a 30,522-token vocabulary, batch 2 x 32 tokens (random weights)."""
    return encoder(layers=6, hidden=384, heads=12, ffn=1536, seq=32, vocab=30522, batch=2)


def efficientnet_b0():
    """EfficientNet-B0's layers: MBConv blocks (1x1 expansion, 3x3 / 5x5 depthwise,
    squeeze-and-excitation, 1x1 projection, residual), SiLU everywhere, as torchvision's
    architecture with random weights."""
    b = Builder(3)
    x = b.conv_bn("input", 3, 32, 3, stride=2, relu=False, silu=True)
    cin = 32
    for expand, kernel, stride, cout, repeats in [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2),
                                                  (6, 3, 2, 80, 3), (6, 5, 1, 112, 3), (6, 5, 2, 192, 4),
                                                  (6, 3, 1, 320, 1)]:
        for i in range(repeats):
            s = stride if i == 0 else 1
            hidden = cin * expand
            y = b.conv_bn(x, cin, hidden, 1, relu=False, silu=True) if expand != 1 else x
            y = b.conv_bn(y, hidden, hidden, kernel, stride=s, group=hidden, relu=False, silu=True)
            y = b.squeeze_excite(y, hidden, max(1, cin // 4))
            y = b.conv_bn(y, hidden, cout, 1, relu=False)
            x = b.add(y, x, relu=False) if s == 1 and cin == cout else y
            cin = cout
    x = b.conv_bn(x, cin, 1280, 1, relu=False, silu=True)
    b.head(x, 1280, 1000)
    return b.model("efficientnet_b0")


def encoder(layers=2, hidden=128, heads=4, ffn=512, seq=128, vocab=1000, batch=1):
    """A BERT-style encoder as exporters write it: int64 input_ids and attention_mask
    [batch, seq]; word + position embeddings and LayerNormalization; per layer, multi-head
    self-attention (MatMul + bias, Reshape/Transpose into heads, scaled scores, the mask
    as (1 - Cast(mask)) * -10000 unsqueezed and added, Softmax, context back through
    Transpose/Reshape, output projection, residual, LayerNormalization) and a feed-forward
    block with Erf-based Gelu; output last_hidden_state [batch, seq, hidden]."""
    b = Builder(11)
    head_dim = hidden // heads

    def node(op, inputs, **attributes):
        out = b.name(op.lower())
        b.nodes.append(helper.make_node(op, inputs, [out], name=out, **attributes))
        return out

    def const(prefix, values, dtype=np.float32):
        name = b.name(prefix)
        b.initializers.append(numpy_helper.from_array(np.asarray(values, dtype=dtype), name))
        return name

    def dense(x, cin, cout):
        return node("Add", [node("MatMul", [x, b.weight("w", (cin, cout), cin)]),
                            b.vector("b", np.zeros(cout))])

    def layer_norm(x):
        return node("LayerNormalization", [x, b.vector("gamma", np.ones(hidden)),
                                           b.vector("beta", np.zeros(hidden))],
                    axis=-1, epsilon=1e-12)

    table = b.weight("word_embeddings", (vocab, hidden), hidden)
    positions = b.weight("position_embeddings", (1, seq, hidden), hidden)
    x = layer_norm(node("Add", [node("Gather", [table, "input_ids"], axis=0), positions]))
    # (1 - mask) * -10000, as [1, 1, 1, seq]
    mask = node("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    mask = node("Mul", [node("Sub", [const("one", 1.0), mask]), const("neg", -10000.0)])
    mask = node("Unsqueeze", [mask, const("axes", [1, 2], np.int64)])
    split = const("heads_shape", [batch, seq, heads, head_dim], np.int64)
    merge = const("hidden_shape", [batch, seq, hidden], np.int64)
    scale = const("scale", np.sqrt(head_dim))
    for _ in range(layers):
        q, k, v = (node("Transpose", [node("Reshape", [dense(x, hidden, hidden), split])],
                        perm=perm) for perm in ([0, 2, 1, 3], [0, 2, 3, 1], [0, 2, 1, 3]))
        scores = node("Add", [node("Div", [node("MatMul", [q, k]), scale]), mask])
        context = node("MatMul", [node("Softmax", [scores], axis=-1), v])
        context = node("Reshape", [node("Transpose", [context], perm=[0, 2, 1, 3]), merge])
        x = layer_norm(node("Add", [dense(context, hidden, hidden), x]))
        h = dense(x, hidden, ffn)
        gelu = node("Mul", [node("Mul", [h, node("Add", [node("Erf", [node("Div", [h, const("sqrt2", np.sqrt(2))])]),
                                                         const("one", 1.0)])]),
                            const("half", 0.5)])
        x = layer_norm(node("Add", [dense(gelu, ffn, hidden), x]))
    b.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    graph = helper.make_graph(
        b.nodes, "encoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [batch, seq]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [batch, seq])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [batch, seq, hidden])],
        b.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9,
                              producer_name="glow-mlir build_models.py")
    onnx.checker.check_model(model, full_check=True)
    return model


def quantized_with_onnxruntime(base, out, samples=4):
    """out/<base>_int8.onnx from out/<base>.onnx (built first when missing)."""
    import logging

    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = out / f"{base}.onnx"
    if not source.exists():
        onnx.save(globals()[base](), source)
    shape = [d.dim_value or 1 for d in onnx.load(source, load_external_data=False)
             .graph.input[0].type.tensor_type.shape.dim]

    class Reader(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(0)
            self.samples = iter([{"input": rng.standard_normal(shape).astype(np.float32)}
                                 for _ in range(samples)])

        def get_next(self):
            return next(self.samples, None)

    prepared, quantized = out / f"{base}_pre.onnx", out / f"{base}_int8.onnx"
    logging.getLogger().setLevel(logging.ERROR)
    quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
    quantize_static(str(prepared), str(quantized), Reader(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    prepared.unlink()
    return quantized


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / ".cache" / "models"))
    parser.add_argument("models", nargs="*", default=["resnet50", "mobilenetv2"])
    arguments = parser.parse_args()
    out = pathlib.Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in arguments.models:
        if name.endswith("_int8"):
            path = quantized_with_onnxruntime(name[:-len("_int8")], out)
        else:
            path = out / f"{name}.onnx"
            onnx.save(globals()[name](), path)
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
