//! Builds `dialects/` (ODS -> C++ -> libGlowDialects.a) with CMake against Debian's
//! MLIR 22 and links only that archive: MLIR itself comes from mlir-sys's static link.
//! Also tells melior's `dialect!` macro where the `.td` files live.

use std::{env, path::PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest
        .join("../..")
        .canonicalize()
        .expect("workspace root exists");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());

    println!(
        "cargo:rerun-if-changed={}",
        root.join("CMakeLists.txt").display()
    );
    println!("cargo:rerun-if-changed={}", root.join("dialects").display());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let out = cmake::Config::new(&root)
        .generator("Ninja")
        .define("MLIR_DIR", format!("{prefix}/lib/cmake/mlir"))
        .define("LLVM_DIR", format!("{prefix}/lib/cmake/llvm"))
        .define("CMAKE_CXX_COMPILER", "g++")
        .define("CMAKE_C_COMPILER", "gcc")
        .profile("Release")
        .build_target("GlowDialects")
        .build();

    println!(
        "cargo:rustc-link-search=native={}",
        out.join("build/dialects").display()
    );
    println!("cargo:rustc-link-lib=static=GlowDialects");
    println!(
        "cargo:rustc-env=GLOW_ODS_INCLUDE_DIR={}",
        root.join("dialects/include").display()
    );
}
