//! `glow-cpu-vectorize-elementwise` (on tensors, after elementwise fusion): the
//! `linalg.generic` ops left at the top level of a function — fused elementwise
//! chains, softmax and normalization steps, reductions over the innermost axis — become
//! vector code in MLIR instead of scalar loops for LLVM's loop vectorizer, which gives
//! up on loops whose buffers it cannot prove apart (all activations are views of one
//! planned arena). Each op is tiled to rows (every loop but the innermost, and the
//! reductions, to 1) and each row vectorized whole (`transform.structured.vectorize`);
//! a row longer than [`MAX_ROW`] elements is cut into [`LONG_ROW_TILE`]-element
//! pieces when it is parallel or reduces only along that axis. Reductions over outer axes into a parallel innermost
//! one (global pools in NHWC) step through the reduced axes one at a time with the
//! innermost axis as a vector accumulator, carried in registers.
//!
//! An op qualifies when its operands are static tensors, every indexing map is a
//! projected permutation whose use of the innermost loop (if any) is its last result
//! (so vector loads are contiguous or broadcasts), the innermost extent is a multiple
//! of 8, the vector it makes holds at most [`MAX_ROW`] elements, and its payload has no
//! `tensor.extract` (gathers stay scalar). Other ops are left as they are.

use super::{match_tagged, schedule_dialects, set_tag_named, tile};
use crate::framework::{apply_transform_script, PassDefinition, PassOptions};
use melior::ir::{
    attribute::ArrayAttribute,
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::RankedTensorType,
    BlockLike, OperationRef, RegionLike, ShapedTypeLike, ValueLike,
};
use std::fmt::Write;

/// The most elements one vectorized row holds (16 AVX-512 registers of f32).
pub const MAX_ROW: i64 = 256;
/// The piece a long parallel row is cut into.
pub const LONG_ROW_TILE: i64 = 128;

const TAG: &str = "glow.elementwise";

