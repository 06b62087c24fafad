"""Differential fuzzing of the whole compiler: small ONNX graphs, generated at random or
mutated from the ONNX node suite, with random input values (out-of-range indices, NaN,
infinities, signed zeros, denormals, empty tensors), run by glow-run and onnxruntime.

Usage: differential_fuzz.py [--cases N] [--seed S] [--bin DIR] [--keep DIR] [--replay-only]

For every case glow must either run and match onnxruntime (rtol 1e-4, atol 1e-5 on
floats, NaN where onnxruntime has NaN; integers exactly) or, where onnxruntime's
approximations differ, ONNX's numpy reference implementation, or refuse with a one-line
error and exit code 1 and write no output. A signal, another exit code, panic or
multi-line error text, output written on failure, or a different result is a
failure: the case is saved to --keep (default python/fuzz_regressions/) and the
script exits 1. Saved cases are replayed first on every run, so a fixed bug stays
fixed. Cases onnxruntime itself rejects only need glow not to crash.
"""
import argparse
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

ROOT = pathlib.Path(__file__).resolve().parent.parent
REGRESSIONS = ROOT / "python" / "fuzz_regressions"
FLOAT_SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 1e-40, -1e-40, 3.4e38, -3.4e38]
UNARY = ["Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Abs", "Neg", "Erf", "Floor", "Ceil",
         "Round", "Reciprocal", "Elu", "Selu", "Celu", "Softplus", "Softsign", "Sin", "Cos", "Atan",
         "Sign", "ThresholdedRelu"]
BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"]
REDUCE = ["ReduceSum", "ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd"]
# Ops whose NaN handling implementations do not agree on and ONNX does not pin down:
# numpy (ONNX's reference) propagates a NaN through max / min, onnxruntime's
# reductions skip it. Where a graph has one, a NaN on one side only is not compared.
NAN_AMBIGUOUS = {"Max", "Min", "ReduceMax", "ReduceMin"}


def nan_ambiguous(node):
    """Whether `node` takes a max / min whose NaN handling is not pinned down (also
    ScatterElements' max / min reductions: onnxruntime's std::max drops a NaN update)."""
    if node.op_type in NAN_AMBIGUOUS:
        return True
    reduction = next((a.s.decode() for a in node.attribute if a.name == "reduction"), "")
    return node.op_type in ("ScatterElements", "ScatterND") and reduction in ("max", "min")
# Step functions: after an op whose result is rounded or approximated (erf, exp, a
# division), a one-ulp difference upstream moves a value across an integer, and the
# outputs differ by exactly one step. Such one-step differences are not compared when a
# step function (these, or Pow to an infinite exponent) reads a computed value.
STEP_FUNCTIONS = {"Floor", "Ceil", "Round"}


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "fuzz", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9)


def value_info(name, array):
    element = helper.np_dtype_to_tensor_dtype(array.dtype)
    return helper.make_tensor_value_info(name, element, list(array.shape))


def floats(rng, shape):
    """Normal values with, sometimes, special values sprinkled in."""
    values = rng.normal(size=shape).astype(np.float32) * rng.choice([1.0, 10.0, 1e-3])
    if values.size and rng.random() < 0.5:
        flat = values.reshape(-1)
        for _ in range(rng.randint(1, 3)):
            flat[rng.randrange(flat.size)] = rng.choice(FLOAT_SPECIALS)
    return values


def shape_of(rng, rank, allow_empty=True):
    return [rng.choice([0, 1, 2, 3, 4, 5]) if allow_empty and rng.random() < 0.1 else rng.randint(1, 5)
            for _ in range(rank)]


class NumpyRandom:
    """random.Random with numpy-style helpers, seeded once per case."""

    def __init__(self, seed):
        self.python = random.Random(seed)
        self.numpy = np.random.default_rng(seed)

    def __getattr__(self, name):
        return getattr(self.python, name)

    def normal(self, size):
        return self.numpy.normal(size=size)

    def integers(self, low, high, size):
        return self.numpy.integers(low, high, size=size)


