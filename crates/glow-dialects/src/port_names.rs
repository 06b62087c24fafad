//! The names of a model's inputs and outputs, kept on its entry function as argument
//! and result attributes (`{glow.name = "input_ids"}`), so a module written to a
//! `.mlir` file and read back still knows the ONNX names its callers use.

use melior::ir::OperationRef;
use mlir_sys::{
    mlirArrayAttrGet, mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeIsAArray,
    mlirAttributeIsADictionary, mlirAttributeIsAString, mlirDictionaryAttrGet,
    mlirDictionaryAttrGetElementByName, mlirIdentifierGet, mlirNamedAttributeGet,
    mlirOperationGetAttributeByName, mlirOperationSetAttributeByName, mlirStringAttrGet,
    mlirStringAttrGetValue, MlirAttribute, MlirStringRef,
};

/// The argument / result attribute holding a port's name.
pub const NAME_ATTRIBUTE: &str = "glow.name";

fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr().cast(),
        length: text.len(),
    }
}

/// Sets `{glow.name = ...}` on each argument (`arg_attrs`) and result (`res_attrs`)
/// of `function`, a `func.func` with as many of each as names given.
pub fn set_port_names(function: OperationRef, inputs: &[String], outputs: &[String]) {
    // SAFETY: the op is live, so is its context.
    let context = unsafe { mlir_sys::mlirOperationGetContext(function.to_raw()) };
    for (list, names) in [("arg_attrs", inputs), ("res_attrs", outputs)] {
        if names.is_empty() {
            continue;
        }
        // SAFETY: building attributes in the function's live context; the strings are
        // copied by MLIR before the calls return.
        unsafe {
            let key = mlirIdentifierGet(context, string_ref(NAME_ATTRIBUTE));
            let dictionaries: Vec<MlirAttribute> = names
                .iter()
                .map(|name| {
                    let entry =
                        mlirNamedAttributeGet(key, mlirStringAttrGet(context, string_ref(name)));
                    mlirDictionaryAttrGet(context, 1, &entry)
                })
                .collect();
            let array =
                mlirArrayAttrGet(context, dictionaries.len() as isize, dictionaries.as_ptr());
            mlirOperationSetAttributeByName(function.to_raw(), string_ref(list), array);
        }
    }
}

/// The names [`set_port_names`] put on `function`: (inputs, outputs), `None` where a
/// port has none.
pub fn port_names(function: OperationRef) -> (Vec<Option<String>>, Vec<Option<String>>) {
    let read = |list: &str| -> Vec<Option<String>> {
        // SAFETY: reading attributes of a live op; every getter is guarded by its
        // type check.
        unsafe {
            let array = mlirOperationGetAttributeByName(function.to_raw(), string_ref(list));
            if array.ptr.is_null() || !mlirAttributeIsAArray(array) {
                return Vec::new();
            }
            (0..mlirArrayAttrGetNumElements(array))
                .map(|i| {
                    let dictionary = mlirArrayAttrGetElement(array, i);
                    if !mlirAttributeIsADictionary(dictionary) {
                        return None;
                    }
                    let name =
                        mlirDictionaryAttrGetElementByName(dictionary, string_ref(NAME_ATTRIBUTE));
                    if name.ptr.is_null() || !mlirAttributeIsAString(name) {
                        return None;
                    }
                    let value = mlirStringAttrGetValue(name);
                    Some(crate::string_ref::text(value))
                })
                .collect()
        }
    };
    (read("arg_attrs"), read("res_attrs"))
}