/// The pass definition registered as `glow-cpu-vectorize-elementwise`.
pub static VECTORIZE_ELEMENTWISE: PassDefinition = PassDefinition {
    argument: "glow-cpu-vectorize-elementwise",
    description: "Vectorize the top-level linalg.generic ops (elementwise chains, innermost-axis reductions) row by row (on tensors)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: schedule_dialects,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The dims each operand's indexing map reads, in order, or `None` when a map is not a
/// projected permutation of dims.
fn map_dims(op: OperationRef) -> Option<Vec<Vec<usize>>> {
    let maps = ArrayAttribute::try_from(op.attribute("indexing_maps").ok()?).ok()?;
    let mut all = Vec::new();
    for i in 0..maps.len() {
        let map = maps.element(i).ok()?;
        // SAFETY: queries on a live affine map attribute and its map.
        let dims = unsafe {
            let raw = melior::ir::AttributeLike::to_raw(&map);
            if !mlir_sys::mlirAttributeIsAAffineMap(raw) {
                return None;
            }
            let map = mlir_sys::mlirAffineMapAttrGetValue(raw);
            if !mlir_sys::mlirAffineMapIsProjectedPermutation(map) {
                return None;
            }
            let mut dims = Vec::new();
            for r in 0..mlir_sys::mlirAffineMapGetNumResults(map) {
                let expression = mlir_sys::mlirAffineMapGetResult(map, r);
                if !mlir_sys::mlirAffineExprIsADim(expression) {
                    return None;
                }
                dims.push(mlir_sys::mlirAffineDimExprGetPosition(expression) as usize);
            }
            dims
        };
        all.push(dims);
    }
    Some(all)
}

/// The iterator kinds of a linalg.generic (`true`: parallel).
fn parallel_iterators(op: OperationRef) -> Option<Vec<bool>> {
    let iterators = ArrayAttribute::try_from(op.attribute("iterator_types").ok()?).ok()?;
    (0..iterators.len())
        .map(|i| {
            let text = iterators.element(i).ok()?.to_string();
            Some(text.contains("parallel"))
        })
        .collect()
}

/// The tile sizes that make `op` a vectorizable row, when it qualifies.
fn row_tiling(op: OperationRef) -> Option<Vec<i64>> {
    let dims = map_dims(op)?;
    let parallel = parallel_iterators(op)?;
    let loops = parallel.len();
    if loops == 0 || dims.len() != op.operand_count() {
        return None;
    }
    // Loop extents from the operands' static shapes.
    let mut extents = vec![None; loops];
    for (index, operand_dims) in dims.iter().enumerate() {
        let operand = op.operand(index).ok()?;
        let shape = RankedTensorType::try_from(operand.r#type()).ok()?;
        if operand_dims.len() != shape.rank() {
            return None;
        }
        for (k, d) in operand_dims.iter().enumerate() {
            let size = match shape.dim_size(k).ok()? {
                melior::ir::r#type::DimSize::Static(n) => n as i64,
                _ => return None,
            };
            extents[*d] = Some(size);
        }
        // The innermost loop, if this operand reads along it, must be its last axis.
        if let Some(position) = operand_dims.iter().position(|d| *d == loops - 1) {
            if position + 1 != operand_dims.len() {
                return None;
            }
        }
    }
    let extents: Vec<i64> = extents.into_iter().collect::<Option<_>>()?;
    let innermost = extents[loops - 1];
    // Reductions over outer axes into a parallel innermost one (a global pool over
    // height and width, channels innermost): every loop but the innermost runs one
    // step at a time, reductions too, and the innermost is one vector accumulator
    // (the reduction loops carry it in registers once hoisted).
    if parallel.iter().any(|p| !p) && !plain_reduction(op) {
        return None;
    }
    if parallel[loops - 1] && parallel.iter().any(|p| !p) && innermost % 8 == 0 {
        let mut sizes = vec![1; loops];
        sizes[loops - 1] = if innermost <= MAX_ROW {
            0
        } else if innermost % LONG_ROW_TILE == 0 {
            LONG_ROW_TILE
        } else {
            return None;
        };
        return Some(sizes);
    }
    // Plain elementwise ops, every input read along the innermost loop, LLVM vectorizes
    // well; the ops it leaves scalar read a value that is invariant in the innermost
    // loop (a broadcast row statistic: softmax's max and sum, a norm's mean) or reduce
    // along it.
    let broadcasts = dims[..dims.len() - op.result_count()]
        .iter()
        .any(|operand_dims| !operand_dims.contains(&(loops - 1)));
    if !broadcasts && parallel[loops - 1] {
        return None;
    }
    if innermost % 8 != 0 {
        return None;
    }
    // Rows: every parallel loop but the innermost to 1; reductions whole.
    let mut sizes: Vec<i64> = parallel.iter().map(|p| i64::from(*p)).collect();
    sizes[loops - 1] = 0;
    let mut elements: i64 = extents
        .iter()
        .zip(&sizes)
        .filter(|(_, s)| **s == 0)
        .map(|(e, _)| *e)
        .product();
    // A long row is cut into pieces: parallel, or a reduction along the innermost axis
    // alone (a norm's mean over 384 or 768 features), whose pieces then fold into the
    // row's accumulator one after the other.
    let innermost_reduction_only = !parallel[loops - 1] && parallel[..loops - 1].iter().all(|p| *p);
    if elements > MAX_ROW
        && (parallel[loops - 1] || innermost_reduction_only)
        && innermost % LONG_ROW_TILE == 0
    {
        sizes[loops - 1] = LONG_ROW_TILE;
        elements = elements / innermost * LONG_ROW_TILE;
    }
    (elements <= MAX_ROW).then_some(sizes)
}

/// Whether a reduction's payload combines with arithmetic the vectorizer recognizes:
/// one result, no `linalg.index`, comparison or select (an arg-max / arg-min carries an
/// index and picks with a select, which the vectorizer cannot reduce).
fn plain_reduction(op: OperationRef) -> bool {
    if op.result_count() != 1 {
        return false;
    }
    let mut plain = true;
    op.walk(WalkOrder::PreOrder, |nested| {
        let name = nested.name();
        if matches!(
            name.as_string_ref().as_str(),
            Ok("linalg.index" | "arith.select" | "arith.cmpf" | "arith.cmpi")
        ) {
            plain = false;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    plain
}

/// Whether the payload of `op` gathers (`tensor.extract`).
pub(crate) fn gathers(op: OperationRef) -> bool {
    let mut found = false;
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.name().as_string_ref().as_str() == Ok("tensor.extract") {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        return Ok(());
    };
    let mut tilings = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("linalg.generic")
            || op.result_count() == 0
            || gathers(op)
        {
            continue;
        }
        if let Some(sizes) = row_tiling(op) {
            set_tag_named(op, TAG);
            tilings.push(sizes);
        }
    }
    if tilings.is_empty() {
        return Ok(());
    }
    let mut script = String::from(
        "module attributes {transform.with_named_sequence} {\n  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n",
    );
    match_tagged(&mut script, TAG, tilings.len());
    for (i, sizes) in tilings.iter().enumerate() {
        if sizes.iter().all(|s| *s == 0) {
            let _ = writeln!(
                script,
                "    transform.structured.vectorize %op{i} : !transform.any_op"
            );
            continue;
        }
        tile(
            &mut script,
            &format!("%row{i}"),
            &format!("%op{i}"),
            sizes,
            &[],
        );
        let _ = writeln!(
            script,
            "    transform.structured.vectorize %row{i} : !transform.any_op"
        );
    }
    // Accumulators of tiled reductions (outer-axis reductions tiled to single steps):
    // read and written by every step on tensors, hoisted into vector iter_args.
    super::hoist_accumulators(&mut script);
    script.push_str("    transform.yield\n  }\n}\n");
    apply_transform_script(function, &script).map_err(|_| ())
}