def indexing_case(rng):
    """Gather / GatherElements / ScatterElements on random shapes, indices sometimes
    outside the dimension (ONNX: an error) or at its edges."""
    op = rng.choice(["Gather", "GatherElements", "ScatterElements"])
    rank = rng.randint(1, 3)
    data_shape = shape_of(rng, rank, allow_empty=False)
    axis = rng.randrange(rank)
    extent = data_shape[axis]
    data = floats(rng, data_shape)
    if op == "Gather":
        index_shape = shape_of(rng, rng.randint(1, 2))
    else:
        index_shape = [rng.randint(1, d) for d in data_shape]
    low, high = (-2 * extent - 3, 2 * extent + 3) if rng.random() < 0.3 else (-extent, extent)
    indices = rng.integers(low, high, index_shape).astype(rng.choice([np.int64, np.int32]))
    if op == "ScatterElements":
        updates = floats(rng, index_shape)
        reduction = rng.choice(["none", "add", "mul", "max", "min"])
        node = helper.make_node(op, ["data", "indices", "updates"], ["y"], axis=axis, reduction=reduction)
        feeds = {"data": data, "indices": indices, "updates": updates}
        return model([node], [value_info(n, a) for n, a in feeds.items()],
                     [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], opset=18), feeds
    node = helper.make_node(op, ["data", "indices"], ["y"], axis=axis)
    feeds = {"data": data, "indices": indices}
    return model([node], [value_info(n, a) for n, a in feeds.items()],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]), feeds


def elementwise_case(rng):
    """A chain of 1-4 unary / binary / reduction ops on values with NaN, infinities,
    signed zeros and denormals, with broadcasting and sometimes empty tensors."""
    shape = shape_of(rng, rng.randint(1, 3))
    feeds = {"x": floats(rng, shape)}
    nodes, current = [], "x"
    for k in range(rng.randint(1, 4)):
        out = f"t{k}"
        kind = rng.random()
        if kind < 0.4:
            nodes.append(helper.make_node(rng.choice(UNARY), [current], [out]))
        elif kind < 0.8:
            other = f"b{k}"
            broadcast = [d if rng.random() < 0.7 else 1 for d in shape]
            if rng.random() < 0.3:
                broadcast = broadcast[rng.randint(0, len(broadcast) - 1):]
            feeds[other] = floats(rng, broadcast)
            nodes.append(helper.make_node(rng.choice(BINARY), [current, other], [out]))
        else:
            axes = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
            keep = rng.randint(0, 1)
            op = rng.choice(REDUCE)
            nodes.append(helper.make_node(op, [current], [out], axes=axes, keepdims=keep))
            shape = [1 if i in axes else d for i, d in enumerate(shape)] if keep else \
                [d for i, d in enumerate(shape) if i not in axes]
            if not shape:
                current = out
                break
        current = out
    nodes.append(helper.make_node("Identity", [current], ["y"]))
    return model(nodes, [value_info(n, a) for n, a in feeds.items()],
                 [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], opset=17), feeds


