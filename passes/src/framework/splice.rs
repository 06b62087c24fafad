//! Adding ops written as MLIR text (helper functions, declarations) to a module.

use melior::{
    ir::{BlockLike, BlockRef, Module, Operation},
    Context,
};

/// Parses `ops` (the body of a `module { ... }`) and appends its ops to `body`; `false`
/// when the text does not parse.
pub fn append_parsed_ops(context: &Context, body: BlockRef, ops: &str) -> bool {
    let Some(parsed) = Module::parse(context, &format!("module {{\n{ops}}}\n")) else {
        return false;
    };
    while let Some(op) = parsed.body().first_operation() {
        // SAFETY: the op is detached from the temporary module and owned here.
        let op = unsafe {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            Operation::from_raw(op.to_raw())
        };
        body.append_operation(op);
    }
    true
}
