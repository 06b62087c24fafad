//! Names for messages and reports from MLIR locations: the ONNX node name a NameLoc
//! carries (glow-import names every op's location after its node), looked up through
//! call-site and fused locations.

use melior::ir::{operation::OperationLike, OperationRef};

/// The name a location gives: the innermost name of a NameLoc / CallSiteLoc (the
/// callee's, else the caller's) / FusedLoc (the first one that has a name).
pub fn location_name(location: mlir_sys::MlirLocation) -> Option<String> {
    // SAFETY: location queries on a valid location; children are valid locations.
    unsafe {
        if mlir_sys::mlirLocationIsAName(location) {
            let name = mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationNameGetName(location));
            return Some(glow_dialects::string_ref::text(name));
        }
        if mlir_sys::mlirLocationIsACallSite(location) {
            // An inlined helper's op (an int8 micro-kernel parsed from text) is named by
            // the call it was inlined into when its own position has no name.
            return location_name(mlir_sys::mlirLocationCallSiteGetCallee(location))
                .or_else(|| location_name(mlir_sys::mlirLocationCallSiteGetCaller(location)));
        }
        if mlir_sys::mlirLocationIsAFused(location) {
            let count = mlir_sys::mlirLocationFusedGetNumLocations(location) as usize;
            let mut children = vec![
                mlir_sys::MlirLocation {
                    ptr: std::ptr::null()
                };
                count
            ];
            mlir_sys::mlirLocationFusedGetLocations(location, children.as_mut_ptr());
            return children.into_iter().find_map(location_name);
        }
        None
    }
}

/// The node name of `op`'s location, if it has one.
pub fn node_name(op: OperationRef) -> Option<String> {
    location_name(op.location().to_raw())
}

/// The node name of `op`, else its position as `file:line:col` (a hand-written module).
pub fn node_or_position(op: OperationRef) -> String {
    node_name(op).unwrap_or_else(|| {
        op.location()
            .to_string()
            .trim_start_matches("loc(")
            .trim_end_matches(')')
            .replace('"', "")
    })
}
