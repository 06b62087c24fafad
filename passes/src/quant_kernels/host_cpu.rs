//! What the CPU running the compiler offers the int8 kernels: AVX-512 VNNI and VBMI, and AMX
//! tiles with int8 products once Linux grants this process the tile state.

/// Whether the CPU running this process has AVX-512 VNNI (and the AVX-512 BW its
/// kernels' byte shuffles need).
pub fn host_has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vnni")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU running this process has AVX-512 VBMI (`vpermi2b`, the lookup
/// kernels' byte permutes).
pub fn host_has_vbmi() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this process can run AMX int8 code: the CPU reports AMX-TILE and AMX-INT8
/// (CPUID leaf 7, EDX bits 24 and 25) and Linux grants the tile data state
/// (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`, which this asks for; the
/// grant lasts for the process, so JIT-compiled kernels can use the tiles).
pub fn host_has_amx() -> bool {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        // CPUID is available on every x86-64 CPU; leaf 7 is checked against the
        // highest leaf first.
        use std::arch::x86_64::{__cpuid, __cpuid_count};
        let cpu_has_amx = __cpuid(0).eax >= 7 && {
            let edx = __cpuid_count(7, 0).edx;
            edx & (1 << 24) != 0 && edx & (1 << 25) != 0
        };
        const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
        const XFEATURE_XTILEDATA: libc::c_long = 18;
        // SAFETY: arch_prctl with these arguments only changes this process's
        // permitted XSAVE features; it fails cleanly where unsupported.
        cpu_has_amx
            && unsafe {
                libc::syscall(
                    libc::SYS_arch_prctl,
                    ARCH_REQ_XCOMP_PERM,
                    XFEATURE_XTILEDATA,
                ) == 0
            }
    }
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    {
        false
    }
}
