// Tensors far larger than memory are refused before anything is compiled, naming the
// value: one tensor may hold at most --max-tensor-bytes (default 4 GiB), for ONNX
// models (glow-import, glow-run, glow-compile) and .mlir modules alike. The planned
// activation arena may hold at most --max-arena-bytes (default: no limit). An arena
// the system refuses (here under a 3 GB address-space limit) ends glow-run with a
// one-line error and exit code 1 before the model runs: no signal, no output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not glow-run %s --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=MLIR
// RUN: not glow-compile %s -o %t/bundle 2>&1 | FileCheck %s --check-prefix=MLIR
// MLIR: error: {{.*}}memory-limits.mlir:[[@LINE+15]]:8: a value of type tensor<40000x40000xf32> would hold 6400000000 bytes, over the limit of 4294967296 (--max-tensor-bytes)
// RUN: not ls %t/out %t/bundle
// RUN: %python %S/../glow-import/Inputs/models.py huge-intermediate %t/huge.onnx
// RUN: not glow-import %t/huge.onnx 2>&1 | FileCheck %s --check-prefix=ONNX
// RUN: not glow-run %t/huge.onnx 2>&1 | FileCheck %s --check-prefix=ONNX
// ONNX: error: node 'fill' (ConstantOfShape): output 'big': a F32 tensor of shape [1048576, 1048576] would hold 4398046511104 bytes, over the limit of 4294967296 (--max-tensor-bytes)
// RUN: not bash -c 'ulimit -v 3000000 && glow-run %s --max-tensor-bytes 10000000000 --output-dir %t/oom' 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: glow-run: error: out of memory: the model's activations need 6400000256 bytes, more than the system would give
// OOM-NOT: Segmentation
// RUN: not ls %t/oom
// RUN: not glow-run %s --max-tensor-bytes 10000000000 --max-arena-bytes 1000000 --output-dir %t/arena 2>&1 | FileCheck %s --check-prefix=ARENA
// RUN: not glow-compile %s --max-tensor-bytes 10000000000 --max-arena-bytes 1000000 -o %t/arena 2>&1 | FileCheck %s --check-prefix=ARENA
// ARENA: glow-plan-memory: the activations need 6400000256 bytes, more than the limit of 1000000 bytes
// RUN: not ls %t/arena
func.func @main(%x: tensor<1xf32> {glow.name = "x"}) -> tensor<1xf32> {
  %b = glow.graph.broadcast %x axis 0 : tensor<1xf32> -> tensor<40000x40000xf32>
  %e = glow.graph.exp %b : tensor<40000x40000xf32>
  %r = glow.graph.reduce_sum %e axes [0, 1] : tensor<40000x40000xf32> -> tensor<f32>
  %o = glow.graph.reshape %r : tensor<f32> -> tensor<1xf32>
  return %o : tensor<1xf32>
}
