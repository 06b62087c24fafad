"""Builds a glow-compile bundle of a one-input, one-output float model, links
examples/bundle/classify.c against it with the system C compiler, runs it on seeded
random input, and checks that it prints the same top-5 classes as glow-run on the same
input, with every output within --tolerance x max |glow-run| of glow-run's. With
--threads N the bundle runs its kernels on N OpenMP threads and the program links the
libraries its manifest (NAME.json) names.

Usage: check_bundle.py MODEL --input NAME --output NAME [--input-shape NAME=DIMS]
                       [--function F] [--bin DIR] [--tolerance 1e-4] [--keep DIR]
                       [--threads N]
"""
import json
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent


def c_identifier(text):
    identifier = re.sub(r"[^A-Za-z0-9]", "_", text)
    return "_" + identifier if not identifier or identifier[0].isdigit() else identifier


def run(command, **kwargs):
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, command))} failed:\n{result.stderr.strip()}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--input", required=True, help="the input's name")
    parser.add_argument("--output", required=True, help="the output's name")
    parser.add_argument("--input-shape", action="append", default=[])
    parser.add_argument("--function", default="main")
    parser.add_argument("--bin", default=str(ROOT / "target" / "debug"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--keep", help="build in this folder and keep it")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of the bundle's kernels (glow-compile --threads)")
    arguments = parser.parse_args()

    model = pathlib.Path(arguments.model)
    name = c_identifier(model.stem)
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(arguments.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        shapes = sum((["--input-shape", s] for s in arguments.input_shape), [])
        binaries = pathlib.Path(arguments.bin)
        print(run([binaries / "glow-compile", model, "-o", folder, "--name", name,
                   "--function", arguments.function, "--threads", arguments.threads]
                  + shapes).strip())
        manifest = json.loads((folder / f"{name}.json").read_text())
        link = [f"-L{d}" for d in manifest["library_dirs"]]
        link += [f"-Wl,-rpath,{d}" for d in manifest["library_dirs"]]
        link += [f"-l{library}" for library in manifest["libraries"]]

        header = (folder / f"{name}.h").read_text()
        prefix = name.upper()
        input_macro = c_identifier(arguments.input).upper()
        count = int(re.search(rf"#define {prefix}_{input_macro}_COUNT (\d+)", header).group(1))
        shape_line = re.search(rf'// input "{re.escape(arguments.input)}": float \[([0-9, ]+)\]',
                               header)
        shape = [int(d) for d in shape_line.group(1).split(",")]
        assert np.prod(shape) == count
        data = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        data.tofile(folder / "input.f32")
        np.save(folder / "input.npy", data)

        program = folder / "classify"
        run(["cc", "-O2", "-std=c11", "-I", folder, f'-DBUNDLE_HEADER="{name}.h"',
             f"-DBUNDLE={name}", f"-DPREFIX={prefix}", f"-DINPUT={input_macro}",
             f"-DOUTPUT={c_identifier(arguments.output).upper()}",
             ROOT / "examples" / "bundle" / "classify.c", folder / f"{name}.o"] + link
            + ["-o", program])
        printed = run([program, folder / f"{name}.weights", folder / "input.f32"])
        bundle_top = [int(m) for m in re.findall(r"^top\d (\d+)", printed, re.M)]
        bundle_values = np.array([float(v) for v in re.findall(r"^value \d+ (\S+)", printed, re.M)],
                                 dtype=np.float64)

        run([binaries / "glow-run", model, "--function", arguments.function,
             "--input", f"{arguments.input}={folder / 'input.npy'}",
             "--output-dir", folder / "glow-run", "--threads", arguments.threads] + shapes)
        output_file = re.sub(r"[^A-Za-z0-9_.-]", "_", arguments.output) + ".npy"
        expected = np.load(folder / "glow-run" / output_file).astype(np.float64).ravel()
        expected_top = [int(i) for i in np.argsort(-expected, kind="stable")[:5]]

        print(f"bundle top-5:   {bundle_top}")
        print(f"glow-run top-5: {expected_top}")
        if len(bundle_values) != len(expected):
            print(f"FAIL: the bundle printed {len(bundle_values)} values, glow-run {len(expected)}")
            return 1
        difference = float(np.max(np.abs(bundle_values - expected)))
        scale = float(np.max(np.abs(expected))) or 1.0
        print(f"max |bundle - glow-run| = {difference:.3g}, max |glow-run| = {scale:.3g}")
        if bundle_top != expected_top[:len(bundle_top)]:
            print("FAIL: the top-5 differ")
            return 1
        if difference > arguments.tolerance * scale:
            print(f"FAIL: outputs differ by more than {arguments.tolerance} x max |glow-run|")
            return 1
        print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
