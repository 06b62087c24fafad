//! `glow-cpu-vectorize-elementwise` (on tensors, after elementwise fusion): the
//! `linalg.generic` ops left at the top level of a function — fused elementwise chains,
//! softmax and normalization steps, reductions over the innermost axis, and elementwise
//! ops calling erf / exp / tanh / log (GELU) — become vector code in MLIR instead of
//! scalar loops for LLVM's loop vectorizer, which gives up on loops whose buffers it
//! cannot prove apart (all activations are views of one planned arena), or leaves
//! scalar (selects on booleans: a masked fill). Each op is tiled to rows (every loop
//! but the innermost, and the reductions, to 1) and each row vectorized whole
//! (`transform.structured.vectorize`); a row longer than [`MAX_ROW`] elements is cut
//! into [`LONG_ROW_TILE`]-element pieces (for table lookups, which LLVM leaves scalar,
//! the longest multiple of 16, else 8, elements that divides it when 128 does not: 224
//! of EfficientNet's 672 channels) when it is parallel or reduces only along that axis.
//! Reductions over outer axes into a parallel innermost one (global pools in NHWC) step
//! through the reduced axes one at a time with the innermost axis as a vector
//! accumulator, carried in registers. With `threads` above 1, every generic of at least
//! [`MIN_SHARED_ITERATIONS`] iterations (vectorized rows or not) first gets an outer
//! scf.forall over its first outer parallel loop that the threads divide evenly, so no
//! elementwise step runs on one core while others wait.
//!
//! An op qualifies when its operands are static tensors, every indexing map is a
//! projected permutation whose use of the innermost loop (if any) is its last result
//! (so vector loads are contiguous or broadcasts), the innermost extent is a multiple
//! of 8, the vector it makes holds at most [`MAX_ROW`] elements, and its payload has no
//! `tensor.extract` (gathers stay scalar) but from byte tables of at most 256 entries
//! or at indices read from the op's constant operands: int8 lookup tables (sigmoid /
//! tanh, with the SiLU multiply fused in) are vectorized, plain elementwise or not,
//! their reads as `vector.gather` (EfficientNet-B0 int8 8.1 -> 5.3 ms), and so are
//! resizes, whose taps are index tables (LR-ASPP's 21 x 224 x 224 upsampling 3.3 -> 2.6
//! ms), and so are embedding lookups, whose index is read once per row (at outer loop
//! indices) and whose row is one contiguous read of the table (a 4 x 64-token lookup in
//! a 96-wide table 0.015 -> 0.001 ms). Transposes are vectorized in square blocks, or
//! rows when they permute outer axes only ([`super::transposes`]). Other ops are left
//! as they are.

use super::gathers::{
    gathers, gathers_at_table_indices, gathers_only_from_byte_tables, gathers_rows,
};
use super::payloads::{maskable, plain_reduction, touches_booleans, transcendental};
use super::row_chains::{row_vectors, RowVectors};
use super::{list, match_tagged, schedule_dialects, set_tag_named, tile};
use crate::framework::{
    apply_transform_script, OptionKind, PassDefinition, PassOption, PassOptions,
};
use melior::ir::{
    attribute::ArrayAttribute, operation::OperationLike, r#type::RankedTensorType, BlockLike,
    OperationRef, RegionLike, ShapedTypeLike, ValueLike,
};
use std::fmt::Write;

/// The most elements one vectorized row holds (16 AVX-512 registers of f32).
pub const MAX_ROW: i64 = 256;
/// The piece a long parallel row is cut into.
pub const LONG_ROW_TILE: i64 = 128;

/// The piece a row of `innermost` elements longer than [`MAX_ROW`] is cut into:
/// [`LONG_ROW_TILE`] when it divides the row, else, for a row of table lookups
/// (`gathers`), the longest multiple of 16, else of 8, of at most [`MAX_ROW`] elements
/// that does. (Other rows LLVM vectorizes better than pieces of odd lengths:
/// MobileNetV3-L fp32 5.5 -> 6.0 ms with them.)
fn long_row_piece(innermost: i64, gathers: bool) -> Option<i64> {
    if innermost % LONG_ROW_TILE == 0 {
        return Some(LONG_ROW_TILE);
    }
    if !gathers {
        return None;
    }
    dividing_piece(innermost, MAX_ROW)
}

