"""Compares lit-tests/glow-run/small-powers.mlir's outputs with libm's powf, element by
element: within 2e-7 relative (x^3 as two products may round once more), the same
NaNs, infinities and signs (of numbers). Prints `k <close> <same signs>` per output."""
import ctypes
import ctypes.util
import sys

import numpy as np

libm = ctypes.CDLL(ctypes.util.find_library("m"))
libm.powf.restype = ctypes.c_float
libm.powf.argtypes = [ctypes.c_float, ctypes.c_float]
x = np.load(sys.argv[1])
for k, power in enumerate([3.0, 2.0, 0.5]):
    got = np.load(f"{sys.argv[2]}/output{k}.npy")
    expected = np.array([libm.powf(float(v), power) for v in x], np.float32)
    close = np.allclose(got, expected, rtol=2e-7, atol=0, equal_nan=True)
    numbers = ~np.isnan(expected)  # a NaN's sign bit means nothing
    print(k, close, np.array_equal(np.signbit(got[numbers]), np.signbit(expected[numbers])))
