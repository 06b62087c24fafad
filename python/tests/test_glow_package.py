"""The `glow` Python package: compile, run, errors, int8, bundles, and ResNet-50 against
onnxruntime. Run with `python -m pytest python/tests` after `pip install -e python/`
(glow's tools are found through GLOW_BIN_DIR, PATH or the checkout's target/)."""
import os
import pathlib

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import glow

ROOT = pathlib.Path(__file__).resolve().parents[2]
RESNET50 = pathlib.Path(os.environ.get("GLOW_RESNET50", ROOT / ".cache/models/resnet50.onnx"))


def small_cnn(path):
    """Conv + Relu + global average pool + Gemm with a symbolic batch dimension."""
    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32) * 0.3, n)
               for n, s in (("w", (4, 3, 3, 3)), ("b", (4,)), ("fc", (5, 4)), ("fcb", (5,)))]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], transB=1)]
    graph = helper.make_graph(
        nodes, "small", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])], weights)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                ir_version=9), path)
    return path


def embedding(path):
    """An int64 lookup into a 4-row table: out-of-range ids are a runtime error."""
    table = numpy_helper.from_array(np.arange(8, dtype=np.float32).reshape(4, 2), "table")
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "ids"], ["y"], name="embed")], "embed",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])], [table])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                ir_version=9), path)
    return path


def onnxruntime(path, feeds):
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, feeds)


@pytest.fixture(scope="module")
def cnn(tmp_path_factory):
    path = small_cnn(tmp_path_factory.mktemp("cnn") / "cnn.onnx")
    return path, glow.compile(path, input_shapes={"x": (2, 3, 8, 8)})


def test_matches_onnxruntime(cnn):
    path, model = cnn
    x = np.random.default_rng(1).standard_normal((2, 3, 8, 8)).astype(np.float32)
    expected = onnxruntime(path, {"x": x})[0]
    np.testing.assert_allclose(model(x), expected, rtol=1e-5, atol=1e-5)
    by_name = model.run({"x": x})
    assert list(by_name) == ["y"]
    np.testing.assert_allclose(by_name["y"], expected, rtol=1e-5, atol=1e-5)
    assert model.input_names == ["x"] and model.output_names == ["y"]


def test_wrong_inputs_raise_value_error(cnn):
    _, model = cnn
    with pytest.raises(ValueError, match=r"input 'x': the array holds F32 \[1, 3, 8, 8\], "
                                         r"the model expects F32 \[2, 3, 8, 8\]"):
        model(np.zeros((1, 3, 8, 8), np.float32))
    with pytest.raises(ValueError, match=r"input 'x': the array holds F64 \[2, 3, 8, 8\]"):
        model(np.zeros((2, 3, 8, 8)))
    with pytest.raises(ValueError, match=r"'z' is not an input \(inputs: x\)"):
        model.run({"z": np.zeros((2, 3, 8, 8), np.float32)})
    with pytest.raises(ValueError, match=r"input 'x' is missing"):
        model.run({})
    with pytest.raises(ValueError, match=r"takes 1 input\(s\) \(x\), got 2"):
        model(np.zeros((2, 3, 8, 8), np.float32), np.zeros(1))


def test_bad_models_raise_glow_error(tmp_path):
    with pytest.raises(glow.GlowError, match="cannot read .*missing.onnx"):
        glow.compile(tmp_path / "missing.onnx")
    garbage = tmp_path / "garbage.onnx"
    garbage.write_text("this is not a model")
    with pytest.raises(glow.GlowError, match=r"glow-import: error: .* is not a valid ONNX model"):
        glow.compile(garbage)
    with pytest.raises(ValueError, match=r"quantize needs static input shapes: pin x with input_shapes"):
        glow.compile(small_cnn(tmp_path / "cnn.onnx"), quantize={"x": np.zeros((1, 2, 3, 8, 8))})
    with pytest.raises(ValueError, match="threads=0"):
        glow.compile(tmp_path / "cnn.onnx", input_shapes={"x": (2, 3, 8, 8)}, threads=0)
    with pytest.raises(ValueError, match="threads='2'"):
        glow.compile(tmp_path / "cnn.onnx", input_shapes={"x": (2, 3, 8, 8)}, threads="2")