/// The longest multiple of 16, else of 8, of at most `longest` elements that divides a
/// row of `innermost`.
pub(super) fn dividing_piece(innermost: i64, longest: i64) -> Option<i64> {
    [16, 8].into_iter().find_map(|unit| {
        (1..=longest / unit)
            .rev()
            .map(|k| k * unit)
            .find(|piece| innermost % piece == 0)
    })
}

const TAG: &str = "glow.elementwise";

/// The pass definition registered as `glow-cpu-vectorize-elementwise`.
pub static VECTORIZE_ELEMENTWISE: PassDefinition = PassDefinition {
    argument: "glow-cpu-vectorize-elementwise",
    description: "Vectorize the top-level linalg.generic ops (elementwise chains, innermost-axis reductions) row by row (on tensors)",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "threads",
        description: "Threads the code will run on: above 1, generics of at least 16384 elements first get an outer scf.forall that splits an outer parallel loop across the threads",
        kind: OptionKind::Int,
        default: Some("1"),
    }],
    dependent_dialects: schedule_dialects,
    validate: |options: &PassOptions| match options.value("threads").map(str::parse::<i64>) {
        None | Some(Ok(1..=1024)) => Ok(()),
        _ => Err("threads must be in 1..=1024".into()),
    },
    run,
};

/// The fewest iterations a generic needs before its rows are shared between threads
/// (below, the fork and join cost more than the work).
pub const MIN_SHARED_ITERATIONS: i64 = 16384;

/// The dims each operand's indexing map reads, in order, or `None` when a map is not a
/// projected permutation of dims.
pub(crate) fn map_dims(op: OperationRef) -> Option<Vec<Vec<usize>>> {
    let maps = ArrayAttribute::try_from(op.attribute("indexing_maps").ok()?).ok()?;
    (0..maps.len())
        .map(|i| {
            let dims = super::affine_map_dims(maps.element(i).ok()?)?;
            // A projected permutation: no dim read twice.
            let distinct = dims.iter().enumerate().all(|(k, d)| !dims[..k].contains(d));
            distinct.then_some(dims)
        })
        .collect()
}

/// The iterator kinds of a linalg.generic (`true`: parallel).
pub(crate) fn parallel_iterators(op: OperationRef) -> Option<Vec<bool>> {
    let iterators = ArrayAttribute::try_from(op.attribute("iterator_types").ok()?).ok()?;
    (0..iterators.len())
        .map(|i| {
            let text = iterators.element(i).ok()?.to_string();
            Some(text.contains("parallel"))
        })
        .collect()
}

