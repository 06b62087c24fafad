//! The JIT's linker and loader: LLVM's ORC LLJIT (its C API, through inkwell's
//! llvm-sys) links the object files [`crate::codegen::split_objects`] compiled into
//! executable memory of this process. Symbols the objects do not define resolve to the
//! host functions given by name (profiling recorders, layer timers) or, through the
//! process-symbols library LLJIT links by default, to the process (libm, libc, the
//! OpenMP runtime when loaded). The code lives as long as the [`Jit`].

use anyhow::{anyhow, bail, Result};
use inkwell::llvm_sys::{
    core::LLVMCreateMemoryBufferWithMemoryRangeCopy,
    error::{LLVMDisposeErrorMessage, LLVMErrorRef, LLVMGetErrorMessage},
    orc2::{
        lljit::{
            LLVMOrcCreateLLJIT, LLVMOrcDisposeLLJIT, LLVMOrcLLJITAddObjectFile,
            LLVMOrcLLJITGetExecutionSession, LLVMOrcLLJITGetMainJITDylib, LLVMOrcLLJITLookup,
            LLVMOrcLLJITMangleAndIntern, LLVMOrcLLJITRef,
        },
        LLVMJITEvaluatedSymbol, LLVMJITSymbolFlags, LLVMJITSymbolGenericFlags,
        LLVMOrcAbsoluteSymbols, LLVMOrcCSymbolMapPair, LLVMOrcDisposeMaterializationUnit,
        LLVMOrcExecutionSessionSetErrorReporter, LLVMOrcJITDylibDefine,
    },
};
use std::{
    ffi::{CStr, CString},
    sync::Mutex,
};

/// Linked code in this process.
pub struct Jit {
    raw: LLVMOrcLLJITRef,
    /// What ORC reported while linking (a symbol nothing defines, ...), for the error
    /// of the lookup that failed; boxed, its address is the reporter's context.
    reported: Box<Mutex<Vec<String>>>,
}

// SAFETY: after `new` the LLJIT is only looked up, which ORC serializes with its own
// locks; the code it owns is plain machine code callable from any thread.
unsafe impl Send for Jit {}
// SAFETY: as above.
unsafe impl Sync for Jit {}

/// The message of `error` (consumed), None when it is null.
fn message(error: LLVMErrorRef) -> Option<String> {
    if error.is_null() {
        return None;
    }
    // SAFETY: a non-null error, consumed by LLVMGetErrorMessage; the message is a C
    // string freed with LLVMDisposeErrorMessage.
    unsafe {
        let raw = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(raw);
        Some(text)
    }
}

/// Ok when `error` is null, else an internal error saying what failed while `doing`.
fn check(error: LLVMErrorRef, doing: &str) -> Result<()> {
    match message(error) {
        None => Ok(()),
        Some(text) => bail!("internal error: {doing}: {text}"),
    }
}

/// ORC's error reporter: keeps the message in the `Mutex<Vec<String>>` at `context`.
extern "C" fn keep_report(context: *mut std::ffi::c_void, error: LLVMErrorRef) {
    // SAFETY: the context is the Jit's boxed list, which outlives the LLJIT.
    let reported = unsafe { &*(context as *const Mutex<Vec<String>>) };
    if let Some(text) = message(error) {
        reported
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text);
    }
}

impl Jit {
    /// Links `objects`, resolving `host` (name, address) pairs and then the process's
    /// own symbols for what they leave undefined.
    pub fn new(objects: &[Vec<u8>], host: &[(String, usize)]) -> Result<Self> {
        crate::codegen::initialize_native()?;
        let mut raw = std::ptr::null_mut();
        // SAFETY: a null builder asks for LLJIT's defaults (this machine); on success
        // `raw` is a live LLJIT owned by the returned value.
        check(
            unsafe { LLVMOrcCreateLLJIT(&mut raw, std::ptr::null_mut()) },
            "creating LLVM's JIT",
        )?;
        let jit = Jit {
            raw,
            reported: Box::new(Mutex::new(Vec::new())),
        };
        // SAFETY: `jit.raw` is live; the dylib belongs to it; the materialization unit
        // (once defined) and the memory buffers are handed over to it; the reporter's
        // context lives as long as the LLJIT.
        unsafe {
            LLVMOrcExecutionSessionSetErrorReporter(
                LLVMOrcLLJITGetExecutionSession(jit.raw),
                keep_report,
                &*jit.reported as *const Mutex<Vec<String>> as *mut std::ffi::c_void,
            );
            let library = LLVMOrcLLJITGetMainJITDylib(jit.raw);
            if !host.is_empty() {
                let names = host
                    .iter()
                    .map(|(name, _)| CString::new(name.as_str()))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| anyhow!("internal error: a NUL in a host symbol's name"))?;
                let mut pairs: Vec<_> = names
                    .iter()
                    .zip(host)
                    .map(|(name, (_, address))| LLVMOrcCSymbolMapPair {
                        Name: LLVMOrcLLJITMangleAndIntern(jit.raw, name.as_ptr()),
                        Sym: LLVMJITEvaluatedSymbol {
                            Address: *address as u64,
                            Flags: LLVMJITSymbolFlags {
                                GenericFlags: LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported
                                    as u8
                                    | LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable
                                        as u8,
                                TargetFlags: 0,
                            },
                        },
                    })
                    .collect();
                let unit = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
                let error = LLVMOrcJITDylibDefine(library, unit);
                if !error.is_null() {
                    // A unit that was not defined stays the caller's.
                    LLVMOrcDisposeMaterializationUnit(unit);
                }
                check(error, "defining host functions")?;
            }
            for object in objects {
                let buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                    object.as_ptr().cast(),
                    object.len(),
                    c"glow-object".as_ptr(),
                );
                check(
                    LLVMOrcLLJITAddObjectFile(jit.raw, library, buffer),
                    "adding an object file to the JIT",
                )?;
            }
        }
        Ok(jit)
    }

    /// The address of `name`; linking happens on the first lookup.
    pub fn lookup(&self, name: &str) -> Result<*mut ()> {
        let symbol = CString::new(name).map_err(|_| anyhow!("a NUL in symbol {name:?}"))?;
        let mut address = 0;
        // SAFETY: `self.raw` is live; `address` receives the symbol's address.
        let error = unsafe { LLVMOrcLLJITLookup(self.raw, &mut address, symbol.as_ptr()) };
        if let Some(text) = message(error) {
            let reported =
                std::mem::take(&mut *self.reported.lock().unwrap_or_else(|e| e.into_inner()));
            bail!(
                "internal error: linking the compiled model ({name}): {}",
                [reported, vec![text]].concat().join("; ")
            );
        }
        Ok(address as usize as *mut ())
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: `self.raw` is live and disposed once; its error, if any, is consumed.
        let error = unsafe { LLVMOrcDisposeLLJIT(self.raw) };
        let _ = check(error, "releasing the JIT");
    }
}
