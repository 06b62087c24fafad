//! MLIR bytecode for modules that hold Glow ops.
//!
//! MLIR 22's bytecode writer encodes an op name as its dialect's namespace plus the
//! name after the *first* dot (`OperationName::stripDialect`): a registered
//! `glow.graph.relu` becomes ("glow.graph", "graph.relu"), which the reader joins
//! back into `glow.graph.graph.relu`. For an op of an unregistered dialect the
//! namespace is also the text before the first dot, so the same op written from a
//! context that does not know the Glow dialects becomes ("glow", "graph.relu") and
//! reads back as `glow.graph.relu`: the reader loads the `glow` umbrella dialect,
//! which loads the three real ones, and the ops come back registered (their inherent
//! attributes move from the attribute dictionary into properties, as for generic
//! text). [`write`] does exactly that: generic text with locations, parsed into a
//! context with every upstream dialect and unregistered ones allowed, then written
//! as bytecode version 4, whose ops carry their properties as attributes (the
//! unregistered ops' property dictionaries would not match the registered ops'
//! native property encoding of later versions).

use melior::{
    dialect::DialectRegistry,
    ir::{
        operation::{OperationLike, OperationPrintingFlags},
        BytecodeWriterConfig, Module,
    },
    utility::register_all_dialects,
    Context,
};

/// The bytecode version written: properties travel as attributes.
const PROPERTIES_AS_ATTRIBUTES_VERSION: i64 = 4;

/// The bytecode of `module`, readable by any tool that registers the Glow dialects
/// (and, with unregistered dialects allowed, by any MLIR tool).
pub fn write(module: &Module) -> Result<Vec<u8>, String> {
    let flags = OperationPrintingFlags::new()
        .print_generic_operation_form()
        .enable_debug_info(true, false);
    let mut text = module
        .as_operation()
        .to_string_with_flags(flags)
        .map_err(|error| format!("cannot print the module: {error}"))?;
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.set_allow_unregistered_dialects(true);
    // MLIR's lexer relies on a NUL after the text, as every buffer it reads from a
    // file has.
    text.push('\0');
    let reference = mlir_sys::MlirStringRef {
        data: text.as_ptr().cast(),
        length: text.len() - 1,
    };
    let quiet = context.attach_diagnostic_handler(|_| true);
    // SAFETY: the context is alive and the NUL-terminated buffer outlives the call.
    let raw = unsafe { mlir_sys::mlirModuleCreateParse(context.to_raw(), reference) };
    context.detach_diagnostic_handler(quiet);
    if raw.ptr.is_null() {
        return Err("the module's generic form does not parse without the Glow dialects".into());
    }
    // SAFETY: a module just created in `context`, owned (and destroyed) by `portable`.
    let portable = unsafe { Module::from_raw(raw) };
    // SAFETY: a live module operation.
    unsafe {
        crate::ffi::glowMoveUnregisteredPropertiesToAttributes(portable.as_operation().to_raw())
    };
    // Version 4, the last that writes an op's properties into its attribute
    // dictionary: the unregistered ops hold their properties as one dictionary, which
    // the registered ops' native property readers (version 5 on) cannot read.
    let config = BytecodeWriterConfig::new();
    config.set_desired_emit_version(PROPERTIES_AS_ATTRIBUTES_VERSION);
    portable
        .as_operation()
        .write_bytecode_with_config(&config)
        .map_err(|error| format!("cannot write bytecode: {error}"))
}
