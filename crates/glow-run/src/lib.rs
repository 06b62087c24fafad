//! The command-line front ends' shared parts: the quantization options both tools take
//! ([`options`]) and output that ends quietly on a closed pipe ([`output`]). Everything
//! else lives in the runtime library, `glow_runtime`.

pub mod options;
pub mod output;
