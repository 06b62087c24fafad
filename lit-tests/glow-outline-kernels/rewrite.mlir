// Each top-level op with regions of a public function moves into a private noinline
// kernel function called in its place; kernels with the same text are one function.
// RUN: glow-opt %s --glow-outline-kernels | FileCheck %s
// The result still verifies, lowers to LLVM with bare-pointer buffers and runs.
// RUN: glow-opt %s --glow-outline-kernels --convert-linalg-to-loops --convert-scf-to-cf \
// RUN:   --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-arith-to-llvm \
// RUN:   --convert-func-to-llvm=use-bare-ptr-memref-call-conv=true --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

#id = affine_map<(d0) -> (d0)>

// Two loops of one shape over different views of the arena: one kernel, called twice
// with the views as arguments; the constants are re-created inside it.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[ARENA:.*]]: memref<256xi8>
// CHECK-DAG: %[[A:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<256xi8> to memref<16xf32>
// CHECK-DAG: %[[B:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<256xi8> to memref<16xf32>
// CHECK-DAG: %[[C:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<256xi8> to memref<16xf32>
// CHECK: call @[[DOUBLE:main_kernel_[0-9]+]](%[[A]], %[[B]]) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK: call @[[DOUBLE]](%[[B]], %[[C]]) : (memref<16xf32>, memref<16xf32>) -> ()
// A loop over a strided subview: the subview is re-created inside the kernel, which
// takes the identity-layout view it slices.
// CHECK: call @[[SLICE:main_kernel_[0-9]+]](%[[C]]) : (memref<16xf32>) -> ()
// A loop with a result: the kernel returns it.
// CHECK: %[[SUM:.*]] = call @[[REDUCE:main_kernel_[0-9]+]](%[[A]]) : (memref<16xf32>) -> f32
// CHECK: return %[[SUM]] : f32
func.func @main(%arena: memref<256xi8>) -> f32 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] : memref<256xi8> to memref<16xf32>
  %c = memref.view %arena[%c128][] : memref<256xi8> to memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.mulf %in, %two : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.mulf %in, %two : f32
    linalg.yield %d : f32
  }
  %odd = memref.subview %c[1] [8] [2] : memref<16xf32> to memref<8xf32, strided<[2], offset: 1>>
  scf.for %i = %c0 to %c16 step %c16 {
    linalg.fill ins(%zero : f32) outs(%odd : memref<8xf32, strided<[2], offset: 1>>)
  }
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%i] : memref<16xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

// CHECK: func.func private @[[DOUBLE]](%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>) attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: linalg.generic
// CHECK-SAME: ins(%[[IN]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>)
// CHECK: arith.mulf %{{.*}}, %[[TWO]] : f32
// CHECK: return

// CHECK: func.func private @[[SLICE]](%[[WHOLE:.*]]: memref<16xf32>)
// CHECK: memref.subview %[[WHOLE]][1] [8] [2]
// CHECK: linalg.fill

// CHECK: func.func private @[[REDUCE]](%{{.*}}: memref<16xf32>) -> f32
// CHECK: %[[R:.*]] = scf.for
// CHECK: return %[[R]] : f32

// Private functions and glow_ helpers are not outlined from.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: call
// CHECK: scf.for
func.func private @helper(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f, %m[%i] : memref<4xf32>
  }
  return
}

// LLVM: llvm.func @main(%{{.*}}: !llvm.ptr) -> f32
// LLVM: llvm.call @main_kernel_{{[0-9]+}}(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
// LLVM: llvm.func @main_kernel_{{[0-9]+}}(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"}
