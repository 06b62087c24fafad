"""Runs an ONNX model through Glow (glow-import -> glow-opt --glow-cpu-pipeline ->
mlir-runner) and through onnxruntime on the same deterministic input, and compares
every output: max |glow - ort| and that divided by max |ort| (the issue's 1e-4 bound).

Usage: compare_with_onnxruntime.py MODEL.onnx --input-shape NAME=AxBxC [--seed N]
                                   [--bin DIR] [--tolerance 1e-4]

This is the interim execution path until glow-run exists: the model's function is
called from a small entry function that feeds constants and prints each output with
MLIR's runtime library (printMemrefF32); mlir-runner JIT-compiles the LLVM dialect.
Single float32 input models only.
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


def hexfloat_dense(array):
    """An MLIR dense attribute holding `array` exactly (hex of the raw bytes)."""
    return 'dense<"0x' + array.astype("<f4").tobytes().hex().upper() + '">'


def entry_function(input_shape, output_types):
    dims = "x".join(map(str, input_shape))
    lines = ["  func.func @glow_entry() {",
             f"    %x = arith.constant INPUT : tensor<{dims}xf32>"]
    results = ", ".join(output_types)
    names = ", ".join(f"%y{i}" for i in range(len(output_types)))
    lines.append(f"    {names} = call @main(%x) : (tensor<{dims}xf32>) -> ({results})")
    for i, t in enumerate(output_types):
        lines += [f"    %u{i} = tensor.cast %y{i} : {t} to tensor<*xf32>",
                  f"    %m{i} = bufferization.to_buffer %u{i} : tensor<*xf32> to memref<*xf32>",
                  f"    call @printMemrefF32(%m{i}) : (memref<*xf32>) -> ()"]
    lines += ["    return", "  }", "  func.func private @printMemrefF32(memref<*xf32>)"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--input-shape", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    arguments = parser.parse_args()

    name, dims = arguments.input_shape.split("=")
    shape = [int(d) for d in dims.split("x")]
    data = np.random.default_rng(arguments.seed).standard_normal(shape).astype(np.float32)

    expected = ort.InferenceSession(arguments.model, providers=["CPUExecutionProvider"]).run(
        None, {name: data})

    binaries = pathlib.Path(arguments.bin)
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        imported = folder / "model.mlir"
        subprocess.run([binaries / "glow-import", arguments.model, "--input-shape",
                        arguments.input_shape, "-o", imported], check=True)
        text = imported.read_text()
        signature = re.search(r"func\.func @main\(.*\) -> \(?(.*?)\)? \{", text)
        outputs = re.findall(r"tensor<[^>]*>", signature.group(1))
        entry = entry_function(shape, outputs).replace("INPUT", hexfloat_dense(data))
        end = text.index("\n}\n")
        (folder / "entry.mlir").write_text(text[:end] + "\n" + entry + text[end:])
        subprocess.run([binaries / "glow-opt", folder / "entry.mlir", "--glow-cpu-pipeline",
                        "-o", folder / "llvm.mlir"], check=True)
        libs = ",".join(str(LLVM / "lib" / f) for f in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        run = subprocess.run([LLVM / "bin" / "mlir-runner", folder / "llvm.mlir", "-e",
                              "glow_entry", "-entry-point-result=void", f"-shared-libs={libs}"],
                             check=True, capture_output=True, text=True)

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