def mutated_case(rng, cases):
    """A node-suite case with one attribute set to an extreme value (or one added),
    run on its own inputs: glow must refuse it cleanly or agree with onnxruntime."""
    from onnx import AttributeProto
    folder = rng.choice(cases)
    m = onnx.load(folder / "model.onnx", load_external_data=False)
    if not m.graph.node:
        return None
    node = rng.choice(list(m.graph.node))
    extremes = [-1, 0, 1, 2, 3, -100, 100, 1 << 31, -(1 << 31), 1 << 62]
    numeric = [a for a in node.attribute if a.type in (AttributeProto.INT, AttributeProto.INTS,
                                                       AttributeProto.FLOAT)]
    if numeric and rng.random() < 0.8:
        a = rng.choice(numeric)
        if a.type == AttributeProto.INT:
            a.i = rng.choice(extremes)
        elif a.type == AttributeProto.FLOAT:
            a.f = rng.choice([float("nan"), float("inf"), -1.0, 0.0, 1e30])
        elif a.ints and rng.random() < 0.7:
            a.ints[rng.randrange(len(a.ints))] = rng.choice(extremes)
        else:
            a.ints.append(rng.choice(extremes))
    else:
        name = rng.choice(["axis", "axes", "perm", "kernel_shape", "strides", "pads", "group", "k",
                           "keepdims", "split", "num_outputs"])
        value = [rng.choice(extremes) for _ in range(rng.randint(1, 4))] \
            if name in ("axes", "perm", "kernel_shape", "strides", "pads", "split") else rng.choice(extremes)
        node.attribute.append(helper.make_attribute(name, value))
    feeds = {}
    initializers = {t.name for t in m.graph.initializer}
    for i, info in enumerate(m.graph.input):
        if info.name in initializers:
            continue
        path = folder / "test_data_set_0" / f"input_{i}.pb"
        if not path.exists():
            return None
        feeds[info.name] = numpy_helper.to_array(onnx.load_tensor(str(path)))
    return m, feeds


def run_onnxruntime(path, feeds):
    try:
        options = ort.SessionOptions()
        options.log_severity_level = 4
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        return dict(zip(names, session.run(None, feeds)))
    except Exception:  # onnxruntime rejects the model or the input
        return None


def run_reference(m, feeds):
    """ONNX's own reference implementation (numpy), the second oracle."""
    try:
        from onnx.reference import ReferenceEvaluator
        evaluator = ReferenceEvaluator(m)
        names = [o.name for o in m.graph.output]
        with np.errstate(all="ignore"):
            return dict(zip(names, evaluator.run(None, feeds)))
    except Exception:
        return None


def mismatch(m, got, reference, name, feeds):
    """None when glow's output matches this oracle's, else the reason."""
    with np.errstate(invalid="ignore"):
        return compare(m, got, reference, name, feeds)


def steps(m, feeds):
    """Whether the graph has a step function of a computed value: Floor / Ceil / Round,
    or Pow to an infinite exponent (|base| < 1 gives 0, |base| = 1 gives 1), where a
    one-ulp difference upstream (erf's last bit) changes the output by a whole step."""
    inputs = {i.name for i in m.graph.input}
    for node in m.graph.node:
        if node.op_type in STEP_FUNCTIONS and node.input[0] not in inputs:
            return True
        exponent = feeds.get(node.input[1]) if node.op_type == "Pow" else None
        if exponent is not None and node.input[0] not in inputs and \
                not np.all(np.isfinite(exponent)):
            return True
    return False


def compare(m, got, reference, name, feeds):
    if got.shape != reference.shape:
        return f"output {name}: shape {got.shape}, onnxruntime {reference.shape}"
    if reference.dtype.kind != "f":
        return None if np.array_equal(got, reference) else f"output {name}: differs from onnxruntime"
    got, reference = got.astype(np.float64), reference.astype(np.float64)
    if any(nan_ambiguous(n) for n in m.graph.node):
        either = np.isnan(got) | np.isnan(reference)
        got, reference = np.where(either, 0.0, got), np.where(either, 0.0, reference)
    if steps(m, feeds):
        one_step = np.abs(got - reference) == 1.0
        got, reference = np.where(one_step, 0.0, got), np.where(one_step, 0.0, reference)
    if np.allclose(got, reference, rtol=1e-4, atol=1e-5, equal_nan=True):
        return None
    difference = np.nanmax(np.abs(got - reference))
    return f"output {name}: differs from onnxruntime (max {difference:.3g})"


def sanitize(name):
    return "".join(c if c.isalnum() or c in "_.-" else "_" for c in name)