/// The static extent of each loop of `op`, from its operands' shapes, when every map
/// is a projected permutation and every shape static.
pub(super) fn loop_extents(
    op: OperationRef,
    dims: &[Vec<usize>],
    loops: usize,
) -> Option<Vec<i64>> {
    let mut extents = vec![None; loops];
    for (index, operand_dims) in dims.iter().enumerate() {
        let operand = op.operand(index).ok()?;
        let shape = RankedTensorType::try_from(operand.r#type()).ok()?;
        if operand_dims.len() != shape.rank() {
            return None;
        }
        for (k, d) in operand_dims.iter().enumerate() {
            extents[*d] = match shape.dim_size(k).ok()? {
                melior::ir::r#type::DimSize::Static(n) => Some(n as i64),
                _ => return None,
            };
        }
    }
    extents.into_iter().collect()
}

/// With `threads` above 1, the tile sizes of an outer scf.forall giving each thread an
/// equal part of the first outer parallel loop that divides evenly, for a generic of
/// at least [`MIN_SHARED_ITERATIONS`] iterations. With a row schedule, only a loop
/// whose thread part is a whole number of the schedule's tiles along it is split (a
/// 16 x 16 transpose block over 16 channels cannot be halved), or one the rows keep
/// whole when they are not masked.
fn thread_split(op: OperationRef, threads: i64, rows: Option<&RowSchedule>) -> Option<Vec<i64>> {
    let dims = map_dims(op)?;
    let parallel = parallel_iterators(op)?;
    let loops = parallel.len();
    if threads <= 1 || loops < 2 || dims.len() != op.operand_count() {
        return None;
    }
    let extents = loop_extents(op, &dims, loops)?;
    if extents.iter().product::<i64>() < MIN_SHARED_ITERATIONS {
        return None;
    }
    let fits_rows = |d: usize| {
        rows.is_none_or(|rows| match rows.sizes.get(d) {
            Some(0) | None => !rows.is_masked(),
            Some(size) => (extents[d] / threads) % size == 0,
        })
    };
    let d = (0..loops - 1).find(|d| parallel[*d] && extents[*d] % threads == 0 && fits_rows(*d))?;
    let mut sizes = vec![0; loops];
    sizes[d] = extents[d] / threads;
    Some(sizes)
}

/// How one generic becomes vector rows: tile sizes (0 keeps a loop whole), and either
/// the vector sizes of a row whose innermost extent no vector width divides (vectorized
/// masked, the extent rounded up to whole registers), or, for such a row longer than
/// [`MAX_ROW`], its pieces and masked tail.
pub(super) struct RowSchedule {
    sizes: Vec<i64>,
    masked: Option<Vec<i64>>,
    /// The pieces, and whether the generic reduces along the row.
    pieces: Option<(RowVectors, bool)>,
    /// Splits before the tiling: (loop, iterations of the main part, which is tiled).
    splits: Vec<(usize, i64)>,
}

impl From<Vec<i64>> for RowSchedule {
    fn from(sizes: Vec<i64>) -> Self {
        Self {
            sizes,
            masked: None,
            pieces: None,
            splits: Vec::new(),
        }
    }
}

impl RowSchedule {
    /// Whether some vector of the row is masked.
    fn is_masked(&self) -> bool {
        self.masked.is_some() || self.pieces.is_some_and(|(p, _)| p.masked())
    }
}

/// Rows of an innermost extent that 8 does not divide (attention over 197 or 77
/// tokens: softmax's max, exp and sum, a norm's statistics): each row one masked
/// vector of the extent rounded up to 16 lanes, when every other loop is parallel (so
/// a row is exactly the innermost loop), the row fits [`MAX_ROW`], and the payload may
/// run on masked vectors ([`maskable`]). A longer row (attention over 257 or 1500
/// positions) runs in unmasked pieces and one masked tail, as a row chain's steps do
/// ([`row_vectors`]); left to LLVM, its reductions stayed scalar (softmax over 1 x
/// 1500 x 1500: 1.9 ms, onnxruntime 0.41).
fn masked_row(
    op: OperationRef,
    parallel: &[bool],
    innermost: i64,
    gathers: bool,
) -> Option<RowSchedule> {
    let loops = parallel.len();
    let lanes = (innermost + 15) / 16 * 16;
    if innermost < 16 || !parallel[..loops - 1].iter().all(|p| *p) {
        return None;
    }
    if !maskable(op) {
        return None;
    }
    let mut sizes = vec![1; loops];
    sizes[loops - 1] = 0;
    if lanes > MAX_ROW {
        // Rows in pieces read no tables (the pieces are vectorized without gathers).
        if gathers {
            return None;
        }
        return Some(RowSchedule {
            sizes,
            masked: None,
            pieces: Some((row_vectors(&[op], innermost)?, !parallel[loops - 1])),
            splits: Vec::new(),
        });
    }
    let mut vector = vec![1; loops];
    vector[loops - 1] = lanes;
    Some(RowSchedule {
        sizes,
        masked: Some(vector),
        pieces: None,
        splits: Vec::new(),
    })
}

/// The tile sizes that make `op` a vectorizable row, when it qualifies; `gathers`:
/// its payload reads byte tables (int8 lookup tables), which LLVM's loop vectorizer
/// leaves scalar, so even a plain elementwise op is vectorized here.
fn row_tiling(op: OperationRef, gathers: bool, nested: bool) -> Option<RowSchedule> {
    let dims = map_dims(op)?;
    let parallel = parallel_iterators(op)?;
    let loops = parallel.len();
    if loops == 0 || dims.len() != op.operand_count() {
        return None;
    }
    let extents = loop_extents(op, &dims, loops)?;
    // The innermost loop, if an operand reads along it, must be its last axis.
    for operand_dims in &dims {
        if let Some(position) = operand_dims.iter().position(|d| *d == loops - 1) {
            if position + 1 != operand_dims.len() {
                return None;
            }
        }
    }
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
        } else {
            long_row_piece(innermost, gathers)?
        };
        return Some(sizes.into());
    }
    // Plain elementwise ops, every input read along the innermost loop, LLVM vectorizes
    // well; the ops it leaves scalar read a value that is invariant in the innermost
    // loop (a broadcast row statistic: softmax's max and sum, a norm's mean) or reduce
    // along it.
    let broadcasts = dims[..dims.len() - op.result_count()]
        .iter()
        .any(|operand_dims| !operand_dims.contains(&(loops - 1)));
    if !broadcasts
        && parallel[loops - 1]
        && !gathers
        && !transcendental(op)
        && !nested
        && !touches_booleans(op)
    {
        return None;
    }
    if innermost % 8 != 0 {
        return masked_row(op, &parallel, innermost, gathers);
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
    if elements > MAX_ROW && (parallel[loops - 1] || innermost_reduction_only) {
        if let Some(piece) = long_row_piece(innermost, gathers) {
            sizes[loops - 1] = piece;
            elements = elements / innermost * piece;
        } else if innermost_reduction_only && !gathers {
            // A long row's reduction that 128 does not divide (softmax's max and sum
            // over 448 or 480 positions): pieces folding into partial results, as a
            // row chain's reductions run; LLVM keeps a float reduction scalar.
            return Some(RowSchedule {
                sizes,
                masked: None,
                pieces: Some((row_vectors(&[op], innermost)?, true)),
                splits: Vec::new(),
            });
        }
    }
    (elements <= MAX_ROW).then_some(sizes.into())
}

