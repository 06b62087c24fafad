// An output path that is not a regular file (a FIFO here; /dev/null alike) is written
// in place: the temporary-file-and-rename used for regular files would replace it
// (run as root, `-o /dev/null` once turned the null device into a regular file).
// RUN: %python %S/Inputs/models.py cnn %t.onnx
// RUN: rm -f %t.fifo %t.out && mkfifo %t.fifo
// RUN: bash -c '(timeout 60 cat %t.fifo > %t.out) & glow-import %t.onnx --input-shape x=2x3x16x16 -o %t.fifo; wait'
// RUN: test -p %t.fifo
// RUN: FileCheck %s < %t.out
// CHECK: func.func @main
// CHECK: glow.graph.conv2d