def check_case(binary, m, feeds, folder):
    """None when glow behaves, else the reason."""
    path = folder / "model.onnx"
    onnx.save(m, path)
    command = [str(binary), str(path), "--threads", "1", "--output-dir", str(folder / "out")]
    for name, array in feeds.items():
        np.save(folder / f"{sanitize(name)}.npy", array)
        command += ["--input", f"{name}={folder / (sanitize(name) + '.npy')}"]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "glow-run took longer than 300 s"
    stderr = run.stderr.strip()
    if run.returncode not in (0, 1):
        return f"exit code {run.returncode} (signal {-run.returncode})" if run.returncode < 0 \
            else f"exit code {run.returncode}: {stderr[:300]}"
    if "panicked" in stderr or "internal error" in stderr or stderr.count("\n") > 0:
        return f"not a one-line error: {stderr[:400]}"
    if run.returncode == 1:
        if (folder / "out").exists() and any((folder / "out").iterdir()):
            return "outputs written although glow-run failed"
        return None
    expected = run_onnxruntime(path, feeds)
    if expected is None:
        return None
    reference_outputs = None
    for name, reference in expected.items():
        output = folder / "out" / f"{sanitize(name)}.npy"
        if not output.exists():
            return f"no output {name}"
        got = np.load(output)
        problem = mismatch(m, got, reference, name, feeds)
        if problem is None:
            continue
        # onnxruntime approximates some functions (its sigmoid is 0 below -18, where the
        # true value is 1e-8); an ill-conditioned op after it (a division by a denormal)
        # magnifies that. Glow matching ONNX's numpy reference instead is not a bug.
        if reference_outputs is None:
            reference_outputs = run_reference(m, feeds) or {}
        if name not in reference_outputs or \
                mismatch(m, got, np.asarray(reference_outputs[name]), name, feeds) is not None:
            return problem
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bin", default=str(ROOT / "target" / "debug"))
    parser.add_argument("--keep", default=str(REGRESSIONS))
    parser.add_argument("--replay-only", action="store_true")
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.bin) / "glow-run"
    keep = pathlib.Path(arguments.keep)
    failures = 0
    counts = {"ran": 0, "refused": 0}

    def report(label, m, feeds, reason):
        nonlocal failures
        failures += 1
        print(f"FAIL {label}: {reason}")
        target = keep / label
        target.mkdir(parents=True, exist_ok=True)
        onnx.save(m, target / "model.onnx")
        np.savez(target / "inputs.npz", **feeds)

    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        for saved in sorted(keep.glob("*/model.onnx")) if keep.exists() else []:
            m = onnx.load(saved)
            with np.load(saved.parent / "inputs.npz") as archive:
                feeds = {name: archive[name] for name in archive.files}
            folder = scratch / "case"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            reason = check_case(binary, m, feeds, folder)
            print(f"regression {saved.parent.name}: {'FAIL ' + reason if reason else 'ok'}")
            failures += reason is not None
        if arguments.replay_only:
            return 1 if failures else 0
        sys.path.insert(0, str(ROOT / "python"))
        import onnx_node_cases
        suite = onnx_node_cases.cases()
        for case in range(arguments.cases):
            rng = NumpyRandom(arguments.seed * 1_000_003 + case)
            kind = rng.choice(["indexing", "elementwise", "mutated"])
            generated = {"indexing": lambda: indexing_case(rng),
                         "elementwise": lambda: elementwise_case(rng),
                         "mutated": lambda: mutated_case(rng, suite)}[kind]()
            if generated is None:
                continue
            m, feeds = generated
            folder = scratch / "case"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            reason = check_case(binary, m, feeds, folder)
            refused = (folder / "out").exists() is False
            counts["refused" if refused else "ran"] += 1
            if reason:
                report(f"seed{arguments.seed}-case{case}-{kind}", m, feeds, reason)
    print(f"differential fuzzing: {counts['ran']} cases ran and matched onnxruntime, "
          f"{counts['refused']} refused cleanly, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