/// The square blocks a transpose is vectorized in (see [`super::transposes`]), for a
/// generic without gathers.
fn transposed_blocks(op: OperationRef, lookups: bool) -> Option<RowSchedule> {
    if lookups {
        return None;
    }
    let dims = map_dims(op)?;
    let parallel = parallel_iterators(op)?;
    if dims.len() != op.operand_count() {
        return None;
    }
    let extents = loop_extents(op, &dims, parallel.len())?;
    let tiling = super::transposes::transpose_tiling(op, &dims, &parallel, &extents)?;
    Some(RowSchedule {
        splits: tiling.splits,
        ..tiling.sizes.into()
    })
}

fn run(function: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let threads = options
        .value("threads")
        .and_then(|t| t.parse::<i64>().ok())
        .unwrap_or(1);
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        return Ok(());
    };
    // The function's generics and those in the body of a top-level scf.forall (the
    // epilogue of a packed-weight kernel's tile, `glow-pack-weights`), which the
    // threads already share: no second split.
    super::row_chains::forward_identity_reshapes(block);
    let mut generics = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() == Ok("scf.forall") {
            let body = op.region(0).ok().and_then(|r| r.first_block());
            let mut inner = body.and_then(|b| b.first_operation());
            while let Some(nested) = inner {
                inner = nested.next_in_block();
                generics.push((nested, true));
            }
        } else {
            generics.push((op, false));
        }
    }
    // Softmax chains: computed row by row, fused (not scheduled op by op).
    let top_level: Vec<OperationRef> = generics
        .iter()
        .filter(|(_, nested)| !nested)
        .map(|(op, _)| *op)
        .collect();
    let chains = super::row_chains::find(&top_level, threads);
    // Per tagged op: its split across threads and its row tiling, at least one given.
    let mut schedules = Vec::new();
    for (op, nested) in generics {
        if super::row_chains::in_chain(op) {
            continue;
        }
        if op.name().as_string_ref().as_str() != Ok("linalg.generic") || op.result_count() == 0 {
            continue;
        }
        let lookups = gathers(op);
        let tables = !lookups || gathers_only_from_byte_tables(op) || gathers_at_table_indices(op);
        let rows = if tables || gathers_rows(op) {
            // Rows of a table only whole vectors: upstream's vectorizer builds a masked
            // row read with a mask of the wrong rank (an embedding 100 wide failed to
            // compile).
            row_tiling(op, lookups, nested).filter(|rows| tables || !rows.is_masked())
        } else {
            None
        };
        let rows = rows.or_else(|| transposed_blocks(op, lookups));
        let split = thread_split(op, threads, rows.as_ref()).filter(|_| !nested);
        if rows.is_some() || split.is_some() {
            set_tag_named(op, TAG);
            schedules.push((split, rows.map(|r| (r, lookups))));
        }
    }
    if schedules.is_empty() && chains.is_empty() {
        return Ok(());
    }
    let mut script = String::from(
        "module attributes {transform.with_named_sequence} {\n  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n",
    );
    if !schedules.is_empty() {
        match_tagged(&mut script, TAG, schedules.len());
    }
    for (i, (split, rows)) in schedules.iter().enumerate() {
        let mut target = format!("%op{i}");
        if let Some(sizes) = split {
            let _ = writeln!(
                script,
                "    %part{i}, %forall{i} = transform.structured.tile_using_forall %op{i} tile_sizes [{}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                list(sizes)
            );
            target = format!("%part{i}");
        }
        let Some((
            RowSchedule {
                sizes,
                masked,
                pieces,
                splits,
            },
            lookups,
        )) = rows
        else {
            continue;
        };
        target = super::transposes::split_main(&mut script, target, splits, i);
        if sizes.iter().any(|s| *s != 0) {
            tile(&mut script, &format!("%row{i}"), &target, sizes, &[]);
            target = format!("%row{i}");
        }
        if let Some((pieces, reduces)) = pieces {
            super::row_chains::vectorize_row(
                &mut script,
                &target,
                &format!("%long{i}"),
                *pieces,
                sizes.len(),
                *reduces,
            );
            continue;
        }
        let vector_sizes = masked
            .as_ref()
            .map_or_else(String::new, |v| format!(" vector_sizes [{}]", list(v)));
        // Table lookups become vector gathers from the table.
        let extract = if *lookups {
            " {vectorize_nd_extract}"
        } else {
            ""
        };
        let _ = writeln!(
            script,
            "    transform.structured.vectorize {target}{vector_sizes}{extract} : !transform.any_op"
        );
    }
    let masked_chains = super::row_chains::schedule(&mut script, &chains, threads);
    // Accumulators of tiled reductions (outer-axis reductions tiled to single steps):
    // read and written by every step on tensors, hoisted into vector iter_args.
    super::hoist_accumulators(&mut script);
    // Masked rows: their transfers take the mask as an operand (no vector.mask region
    // left for bufferization to break); their reductions are unmasked below.
    let masked = masked_chains
        || schedules
            .iter()
            .any(|(_, rows)| rows.as_ref().is_some_and(|(r, _)| r.is_masked()));
    if masked {
        script.push_str("    transform.apply_patterns to %root {\n      transform.apply_patterns.vector.lower_masked_transfers\n    } : !transform.any_op\n");
    }
    script.push_str("    transform.yield\n  }\n}\n");
    apply_transform_script(function, &script).map_err(|_| ())?;
    crate::distinct_empties::number_loops(function);
    if !masked {
        return Ok(());
    }
    crate::framework::apply_rules(function, &[&super::masked_reductions::UNMASK_REDUCTION])
        .map_err(|_| ())
}
