// glow-compile: a bundle (object, weights, header) of a tiny CNN; a C program linked
// against it prints the same outputs as glow-run (python/check_bundle.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: glow-compile %S/Inputs/tiny-cnn.mlir -o %t --name tiny | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: bundle tiny: {{.*}}tiny.o (1152 bytes of weights, 832 of inputs/outputs, 3264 of activations)

// The weights file holds the conv filter (864 bytes), bias (32) and the fully
// connected matrix (160), each at a 64-byte aligned offset.
// RUN: wc -c < %t/tiny.weights | FileCheck %s --check-prefix=WEIGHTS
// WEIGHTS: 1152

// RUN: FileCheck %s --check-prefix=HEADER < %t/tiny.h
// HEADER: #define TINY_ALIGNMENT 64
// HEADER: #define TINY_CONSTANT_WEIGHTS_SIZE 1152
// HEADER: #define TINY_MUTABLE_WEIGHTS_SIZE 832
// HEADER: #define TINY_ACTIVATIONS_SIZE 3264
// HEADER: // input "input0": float [1, 3, 8, 8]
// HEADER: #define TINY_INPUT0_OFFSET 0
// HEADER: #define TINY_INPUT0_COUNT 192
// HEADER: // output "output0": float [1, 5]
// HEADER: #define TINY_OUTPUT0_OFFSET 768
// HEADER: #define TINY_OUTPUT0_COUNT 5
// HEADER: void tiny(uint8_t *constant_weights, uint8_t *mutable_weights, uint8_t *activations);

// The object defines the entry and needs nothing but libc / libm: no allocation, no
// MLIR runtime.
// RUN: llvm-nm %t/tiny.o | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS: T tiny
// SYMBOLS-NOT: malloc
// SYMBOLS-NOT: memrefCopy

// It exports the entry point and the status function only (kernels and the
// runtime-check helper are internal), so two bundles link into one program.
// RUN: llvm-nm --defined-only --extern-only %t/tiny.o | FileCheck %s --check-prefix=EXPORTED
// EXPORTED: T tiny
// EXPORTED-NEXT: T tiny_status
// EXPORTED-NOT: T
// RUN: glow-compile %S/Inputs/tiny-cnn.mlir -o %t/second --name second
// RUN: %python -c "open('%t/both.c', 'w').write('#include <stdint.h>\nvoid tiny(uint8_t *, uint8_t *, uint8_t *);\nvoid second(uint8_t *, uint8_t *, uint8_t *);\nint main(void) { void (*f[])(uint8_t *, uint8_t *, uint8_t *) = {tiny, second}; return f[0] == f[1]; }\n')"
// RUN: cc %t/both.c %t/tiny.o %t/second/second.o -lm -o %t/both
// RUN: %t/both

// RUN: %python %S/../../python/check_bundle.py %S/Inputs/tiny-cnn.mlir --input input0 --output output0 --bin %glow_bin | FileCheck %s --check-prefix=EXEC
// EXEC: bundle top-5:   [2, 3, 4, 1, 0]
// EXEC-NEXT: glow-run top-5: [2, 3, 4, 1, 0]
// EXEC: PASS

// --memory-report: the line scripts read, then the details (the lower bound is the
// most bytes alive at one time; the tiny CNN's plan meets it).
// RUN: glow-compile %S/Inputs/tiny-cnn.mlir -o %t --name tiny --memory-report --memory-plot %t/tiny-arena.png | FileCheck %s --check-prefix=MEMORY
// RUN: %python -c "import sys; print(open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n')" %t/tiny-arena.png | FileCheck %s --check-prefix=PLOT
// PLOT: True
// MEMORY: bundle tiny:
// MEMORY-NEXT: {{^}}activations: planned 3264 bytes, lower bound 3264 bytes{{$}}
// MEMORY-NEXT: {{^}}activation buffers: 3392 bytes if none shared memory; placement: first fit in program order
// MEMORY-NEXT: {{^}}weights: 1152 bytes; inputs and outputs: 832 bytes
// MEMORY-NEXT: {{^}}largest buffers live at the peak: {{.*}}tiny-cnn.mlir:7:8: 2048 bytes, {{.*}}: 1200 bytes
// MEMORY-NEXT: {{^}}peak resident memory: after import {{[0-9.]+}} MB, after the graph stages {{[0-9.]+}} MB, after the buffer pipeline {{[0-9.]+}} MB, after weight extraction {{[0-9.]+}} MB, after lowering to LLVM {{[0-9.]+}} MB, after code generation {{[0-9.]+}} MB{{$}}
