# lit configuration: every .mlir file under lit-tests/ is a test run with Debian's
# LLVM 22 FileCheck / not / split-file and the project's own tools.
import os
import lit.formats

config.name = "Glow"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

root = os.path.dirname(config.test_source_root)
glow_bin = os.environ.get("GLOW_BIN_DIR", os.path.join(root, "target", "debug"))
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join([glow_bin, llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%glow_bin", glow_bin))
# The project's venv Python (onnx, numpy) builds the models the importer tests use.
config.substitutions.append(("%python", os.path.join(root, ".venv", "bin", "python")))
# IREE's compiler and runtime tools and torch-mlir-opt (pip, python/requirements.txt)
# for the export tests; without them those tests are UNSUPPORTED, listed by name.
venv_bin = os.path.join(root, ".venv", "bin")
config.environment["PATH"] = os.pathsep.join([config.environment["PATH"], venv_bin])
for tool in ("iree-compile", "iree-run-module", "torch-mlir-opt"):
    if os.path.exists(os.path.join(venv_bin, tool)):
        config.available_features.add(tool)
# MLIR's runtime libraries for mlir-runner execution tests (printMemrefF32 ...).
llvm_lib = os.path.join(os.path.dirname(llvm_bin), "lib")
config.substitutions.append(("%runner_libs", ",".join(
    os.path.join(llvm_lib, name) for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))))
# CPU features of this host, for tests of code only such CPUs run (REQUIRES: ...);
# elsewhere those tests are reported as UNSUPPORTED, not silently skipped.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
except OSError:
    flags = []
if "avx512_vnni" in flags and "avx512bw" in flags:
    config.available_features.add("avx512vnni")
if "avx512vbmi" in flags:
    config.available_features.add("avx512vbmi")
# AMX with int8 products (glow-run asks Linux for the tile state itself).
if "amx_int8" in flags and "amx_tile" in flags:
    config.available_features.add("amx")
