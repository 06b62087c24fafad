"""Checks glow-run's adaptive_avg_pool outputs against PyTorch's window rule."""
import math
import sys

import numpy as np

x = np.load(sys.argv[1]).astype(np.float64)
for k, path in enumerate(sys.argv[2:]):
    y = np.load(path)
    oh, ow = y.shape[2:]
    h, w = x.shape[2:]
    expected = np.zeros(y.shape)
    for i in range(oh):
        r0, r1 = i * h // oh, math.ceil((i + 1) * h / oh)
        for j in range(ow):
            c0, c1 = j * w // ow, math.ceil((j + 1) * w / ow)
            expected[:, :, i, j] = x[:, :, r0:r1, c0:c1].mean(axis=(2, 3))
    error = np.abs(y - expected).max()
    verdict = "within 1e-6" if error <= 1e-6 else f"{error:.3g} (too large)"
    print(f"output {k} ({oh}, {ow}): max |error| {verdict}")
