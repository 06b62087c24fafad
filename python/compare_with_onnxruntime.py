"""Runs an ONNX model through Glow (glow-import -> glow-opt --glow-cpu-pipeline ->
mlir-runner) and through onnxruntime on the same deterministic input, and compares
every output: max |glow - ort| and that divided by max |ort| (the issue's 1e-4 bound).

Usage: compare_with_onnxruntime.py MODEL.onnx --input-shape NAME=AxBxC ... [--seed N]
                                   [--int-high N] [--bin DIR] [--tolerance 1e-4]

This is the interim execution path until glow-run exists: the model's function is
called from a small entry function that feeds constants and prints each output with
MLIR's runtime library (printMemrefF32); mlir-runner JIT-compiles the LLVM dialect.
Float inputs are standard normal; integer inputs (token ids, masks) uniform in
[0, --int-high). Outputs must be float32.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort

ROOT = pathlib.Path(__file__).resolve().parent.parent
LLVM = pathlib.Path("/usr/lib/llvm-22")


ELEMENTS = {np.dtype("float32"): "f32", np.dtype("int64"): "i64", np.dtype("int32"): "i32"}


def dense(array):
    """An MLIR dense attribute and type holding `array` exactly (hex of the raw bytes)."""
    element = ELEMENTS[array.dtype]
    dims = "x".join(map(str, array.shape))
    data = array.astype(array.dtype.newbyteorder("<")).tobytes().hex().upper()
    return f'dense<"0x{data}">', f"tensor<{dims}x{element}>"


def entry_function(inputs, output_types):
    lines = ["  func.func @glow_entry() {"]
    types = []
    for i, array in enumerate(inputs):
        attribute, tensor_type = dense(array)
        lines.append(f"    %x{i} = arith.constant {attribute} : {tensor_type}")
        types.append(tensor_type)
    results = ", ".join(output_types)
    names = ", ".join(f"%y{i}" for i in range(len(output_types)))
    arguments = ", ".join(f"%x{i}" for i in range(len(inputs)))
    lines.append(f"    {names} = call @main({arguments}) : ({', '.join(types)}) -> ({results})")
    for i, t in enumerate(output_types):
        lines += [f"    %u{i} = tensor.cast %y{i} : {t} to tensor<*xf32>",
                  f"    %m{i} = bufferization.to_buffer %u{i} : tensor<*xf32> to memref<*xf32>",
                  f"    call @printMemrefF32(%m{i}) : (memref<*xf32>) -> ()"]
    lines += ["    return", "  }", "  func.func private @printMemrefF32(memref<*xf32>)"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--input-shape", action="append", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--int-high", type=int, default=2)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    arguments = parser.parse_args()

    session = ort.InferenceSession(arguments.model, providers=["CPUExecutionProvider"])
    declared = {i.name: i.type for i in session.get_inputs()}
    rng = np.random.default_rng(arguments.seed)
    feeds = {}
    for text in arguments.input_shape:
        name, dims = text.split("=")
        shape = [int(d) for d in dims.split("x")]
        if declared[name] == "tensor(float)":
            feeds[name] = rng.standard_normal(shape).astype(np.float32)
        elif declared[name] in ("tensor(int64)", "tensor(int32)"):
            dtype = np.int64 if declared[name] == "tensor(int64)" else np.int32
            feeds[name] = rng.integers(0, arguments.int_high, shape).astype(dtype)
        else:
            raise SystemExit(f"input {name}: {declared[name]} is not supported here")
    # Glow's function takes the inputs in the model's order.
    order = [i.name for i in session.get_inputs() if i.name in feeds]
    expected = session.run(None, feeds)

    binaries = pathlib.Path(arguments.bin)
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        imported = folder / "model.mlir"
        shapes = [flag for text in arguments.input_shape for flag in ("--input-shape", text)]
        subprocess.run([binaries / "glow-import", arguments.model, *shapes, "-o", imported],
                       check=True)
        text = imported.read_text()
        signature = re.search(r"func\.func @main\(.*\) -> \(?(.*?)\)? \{", text)
        outputs = re.findall(r"tensor<[^>]*>", signature.group(1))
        entry = entry_function([feeds[n] for n in order], outputs)
        end = text.index("\n}\n")
        (folder / "entry.mlir").write_text(text[:end] + "\n" + entry + text[end:])
        subprocess.run([binaries / "glow-opt", folder / "entry.mlir", "--glow-cpu-pipeline",
                        "-o", folder / "llvm.mlir"], check=True)
        libs = ",".join(str(LLVM / "lib" / f) for f in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        run = subprocess.run([LLVM / "bin" / "mlir-runner", folder / "llvm.mlir", "-e",
                              "glow_entry", "-entry-point-result=void", f"-shared-libs={libs}"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"mlir-runner failed:\n{run.stderr.strip()[:2000]}")
            return 1

    printed = run.stdout.split("Unranked Memref")[1:]
    worst = 0.0
    for i, (block, reference) in enumerate(zip(printed, expected)):
        values = np.array([float(v) for v in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?|nan|inf",
                                                        block.split("data =", 1)[1])],
                          dtype=np.float64)
        reference = reference.astype(np.float64).ravel()
        if values.size != reference.size:
            print(f"output {i}: {values.size} values printed, {reference.size} expected")
            return 1
        # printMemrefF32 prints 6 significant digits: compare within that precision.
        difference = np.max(np.abs(values - reference))
        scale = np.max(np.abs(reference))
        ratio = difference / scale if scale else difference
        worst = max(worst, ratio)
        print(f"output {i}: {reference.size} values, max |glow - ort| = {difference:.3g}, "
              f"max |ort| = {scale:.3g}, ratio = {ratio:.3g}")
    print(f"{'PASS' if worst <= arguments.tolerance else 'FAIL'}: worst ratio {worst:.3g} "
          f"(bound {arguments.tolerance:g})")
    return 0 if worst <= arguments.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
