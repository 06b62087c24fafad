// A bundle's runtime checks: an embedding lookup (Gather on runtime token ids) built
// as a bundle and linked into the C program under AddressSanitizer. In-range ids (also
// negative ones) give the table's rows; an id outside the table makes NAME_status()
// return the check's number, the program prints the bundle's message and exits 1, and
// AddressSanitizer reports nothing: the out-of-range id was never used to address
// memory.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py embedding %t/embed.onnx
// RUN: glow-compile %t/embed.onnx -o %t/out
// RUN: FileCheck %s --check-prefix=HEADER < %t/out/embed.h
// HEADER: int embed_status(void);
// HEADER: #define EMBED_ERROR_COUNT 1
// HEADER: "node 'embed' (gather): an index is outside [-10, 9]",
// RUN: cc -O1 -g -fsanitize=address -fno-omit-frame-pointer -I %t/out -DBUNDLE_HEADER='"embed.h"' -DBUNDLE=embed -DPREFIX=EMBED -DINPUT=IDS -DOUTPUT=Y %S/../../examples/bundle/classify.c %t/out/embed.o -lm -o %t/classify
// RUN: %python -c "import numpy as np; np.array([[0, 9, -1], [3, -10, 2]], np.int64).tofile('%t/ok.bin'); np.array([[0, 10, 1], [3, 4, 2]], np.int64).tofile('%t/high.bin'); np.array([[0, 1, 1], [3, -11, 1 << 40]], np.int64).tofile('%t/wild.bin')"
// RUN: %t/classify %t/out/embed.weights %t/ok.bin 2>&1 | FileCheck %s --check-prefix=OK
// OK: top1 7 39
// OK-NOT: AddressSanitizer
// RUN: not %t/classify %t/out/embed.weights %t/high.bin 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not %t/classify %t/out/embed.weights %t/wild.bin 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: classify: node 'embed' (gather): an index is outside [-10, 9]
// REFUSED-NOT: AddressSanitizer

// The other ops that index by data, each a bundle under AddressSanitizer with wild
// indices (out of range both ways, 2^40): gather_elements and scatter_elements.
// RUN: %python -c "import numpy as np; np.array([[0, 2], [-3, 1]], np.int64).tofile('%t/ok2.bin'); np.array([[0, 3], [-4, 1 << 40]], np.int64).tofile('%t/wild2.bin')"
// RUN: glow-compile %S/../glow-run/index-out-of-range.mlir --function gather_elements --name pick -o %t/pick
// RUN: cc -O1 -g -fsanitize=address -fno-omit-frame-pointer -I %t/pick -DBUNDLE_HEADER='"pick.h"' -DBUNDLE=pick -DPREFIX=PICK -DINPUT=IDS -DOUTPUT=OUTPUT0 %S/../../examples/bundle/classify.c %t/pick/pick.o -lm -o %t/classify-pick
// RUN: %t/classify-pick %t/pick/pick.weights %t/ok2.bin 2>&1 | FileCheck %s --check-prefix=PICK-OK
// PICK-OK: top1
// PICK-OK-NOT: AddressSanitizer
// RUN: not %t/classify-pick %t/pick/pick.weights %t/wild2.bin 2>&1 | FileCheck %s --check-prefix=PICK
// PICK: classify: node 'pick' (gather_elements): an index is outside [-3, 2]
// PICK-NOT: AddressSanitizer
// RUN: glow-compile %S/../glow-run/index-out-of-range.mlir --function scatter --name put -o %t/put
// RUN: cc -O1 -g -fsanitize=address -fno-omit-frame-pointer -I %t/put -DBUNDLE_HEADER='"put.h"' -DBUNDLE=put -DPREFIX=PUT -DINPUT=IDS -DOUTPUT=OUTPUT0 %S/../../examples/bundle/classify.c %t/put/put.o -lm -o %t/classify-put
// RUN: %t/classify-put %t/put/put.weights %t/ok2.bin 2>&1 | FileCheck %s --check-prefix=PUT-OK
// PUT-OK: top1
// PUT-OK-NOT: AddressSanitizer
// RUN: not %t/classify-put %t/put/put.weights %t/wild2.bin 2>&1 | FileCheck %s --check-prefix=PUT
// PUT: classify: node 'put' (scatter_elements): an index is outside [-3, 2]
// PUT-NOT: AddressSanitizer
