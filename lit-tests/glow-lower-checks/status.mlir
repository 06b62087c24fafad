// glow-lower-checks: each glow.instr.check becomes a call of glow_check with its number
// (1, 2, ...), its message goes to the module's glow.runtime_errors, and the module
// gets the status word and glow_take_status, also when it has no check. A second run
// adds nothing and renumbers nothing.
// RUN: glow-opt %s --glow-lower-checks | FileCheck %s
// RUN: glow-opt %s --glow-lower-checks --glow-lower-checks | FileCheck %s
// CHECK: module attributes {glow.runtime_errors = ["node 'a' (gather): an index is outside [-4, 3]", "node 'b' (scatter_elements): an index is outside [-2, 1]"]}
// CHECK-LABEL: func.func @f
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: call @glow_check(%arg0, %[[ONE]]) : (i1, i32) -> ()
// CHECK: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK: call @glow_check(%arg1, %[[TWO]]) : (i1, i32) -> ()
// CHECK-NOT: glow.instr.check
// CHECK: memref.global "private" @glow_status : memref<i32> = dense<0>
// CHECK: func.func private @glow_check(%{{.*}}: i1, %{{.*}}: i32)
// CHECK: func.func @glow_take_status() -> i32
// CHECK-NOT: func.func @glow_take_status

// RUN: echo 'func.func @g() { return }' | glow-opt --glow-lower-checks | FileCheck %s --check-prefix=NONE
// NONE: module attributes {glow.runtime_errors = []}
// NONE: func.func @glow_take_status() -> i32

// The status through the CPU pipeline and mlir-runner: the first failed check wins,
// reading the status clears it.
// RUN: glow-opt %S/Inputs/run.mlir --glow-lower-checks --glow-cpu-pipeline | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | FileCheck %s --check-prefix=RESULT
// RESULT: 2
// RESULT: 0

func.func @f(%a: i1, %b: i1) {
  glow.instr.check %a message "node 'a' (gather): an index is outside [-4, 3]"
  glow.instr.check %b message "node 'b' (scatter_elements): an index is outside [-2, 1]"
  return
}
