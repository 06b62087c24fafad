// glow-run --memory-report: after the outputs, the planned arena against the liveness
// lower bound on the line scripts read, the details, then the peak resident memory
// after each compile stage and after the runs. --memory-plot draws the arena as a PNG.
// RUN: rm -rf %t && mkdir -p %t
// RUN: glow-run %S/../glow-compile/Inputs/tiny-cnn.mlir --memory-report --memory-plot %t/arena.png | FileCheck %s
// CHECK: {{^}}activations: planned 3264 bytes, lower bound 3264 bytes{{$}}
// CHECK-NEXT: {{^}}activation buffers: 3392 bytes if none shared memory; placement: first fit in program order
// CHECK-NEXT: {{^}}weights: 1152 bytes; inputs and outputs: 832 bytes
// CHECK-NEXT: {{^}}largest buffers live at the peak:
// CHECK-NEXT: {{^}}peak resident memory: after import {{[0-9.]+}} MB, after the graph stages {{[0-9.]+}} MB, after the buffer pipeline {{[0-9.]+}} MB, after weight extraction {{[0-9.]+}} MB, after lowering to LLVM {{[0-9.]+}} MB, after code generation {{[0-9.]+}} MB, after the runs {{[0-9.]+}} MB
// CHECK-NEXT: compile {{.*}} s, run {{.*}} ms (1 run, median)
// RUN: %python -c "import sys; data = open(sys.argv[1], 'rb').read(); assert data[:8] == b'\x89PNG\r\n\x1a\n', data[:8]; print('png', len(data) > 100)" %t/arena.png | FileCheck %s --check-prefix=PNG
// PNG: png True
// A plot that cannot be written is an error, and no partial file is left.
// RUN: not glow-run %S/../glow-compile/Inputs/tiny-cnn.mlir --memory-plot %t/missing/arena.png 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: glow-run: error: cannot write '{{.*}}missing/arena.png'

// --compile-report: the time each compile stage took, before the summary line (with
// --memory-report, before the memory lines); glow-compile prints the same line.
// RUN: glow-run %S/../glow-compile/Inputs/tiny-cnn.mlir --compile-report | FileCheck %s --check-prefix=TIMES
// TIMES: {{^}}compile time: import {{[0-9]+\.[0-9][0-9]}} s, the graph stages {{[0-9.]+}} s, the buffer pipeline {{[0-9.]+}} s, weight extraction {{[0-9.]+}} s, lowering to LLVM {{[0-9.]+}} s, code generation {{[0-9.]+}} s (total {{[0-9.]+}} s){{$}}
// TIMES-NEXT: compile {{.*}} s, run {{.*}} ms (1 run, median)
// RUN: glow-compile %S/../glow-compile/Inputs/tiny-cnn.mlir -o %t/bundle --name tiny --compile-report | FileCheck %s --check-prefix=BUNDLE-TIMES
// BUNDLE-TIMES: {{^}}bundle tiny:
// BUNDLE-TIMES-NEXT: {{^}}compile time: import {{[0-9.]+}} s, {{.*}}, code generation {{[0-9.]+}} s (total {{[0-9.]+}} s){{$}}