def test_dynamic_model_compiles_per_shape(tmp_path):
    """Symbolic dimensions left open: a DynamicModel, one bundle per input shape."""
    path = small_cnn(tmp_path / "cnn.onnx")
    model = glow.compile(path, max_shapes=2)
    assert isinstance(model, glow.DynamicModel)
    assert model.input_names == ["x"] and model.output_names == ["y"]
    assert repr(model) == "<glow.DynamicModel (x: f32 [N, 3, 8, 8]), 0 shape(s) compiled>"
    rng = np.random.default_rng(3)
    for batch in (2, 5, 2):
        x = rng.standard_normal((batch, 3, 8, 8)).astype(np.float32)
        np.testing.assert_allclose(model(x), onnxruntime(path, {"x": x})[0], rtol=1e-5, atol=1e-5)
        assert model.run({"x": x})["y"].shape == (batch, 5)
    assert model.compiled_shapes == [{"x": (5, 3, 8, 8)}, {"x": (2, 3, 8, 8)}]
    model(np.zeros((1, 3, 8, 8), np.float32))  # a third shape: the least recent goes
    assert model.compiled_shapes == [{"x": (2, 3, 8, 8)}, {"x": (1, 3, 8, 8)}]
    with pytest.raises(ValueError, match=r"input 'x': the array has shape \[2, 3, 9, 8\], "
                                         r"the model expects f32 \[N, 3, 8, 8\]"):
        model(np.zeros((2, 3, 9, 8), np.float32))
    with pytest.raises(ValueError, match=r"input 'x': the array holds F64 \[2, 3, 8, 8\]"):
        model(np.zeros((2, 3, 8, 8)))
    with pytest.raises(ValueError, match=r"'z' is not an input \(inputs: x\)"):
        model.run({"z": 0})
    with pytest.raises(glow.GlowError, match=r"model.specialize\(\{...\}\).save_bundle"):
        model.save_bundle(tmp_path / "saved")
    bundle = model.specialize({"x": (4, 3, 8, 8)})
    assert isinstance(bundle, glow.Bundle) and bundle.inputs[0].shape == (4, 3, 8, 8)
    # Pinned by input_shapes: a static bundle, as before.
    assert isinstance(glow.compile(path, input_shapes={"x": (2, 3, 8, 8)}), glow.Bundle)


def test_dynamic_model_binds_each_symbol_once(tmp_path):
    """Two inputs sharing symbols (batch, sequence) must agree on their sizes."""
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"])], "add",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["batch", "sequence"]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, ["batch", "sequence"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "sequence"])])
    path = tmp_path / "add.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                ir_version=9), path)
    model = glow.compile(path)
    a, b = np.ones((2, 7), np.float32), np.full((2, 7), 2, np.float32)
    np.testing.assert_array_equal(model(a, b), a + b)
    with pytest.raises(ValueError, match=r"input 'b': 'sequence' is 6 here but 7 in input 'a'"):
        model(a, b[:, :6])
    # A wrong element type is refused before anything compiles.
    with pytest.raises(ValueError, match=r"input 'a': the array holds F64 \[3, 3\], "
                                         r"the model expects F32 \[batch, sequence\]"):
        model(np.ones((3, 3)), np.ones((3, 3), np.float32))
    assert model.compiled_shapes == [{"a": (2, 7), "b": (2, 7)}]
    # Pinning one input fixes its symbols for the other: here every dimension, so the
    # result is one static bundle.
    pinned = glow.compile(path, input_shapes={"a": (2, 5)})
    assert isinstance(pinned, glow.Bundle) and pinned.inputs[1].shape == (2, 5)
    with pytest.raises(ValueError, match=r"input_shapes names 'c', which is not an input "
                                         r"\(inputs: a, b\)"):
        glow.compile(path, input_shapes={"c": (2, 5)})
    with pytest.raises(ValueError, match=r"input 'a': the array has shape \[2\], "
                                         r"the model expects f32 \[batch, sequence\]"):
        glow.compile(path, input_shapes={"a": (2,)})


