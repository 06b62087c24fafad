// An int8 bundle of an ONNX model from a glow-run profile: the profile names the
// input by its ONNX name ('x'), which glow-compile must still see when it quantizes
// (it used to drop the names first and fail with "value 'input0' is not in profile").
// The manifest (NAME.json) describes the ports for loaders without a C compiler.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../glow-import/Inputs/models.py small-cnn %t/model.onnx
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); np.savez('%t/calibration.npz', x=r.standard_normal((8, 1, 3, 16, 16)).astype(np.float32))"
// RUN: glow-run %t/model.onnx --calibration %t/calibration.npz --dump-profile %t/profile.yaml
// RUN: glow-compile %t/model.onnx --load-profile %t/profile.yaml -o %t/bundle --name cnn | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: bundle cnn: {{.*}}cnn.o
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/bundle/cnn.json
// MANIFEST: "format": "glow-bundle",
// MANIFEST: "inputs": [
// MANIFEST: "element_type": "f32",
// MANIFEST: "name": "x",
// MANIFEST: "npy_descr": "<f4",
// MANIFEST: "offset": 0,
// MANIFEST: "outputs": [
// MANIFEST: "name": "y",
// MANIFEST: "status": "cnn_status",
