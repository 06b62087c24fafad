// The export as IREE and torch-mlir read it, with no further passes: torch-mlir's
// linalg-on-tensors backend contract accepts it, iree-compile builds it for the CPU and
// iree-run-module computes the same values as glow-run (ReLU(x W + b), an embedding
// lookup with an out-of-range index clamped to the last row).
// REQUIRES: iree-compile, iree-run-module, torch-mlir-opt
// RUN: glow-opt %s --glow-export-linalg -o %t.mlir
// RUN: torch-mlir-opt %t.mlir --torch-verify-linalg-on-tensors-backend-contract -o /dev/null
// RUN: iree-compile %t.mlir --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic -o %t.vmfb
// RUN: iree-run-module --module=%t.vmfb --function=mlp --input="2x4xf32=1 2 3 4 -5 -6 -7 -8" | FileCheck %s --check-prefix=MLP
// MLP: 2x3xf32=[6 3 8][0 0 0]
// RUN: iree-run-module --module=%t.vmfb --function=embed --input="2x2xi64=0 -1 2 9" | FileCheck %s --check-prefix=EMBED
// EMBED: 2x2x2xf32={{\[\[}}0 1][6 7]]{{\[\[}}4 5][6 7]]

func.func @mlp(%x: tensor<2x4xf32> {glow.name = "x"}) -> tensor<2x3xf32> {
  %w = glow.graph.constant dense<0.5> : tensor<4x3xf32>
  %b = glow.graph.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = glow.graph.relu %y : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @embed(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x2x2xf32> {
  %table = glow.graph.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  %y = glow.graph.gather %table, %ids axis 0 : (tensor<4x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32> loc("embed")
  return %y : tensor<2x2x2xf32>
}

// Scatter (the generic form) with duplicates and a negative index: IREE computes
// ONNX's values. Row 0: ids [0, 0] add 1 + 2 onto 0.5; row 1: ids [-1, 1].
// RUN: iree-run-module --module=%t.vmfb --function=scatter --input="2x2xi64=0 0 -1 1" | FileCheck %s --check-prefix=SCATTER
// SCATTER: 2x3xf32={{\[}}3.5 0 0][0 4 3]{{$}}
func.func @scatter(%ids: tensor<2x2xi64> {glow.name = "ids"}) -> tensor<2x3xf32> {
  %x = glow.graph.constant dense<[[0.5, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %u = glow.graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y = glow.graph.scatter_elements %x, %ids, %u axis 1 reduction "add" : tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32> loc("put")
  return %y : tensor<2x3xf32>
}
