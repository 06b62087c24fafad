// glow-compile --threads N: the bundle's kernels run on N OpenMP threads. The object
// then calls LLVM's OpenMP runtime, and the header and manifest say how to link it;
// results are the same bits as the sequential bundle's and glow-run's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn %t/cnn.onnx
// RUN: glow-compile %t/cnn.onnx -o %t/two --name cnn --threads 2 | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: bundle cnn: {{.*}}cnn.o
// RUN: llvm-nm %t/two/cnn.o | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS-DAG: T cnn
// SYMBOLS-DAG: U __kmpc_fork_call
// SYMBOLS-DAG: U __kmpc_push_num_threads
// RUN: FileCheck %s --check-prefix=HEADER < %t/two/cnn.h
// HEADER: // Link cnn.o with -lm and LLVM's OpenMP runtime: -L{{.*}} -lomp
// HEADER: #define CNN_THREADS 2
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/two/cnn.json
// MANIFEST: "libraries": [
// MANIFEST-NEXT: "m",
// MANIFEST-NEXT: "omp"
// MANIFEST: "library_dirs": [
// MANIFEST: "threads": 2,

// The default is one thread: sequential code that links libm only.
// RUN: glow-compile %t/cnn.onnx -o %t/one --name cnn
// RUN: llvm-nm %t/one/cnn.o | FileCheck %s --check-prefix=SEQUENTIAL
// SEQUENTIAL-NOT: __kmpc
// RUN: FileCheck %s --check-prefix=ONE < %t/one/cnn.h
// ONE: // Link cnn.o with -lm.
// ONE: #define CNN_THREADS 1

// A C program linked with the manifest's libraries prints what glow-run computes on
// two threads and on one (float and int8, the same bits: no reduction is split).
// RUN: %python %S/../../python/check_bundle.py %t/cnn.onnx --input x --output y --bin %glow_bin --threads 2 --tolerance 1e-6 | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../../python/check_bundle.py %t/cnn.onnx --input x --output y --bin %glow_bin --threads 1 --tolerance 1e-6 | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn-int8 %t/cnn-int8.onnx
// RUN: %python %S/../../python/check_bundle.py %t/cnn-int8.onnx --input x --output y --bin %glow_bin --threads 2 --tolerance 1e-6 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS

// A thread count out of range: one line, exit 2 (clap), no bundle.
// RUN: not glow-compile %t/cnn.onnx -o %t/zero --threads 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not test -e %t/zero
// ZERO: error: invalid value '0' for '--threads <THREADS>': 0 is not in 1..=1024
