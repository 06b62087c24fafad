// glow-quant-kernels{isa=amx}: a 3x3 convolution with 64 input channels becomes the
// AMX kernel, a no_inline function of its own (one tile configuration per function)
// that first asks Linux for the tile state, then reduces over the 9 taps with 2 x 2
// C tiles (2 pixel tiles of 16 rows, 2 filter blocks of 16) carried through the loop,
// tdpbusd on unsigned activations (zext), and requantizes each C tile from memory.
// The input's padding is a separate, inlinable function the call site calls first,
// so the padded input becomes a planned activation of the model's function.
// RUN: glow-opt %S/Inputs/amx-conv.mlir --pass-pipeline='builtin.module(glow-quant-kernels{isa=amx})' | FileCheck %s
// CHECK: %[[PADDED:.*]] = call @glow_int8_kernel_1_pad(
// CHECK: call @glow_int8_kernel_1(%[[PADDED]],
// CHECK-LABEL: func.func private @glow_request_amx()
// CHECK: llvm.call @syscall
// CHECK-LABEL: func.func private @glow_int8_kernel_1_pad(
// CHECK-NOT: no_inline
// CHECK: tensor.pad
// CHECK-LABEL: func.func private @glow_int8_kernel_1(
// CHECK-SAME: attributes {no_inline
// CHECK: call @glow_request_amx()
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xi32>
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (!amx.tile<16x16xi32>, !amx.tile<16x16xi32>, !amx.tile<16x16xi32>, !amx.tile<16x16xi32>)
// CHECK-COUNT-2: amx.tile_load %{{.*}}[%{{.*}}], %{{.*}} : memref<{{[0-9]+}}xi8> into !amx.tile<16x64xi8>
// CHECK-COUNT-2: amx.tile_load %{{.*}} : memref<4x144x64xi8> into !amx.tile<16x64xi8>
// CHECK-COUNT-4: amx.tile_muli %{{.*}} zext, %{{.*}}, %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK: memref.alloca_scope
// CHECK: amx.tile_store

// Through the CPU pipeline and LLVM for an AMX CPU (whatever this host is): the inner
// loop is 4 tile loads and 4 tdpbusd, no tile spilled, and the tile configuration
// is loaded once per kernel.
// RUN: glow-opt %S/Inputs/amx-conv.mlir --pass-pipeline='builtin.module(glow-quant-kernels{isa=amx},glow-cpu-pipeline)' -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: llc -O3 -mcpu=sapphirerapids %t.ll -o %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: FileCheck %s --check-prefix=NO-SPILL < %t.s
// ASM: callq syscall
// ASM: ldtilecfg
// ASM-COUNT-4: tileloadd
// ASM-NEXT: tdpbusd %tmm{{[0-9]}}, %tmm{{[0-9]}}, %tmm{{[0-9]}}
// ASM-NEXT: tdpbusd
// ASM-NEXT: tdpbusd
// ASM-NEXT: tdpbusd
// ASM: tilestored
// ASM: tilerelease
// NO-SPILL-NOT: {{tile(loadd|stored).*(Spill|Reload)}}

// A bundle of the same layer allocates nothing: no call to malloc is left, the padded
// input included (the kernels spelled as vector code, which this host can compile).
// RUN: rm -rf %t.bundle
// RUN: glow-compile %S/Inputs/amx-conv.mlir --function amx_layer --int8-kernels amx-emulated -o %t.bundle
// RUN: nm %t.bundle/amx_conv.o | FileCheck %s --check-prefix=NO-MALLOC
// NO-MALLOC-NOT: malloc
// NO-MALLOC: amx_conv_kernel
// NO-MALLOC-NOT: malloc

// An unknown instruction set is an option error naming the choices.
// RUN: not glow-opt %S/Inputs/amx-conv.mlir --pass-pipeline='builtin.module(glow-quant-kernels{isa=sse})' 2>&1 | FileCheck %s --check-prefix=BAD-ISA
// BAD-ISA: 'isa' is 'sse'; expected host, amx, avx512-vnni, generic or amx-emulated
