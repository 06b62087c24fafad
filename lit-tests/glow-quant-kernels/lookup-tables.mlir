// glow-quant-kernels{lookup-tables=vbmi}: an 8-bit lookup table of 64 elements or more
// becomes a call of a kernel that looks up 64 bytes at a time with two
// glow.quant.permute_bytes (vpermi2b after glow-lower-dot4; the table in four 64-byte
// vectors) and picks by the index's top bit; 800 elements are 12
// whole pieces in a forall and the last 64 bytes once more. uint8 indices take entries
// 128-255 when the top bit is set, int8 ones entries 0-127. `gather` (and, with the
// default `host`, an isa whose CPUs may lack VBMI) leave the op; so does a tensor of
// fewer than 64 elements.
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{lookup-tables=vbmi})' | FileCheck %s
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{lookup-tables=gather})' | FileCheck %s --check-prefix=GATHER
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{isa=avx512-vnni})' | FileCheck %s --check-prefix=GATHER
// RUN: glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{lookup-tables=vbmi},glow-lower-dot4)' | FileCheck %s --check-prefix=INTRINSIC
// INTRINSIC-LABEL: func.func @unsigned
// INTRINSIC: llvm.call_intrinsic "llvm.x86.avx512.vpermi2var.qi.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<64xi8>, vector<64xi8>, vector<64xi8>) -> vector<64xi8>
// INTRINSIC-NOT: glow.quant.permute_bytes
// RUN: not glow-opt %s --split-input-file --pass-pipeline='builtin.module(glow-quant-kernels{lookup-tables=maybe})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: 'lookup-tables' is 'maybe'; expected host, vbmi or gather

!x = !quant.uniform<u8:f32, 0.05:128>
!y = !quant.uniform<u8:f32, 0.02:3>

// CHECK-LABEL: func.func @unsigned
// CHECK: %[[FLAT:.*]] = glow.graph.reshape %arg0 : tensor<1x10x10x8x!quant.uniform{{.*}}> -> tensor<800x!quant.uniform
// CHECK: %[[BYTES:.*]] = quant.scast %[[FLAT]] {{.*}} to tensor<800xi8>
// CHECK: %[[Y:.*]] = call @[[K:glow_int8_kernel_[0-9]+]](%[[BYTES]], %{{.*}}) : (tensor<800xi8>, tensor<800xi8>) -> tensor<800xi8>
// CHECK: glow.graph.reshape %{{.*}} : tensor<800x!quant.uniform{{.*}}> -> tensor<1x10x10x8x!quant.uniform
// CHECK: func.func private @[[K]](%{{.*}}: tensor<800xi8>, %{{.*}}: tensor<800xi8>) -> tensor<800xi8>
// CHECK-COUNT-4: arith.constant dense<{{.*}}> : vector<64xi8>
// CHECK: scf.forall (%{{.*}}) in (12)
// CHECK: %[[LOW:.*]] = glow.quant.permute_bytes %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK: %[[HIGH:.*]] = glow.quant.permute_bytes %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK: %[[TOP:.*]] = arith.cmpi slt
// CHECK: arith.select %[[TOP]], %[[HIGH]], %[[LOW]] : vector<64xi1>, vector<64xi8>
// CHECK: scf.forall.in_parallel
// CHECK: arith.constant 736 : index
// CHECK: tensor.insert_slice %{{.*}}[%{{.*}}] [64] [1] : tensor<64xi8> into tensor<800xi8>
// GATHER-LABEL: func.func @unsigned
// GATHER: glow.quant.lookup_table
// GATHER-NOT: permute_bytes
func.func @unsigned(%x: tensor<1x10x10x8x!x>) -> tensor<1x10x10x8x!y> {
  %y = glow.quant.lookup_table %x table dense<5> : tensor<256xi8> : tensor<1x10x10x8x!x> -> tensor<1x10x10x8x!y>
  return %y : tensor<1x10x10x8x!y>
}

// -----

!x = !quant.uniform<i8:f32, 0.05:-3>
!y = !quant.uniform<i8:f32, 0.02:3>

// CHECK-LABEL: func.func @signed
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: %[[LOW:.*]] = glow.quant.permute_bytes %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK: %[[HIGH:.*]] = glow.quant.permute_bytes %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8>
// CHECK: %[[TOP:.*]] = arith.cmpi slt
// CHECK: arith.select %[[TOP]], %[[LOW]], %[[HIGH]] : vector<64xi1>, vector<64xi8>
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @signed(%x: tensor<2x64x!x>) -> tensor<2x64x!y> {
  %y = glow.quant.lookup_table %x table dense<5> : tensor<256xi8> : tensor<2x64x!x> -> tensor<2x64x!y>
  return %y : tensor<2x64x!y>
}

// -----

!x = !quant.uniform<u8:f32, 0.05:128>

// CHECK-LABEL: func.func @small
// CHECK: glow.quant.lookup_table
// CHECK-NOT: call @glow_int8_kernel
func.func @small(%x: tensor<4x8x!x>) -> tensor<4x8x!x> {
  %y = glow.quant.lookup_table %x table dense<5> : tensor<256xi8> : tensor<4x8x!x> -> tensor<4x8x!x>
  return %y : tensor<4x8x!x>
}
