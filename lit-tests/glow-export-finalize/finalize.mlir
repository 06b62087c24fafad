// glow-export-finalize: runtime index checks are erased (the indices they guard are
// clamped already) and any Glow op left is refused with a located error.
// RUN: glow-opt %s --split-input-file --verify-diagnostics --glow-export-finalize | FileCheck %s

// CHECK-LABEL: func.func @checked
// CHECK-NOT: glow.instr.check
// CHECK: return
func.func @checked(%ok: i1) -> i1 {
  glow.instr.check %ok message "node 'embed' (gather): an index is outside [-4, 3]"
  return %ok : i1
}

// -----

func.func @unlowered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'glow.graph.relu' has no upstream form: glow-export-linalg cannot express it}}
  %y = glow.graph.relu %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
