//! .npy bytes through glow-run's reader (header, dtype, declared size checked against
//! the bytes present): Ok or an error, never a crash, panic or oversized allocation.
#![no_main]

use glow_runtime::tensor::HostTensor;
use libfuzzer_sys::fuzz_target;

glow_fuzz::libfuzzer_main!();

fuzz_target!(|data: &[u8]| {
    if let Ok(tensor) = HostTensor::from_npy_bytes(data, "fuzz.npy") {
        // Every element is readable.
        let _ = tensor.values();
    }
});
