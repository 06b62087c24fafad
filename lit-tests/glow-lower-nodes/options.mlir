// Bad options of glow-lower-nodes are rejected while the pipeline is parsed, with
// the pass's own message.
// RUN: not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=conv9}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-NODE
// RUN: not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{bogus=1}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OPTION
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodes{keep=batch_norm,fully_connected}))' | FileCheck %s --check-prefix=KEEP-BOTH
// The pass is anchored on func.func: scheduling it on the module is an error.
// RUN: not glow-opt %s --pass-pipeline='builtin.module(glow-lower-nodes)' 2>&1 | FileCheck %s --check-prefix=ANCHOR

// UNKNOWN-NODE: error: invalid options for pass 'glow-lower-nodes': 'keep' names 'conv9', which this pass does not lower; lowered node kinds: fully_connected, batch_norm
// UNKNOWN-OPTION: no such option bogus
// KEEP-BOTH: glow.graph.fully_connected
// ANCHOR: Can't add pass 'glow-lower-nodes' restricted to 'func.func' on a PassManager intended to run on 'builtin.module', did you intend to nest?

func.func @fc(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %y = glow.graph.fully_connected %x, %w, %b : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
