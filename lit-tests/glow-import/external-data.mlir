// External data must resolve inside the model's folder; offset + length must lie
// inside the file. Each violation is one line naming the tensor; nothing is read
// outside the folder.
// RUN: rm -rf %t && mkdir -p %t/model %t/outside
// RUN: %python %S/Inputs/models.py external:weights.bin %t/model/ok.onnx
// RUN: glow-import %t/model/ok.onnx | FileCheck %s --check-prefix=OK
// OK: glow.graph.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>

// RUN: %python %S/Inputs/models.py external:../../etc/passwd %t/model/traversal.onnx
// RUN: not glow-import %t/model/traversal.onnx 2>&1 | FileCheck %s --check-prefix=TRAVERSAL
// TRAVERSAL: glow-import: error: tensor 'w': external data location '../../etc/passwd' must be a relative path inside the model's folder

// RUN: %python %S/Inputs/models.py external:/etc/passwd %t/model/absolute.onnx
// RUN: not glow-import %t/model/absolute.onnx 2>&1 | FileCheck %s --check-prefix=ABSOLUTE
// ABSOLUTE: glow-import: error: tensor 'w': external data location '/etc/passwd' must be a relative path inside the model's folder

// RUN: cp %t/model/weights.bin %t/outside/secret.bin
// RUN: ln -s ../outside/secret.bin %t/model/link.bin
// RUN: %python %S/Inputs/models.py external:link.bin %t/model/symlink.onnx
// RUN: not glow-import %t/model/symlink.onnx 2>&1 | FileCheck %s --check-prefix=SYMLINK
// SYMLINK: glow-import: error: tensor 'w': external data location 'link.bin' resolves outside the model's folder

// RUN: head -c 8 %t/model/weights.bin > %t/model/short.bin
// RUN: %python %S/Inputs/models.py external:short.bin %t/model/short.onnx
// RUN: not glow-import %t/model/short.onnx 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: glow-import: error: tensor 'w': external data 'short.bin' offset 0 + length 16 lies past its end (8 bytes)

// RUN: %python %S/Inputs/models.py external:absent.bin %t/model/absent.onnx
// RUN: not glow-import %t/model/absent.onnx 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: glow-import: error: tensor 'w': cannot open external data 'absent.bin': No such file or directory
