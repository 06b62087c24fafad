"""Writes the glow-pack-weights tests' inputs, with random (not splat) weights larger
than half the L2 cache:
  weights.py mlir OUT.mlir   linalg functions @conv (3x3x512x512) and @matmul (384x1536)
                             whose weights are dense_resource constants, the same
                             kernels marked by glow-stack with an epilogue each, and
                             two matmuls reading one constant (@shared), and two
                             matmuls reading two constants of one shape (@twins);
  weights.py onnx OUT.onnx   an ONNX model: Conv 3x3 128 -> 160 on 7x7 (737 KB of
                             filters), Relu, Flatten, Gemm 7840 -> 640 (20 MB), with
                             biases, Tanh (the Gemm's stacked epilogue);
  weights.py check MODEL X.npy GLOW_OUT.npy   onnxruntime's output on X against glow's."""
import sys

import numpy as np


def blob(name, array):
    # MLIR's dense_resource hex form: a 4-byte alignment header, then the raw data.
    return f"      {name}: \"0x04000000{array.astype('<f4').tobytes().hex().upper()}\""


def write_mlir(path):
    rng = np.random.default_rng(1)
    conv_w = rng.standard_normal((3, 3, 512, 512)).astype(np.float32)
    mm_w = rng.standard_normal((384, 1536)).astype(np.float32)
    mm_w2 = rng.standard_normal((384, 1536)).astype(np.float32)
    text = """func.func @conv(%x: tensor<1x9x9x512xf32>, %b: tensor<512xf32>) -> tensor<1x7x7x512xf32> {
  %w = arith.constant dense_resource<conv_w> : tensor<3x3x512x512xf32>
  %e = tensor.empty() : tensor<1x7x7x512xf32>
  %init = linalg.broadcast ins(%b : tensor<512xf32>) outs(%e : tensor<1x7x7x512xf32>) dimensions = [0, 1, 2]
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%init : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %0 : tensor<1x7x7x512xf32>
}
func.func @matmul(%a: tensor<64x384xf32>) -> tensor<64x1536xf32> {
  %w = arith.constant dense_resource<mm_w> : tensor<384x1536xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  return %0 : tensor<64x1536xf32>
}
func.func @matmul_epilogue(%a: tensor<64x384xf32>, %bias: tensor<1536xf32>) -> tensor<64x1536xf32> {
  %w = arith.constant dense_resource<mm_w> : tensor<384x1536xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %0 = linalg.matmul {glow.stack} ins(%a, %w : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %b = linalg.broadcast ins(%bias : tensor<1536xf32>) outs(%e : tensor<64x1536xf32>) dimensions = [0]
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b, %0 : tensor<64x1536xf32>, tensor<64x1536xf32>) outs(%e : tensor<64x1536xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<64x1536xf32>
  return %1 : tensor<64x1536xf32>
}
func.func @shared(%a: tensor<64x384xf32>, %c: tensor<64x384xf32>) -> (tensor<64x1536xf32>, tensor<64x1536xf32>) {
  %w = arith.constant dense_resource<mm_w> : tensor<384x1536xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %1 = linalg.matmul ins(%c, %w : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  return %0, %1 : tensor<64x1536xf32>, tensor<64x1536xf32>
}
func.func @twins(%a: tensor<64x384xf32>) -> (tensor<64x1536xf32>, tensor<64x1536xf32>) {
  %w1 = arith.constant dense_resource<mm_w> : tensor<384x1536xf32>
  %w2 = arith.constant dense_resource<mm_w2> : tensor<384x1536xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %0 = linalg.matmul ins(%a, %w1 : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  %1 = linalg.matmul ins(%a, %w2 : tensor<64x384xf32>, tensor<384x1536xf32>) outs(%init : tensor<64x1536xf32>) -> tensor<64x1536xf32>
  return %0, %1 : tensor<64x1536xf32>, tensor<64x1536xf32>
}
func.func @conv_epilogue(%x: tensor<1x9x9x512xf32>, %b: tensor<512xf32>) -> tensor<1x7x7x512xf32> {
  %w = arith.constant dense_resource<conv_w> : tensor<3x3x512x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x512xf32>
  %init = linalg.broadcast ins(%b : tensor<512xf32>) outs(%e : tensor<1x7x7x512xf32>) dimensions = [0, 1, 2]
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, glow.stack}
      ins(%x, %w : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%init : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x7x7x512xf32>) outs(%e : tensor<1x7x7x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x7x7x512xf32>
  return %1 : tensor<1x7x7x512xf32>
}
{-#
  dialect_resources: {
    builtin: {
""" + blob("conv_w", conv_w) + ",\n" + blob("mm_w", mm_w) + ",\n" + blob("mm_w2", mm_w2) + "\n    }\n  }\n#-}\n"
    with open(path, "w") as out:
        out.write(text)


def write_onnx(path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2)
    initializers = [
        numpy_helper.from_array(rng.standard_normal((160, 128, 3, 3)).astype(np.float32) * 0.05, "w"),
        numpy_helper.from_array(rng.standard_normal(160).astype(np.float32), "b"),
        numpy_helper.from_array(rng.standard_normal((640, 160 * 7 * 7)).astype(np.float32) * 0.02, "fc_w"),
        numpy_helper.from_array(rng.standard_normal(640).astype(np.float32), "fc_b"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("Flatten", ["r"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["g"], transB=1, name="fc"),
        helper.make_node("Tanh", ["g"], ["y"], name="tanh"),
    ]
    graph = helper.make_graph(nodes, "packed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 128, 7, 7])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 640])], initializers)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)
    np.save(path + ".x.npy", rng.standard_normal((1, 128, 7, 7)).astype(np.float32))


def check(model, x_path, glow_path):
    import onnxruntime as ort

    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    expected = session.run(None, {"x": np.load(x_path)})[0]
    actual = np.load(glow_path)
    error = float(np.abs(actual - expected).max() / np.abs(expected).max())
    print(f"normalized max error {error:.1e}: {'ok' if error < 1e-5 else 'MISMATCH'}")


if __name__ == "__main__":
    {"mlir": write_mlir, "onnx": write_onnx, "check": check}[sys.argv[1]](*sys.argv[2:])