def test_freeze_inputs(tmp_path):
    """freeze_inputs binds an input to a constant: a Reshape's runtime shape input
    becomes static, the input leaves the compiled model, and the model's symbolic batch
    stays open (a DynamicModel); unknown names are refused."""
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])], "reshape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 6]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    path = tmp_path / "reshape.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                ir_version=9), path)
    shape = np.array([-1, 2, 3], np.int64)
    static = glow.compile(path, input_shapes={"x": (4, 6)}, freeze_inputs={"shape": shape})
    assert static.input_names == ["x"]
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(static(x), x.reshape(4, 2, 3))
    dynamic = glow.compile(path, freeze_inputs={"shape": shape})
    assert isinstance(dynamic, glow.DynamicModel) and dynamic.input_names == ["x"]
    np.testing.assert_array_equal(dynamic(x[:1]), x[:1].reshape(1, 2, 3))
    with pytest.raises(ValueError, match=r"freeze_inputs names size, not inputs of the model"):
        glow.compile(path, freeze_inputs={"size": shape})


def test_threads(cnn, tmp_path):
    """A bundle on two OpenMP threads gives the same bits as the sequential one, and
    saved and reloaded it links LLVM's OpenMP runtime again."""
    path, model = cnn
    threaded = glow.compile(path, input_shapes={"x": (2, 3, 8, 8)}, threads=2)
    assert threaded.threads == 2 and model.threads == 1
    x = np.random.default_rng(3).standard_normal((2, 3, 8, 8)).astype(np.float32)
    np.testing.assert_array_equal(threaded(x), model(x))
    saved = threaded.save_bundle(tmp_path / "threaded")
    (saved / "model.so").unlink()
    np.testing.assert_array_equal(glow.load_bundle(saved)(x), model(x))


def test_runtime_index_error(tmp_path):
    model = glow.compile(embedding(tmp_path / "embed.onnx"))
    np.testing.assert_array_equal(model(np.array([3, -4], np.int64)), [[6, 7], [0, 1]])
    with pytest.raises(ValueError, match=r"the model refused its input: node 'embed' \(gather\): "
                                         r"an index is outside \[-4, 3\]"):
        model(np.array([0, 4], np.int64))
    # The error is cleared: the next good call works.
    np.testing.assert_array_equal(model(np.array([1, 2], np.int64)), [[2, 3], [4, 5]])


def test_int8_from_calibration_arrays(tmp_path):
    path = small_cnn(tmp_path / "cnn.onnx")
    rng = np.random.default_rng(2)
    samples = rng.standard_normal((8, 2, 3, 8, 8)).astype(np.float32)
    model = glow.compile(path, input_shapes={"x": (2, 3, 8, 8)}, quantize={"x": samples},
                         calibration="minmax")
    x = samples[0]
    expected = onnxruntime(path, {"x": x})[0]
    got = model(x)
    cosine = float(np.sum(got * expected) / (np.linalg.norm(got) * np.linalg.norm(expected)))
    assert cosine > 0.99, cosine
    assert not np.array_equal(got, expected)  # really int8, not the float model


def test_save_and_load_bundle(cnn, tmp_path):
    _, model = cnn
    saved = model.save_bundle(tmp_path / "bundle")
    assert sorted(p.suffix for p in saved.iterdir()) == [".h", ".json", ".o", ".so", ".weights"]
    again = glow.load_bundle(saved)
    x = np.ones((2, 3, 8, 8), np.float32)
    np.testing.assert_array_equal(again(x), model(x))


@pytest.mark.skipif(not RESNET50.exists(),
                    reason=f"{RESNET50} not built (python/build_models.py resnet50)")
def test_resnet50_matches_onnxruntime():
    model = glow.compile(RESNET50, input_shapes={"input": (1, 3, 224, 224)})
    x = np.random.default_rng(3).standard_normal((1, 3, 224, 224)).astype(np.float32)
    expected = onnxruntime(RESNET50, {"input": x})[0]
    got = model(x)
    assert float(np.max(np.abs(got - expected)) / np.max(np.abs(expected))) < 1e-4
    assert int(np.argmax(got)) == int(np.argmax(expected))
