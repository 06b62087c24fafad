// glow-time-layers: each top-level working op of a public function (loops, linalg ops,
// copies) is bracketed by glow_layer_begin(N) / glow_layer_end(N); allocations, views,
// constants and the terminator are not layers; the names go to glow.layers, in order.
// RUN: glow-opt %s --glow-time-layers | FileCheck %s

// CHECK: module attributes {glow.layers = ["linalg.fill fill", "scf.for {{.*}}layers.mlir:{{[0-9]+}}:3", "memref.copy copy"]}
// CHECK-LABEL: func.func @main
// CHECK: memref.alloc
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: call @glow_layer_begin(%[[ZERO]]) : (i64) -> ()
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: call @glow_layer_end(%[[ZERO]]) : (i64) -> ()
// CHECK: call @glow_layer_begin
// CHECK-NEXT: scf.for
// CHECK: call @glow_layer_end
// CHECK: call @glow_layer_begin
// CHECK-NEXT: memref.copy
// CHECK-NEXT: call @glow_layer_end
// CHECK-NEXT: return
// The private helper is not instrumented.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: glow_layer_begin
// CHECK: func.func private @glow_layer_begin(i64)
// CHECK: func.func private @glow_layer_end(i64)
func.func @main(%out: memref<4xf32>) {
  %buffer = memref.alloc() : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buffer : memref<4xf32>) loc("fill")
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %buffer[%i] : memref<4xf32>
  }
  memref.copy %buffer, %out : memref<4xf32> to memref<4xf32> loc("copy")
  return
}

func.func private @helper(%x: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
  return
}
