//! Row chains (part of `glow-cpu-vectorize-elementwise`): softmax, computed one row at a
//! time. A chain is a set of top-level `linalg.generic` ops over the same rows (the
//! same outer parallel loops, the same innermost extent) where each op reads the
//! others' results by row (the whole row, or the row's statistic: softmax's max and
//! sum), at least one reduces along the row, and no result but the last op's is used
//! outside the chain. Scheduled op by op, every step streams the whole tensor: softmax
//! over Whisper-tiny's 6 x 1500 x 1500 attention scores read 54 MB four times and
//! wrote it twice. Here the last op is tiled to rows and the others (and their inits)
//! are fused into the row loop one by one (`fuse_into_containing_op`, a CSE between
//! steps so an op read twice per row is computed once), so a row is read from memory
//! once and stays in L1 through every step. Each step in the loop is then vectorized in
//! pieces of at most [`PIECE`] elements ([`RowVectors`]: a row that 8 does not divide
//! ends in one masked vector); a reduction folds its pieces into a piece-wide vector of
//! partial results (`tile_reduction_using_for`), reduced to one value once per row.
//!
//! A producer whose result is also read outside the chain stays outside it (it would be
//! computed twice), read as an input, with the members that only feed it.
//!
//! On more than one thread the rows are one `scf.forall`, each row's buffers private to
//! its iteration (`glow-private-buffers` puts them on the thread's stack: the static
//! memory plan cannot place a buffer inside a parallel loop).
//!
//! Refused (the ops are scheduled one by one): rows holding less than [`MIN_BYTES`] in
//! all ([`MIN_BYTES_THREADS`] on more than one thread), on more than one thread rows
//! longer than 16384 or of other types than f32 (64 KB, the most a row buffer may take
//! of a thread's stack), a chain
//! without a reduction, a read of a member that is not by row, a member whose init is
//! not an empty tensor (or its fill), a member reading tables or a reduction with a position-dependent or
//! selecting payload (arg-max), dynamic shapes, and rows no vector schedule fits
//! (masked rows of other types than f32, or shorter than 16).

use super::elementwise::{dividing_piece, loop_extents, map_dims, parallel_iterators};
use super::gathers::gathers;
use super::list;
use super::payloads::{maskable, plain_reduction};
use crate::quantization::ir::{operand, producer, result, users};
use melior::ir::{
    operation::OperationLike, BlockLike, OperationRef, ShapedTypeLike, TypeLike, ValueLike,
};
use std::fmt::Write;

/// The longest piece of a row one vector holds: 4 AVX-512 registers, so that the
/// exponential's polynomial keeps its temporaries in registers (softmax over 6 x 1536 x
/// 1536 in pieces of 32: 7.7 ms, 64: 7.6, 128: 9.1, with NaN-propagating maxima).
const PIECE: i64 = 64;

/// The fewest bytes a chain's rows hold for it to be fused: more than the L2 cache, so
/// that every pass of the op-by-op schedule would read the tensor back from L3. Measured
/// on this machine (AMD EPYC family 26, one thread), torch BERT-shaped attention, with
/// the mask add joining the chain: 1 x 300 tokens (4.3 MB of scores a layer) 36.4 ->
/// 35.6 ms, 1 x 480 72.5 -> 61.8 ms, 2 x 128 and 1 x 384 within noise, 1 x 512 72.5 ->
/// 71.2 ms (where an earlier chain without the mask add had run 2 % slower); softmax
/// over 6 x 1024 x 1024 (25 MB) 4.97 -> 1.90 ms. Below, the scores stay in L2 between
/// the passes.
const MIN_BYTES: i64 = 1 << 20;

/// [`MIN_BYTES`] on more than one thread: half the L3 cache. There each pass of the
/// op-by-op schedule streams its rows through two cores' L2 caches, and a chain's gain
/// is eaten by the matmul that reads the probabilities next. Measured on this machine, two
/// threads, torch BERT-shaped attention: 1 x 512 tokens (12.6 MB of scores a layer)
/// 37.4 -> 38.7 ms with chains, 1 x 448 and 1 x 300 within noise; the Whisper-shaped
/// encoder (54 MB a layer) 117 -> 102 ms.
const MIN_BYTES_THREADS: i64 = 16 << 20;

/// The tag on every op of every chain (the script's handles, in block order).
const TAG: &str = "glow.row_chain";

/// One chain: its ops in block order (the generics and their init fills; the last is
/// the chain's result, which every other op precedes), its loop count, and how each
/// row is vectorized.
pub(super) struct RowChain<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
    /// For each op: `None` for an init fill, else whether it reduces along the row.
    kinds: Vec<Option<bool>>,
    /// Each op's position in the block.
    positions: Vec<usize>,
    loops: usize,
    /// How each row is vectorized.
    vectors: RowVectors,
}

/// The row shape of a generic that may join a chain: (outer extents, innermost extent,
/// whether it reduces along the row).
fn row_shape(op: OperationRef) -> Option<(Vec<i64>, i64, bool)> {
    if op.name().as_string_ref().as_str() != Ok("linalg.generic") || op.result_count() != 1 {
        return None;
    }
    let parallel = parallel_iterators(op)?;
    let loops = parallel.len();
    if loops < 2 || !parallel[..loops - 1].iter().all(|p| *p) {
        return None;
    }
    let dims = map_dims(op)?;
    if dims.len() != op.operand_count() {
        return None;
    }
    let extents = loop_extents(op, &dims, loops)?;
    let reduces = !parallel[loops - 1];
    // Tables read in the payload (no vector schedule here gathers), and reductions the
    // vectorizer cannot split into partial results (an arg-max's index and select, a
    // position-dependent payload: `linalg.index` restarts in every piece).
    if gathers(op) || (reduces && !plain_reduction(op)) {
        return None;
    }
    // The result: the whole iteration space, or its rows' statistics.
    let output: Vec<usize> = (0..loops - usize::from(reduces)).collect();
    if dims.last()? != &output {
        return None;
    }
    Some((extents[..loops - 1].to_vec(), extents[loops - 1], reduces))
}

/// Whether `op` fills an empty tensor with one value (`linalg.fill`, or its generic
/// form).
fn is_fill(op: OperationRef) -> bool {
    crate::framework::structured::filled_value(op).is_some()
        && operand(op, op.operand_count() - 1)
            .and_then(producer)
            .is_some_and(|empty| empty.name().as_string_ref().as_str() == Ok("tensor.empty"))
}

/// The init of `consumer` when it is fresh: `Some(None)` for an empty tensor,
/// `Some(Some(fill))` for a filled one (a reduction's init).
fn fresh_init<'c, 'a>(consumer: OperationRef<'c, 'a>) -> Option<Option<OperationRef<'c, 'a>>> {
    let op = producer(operand(consumer, consumer.operand_count() - 1)?)?;
    if op.name().as_string_ref().as_str() == Ok("tensor.empty") {
        Some(None)
    } else {
        is_fill(op).then_some(Some(op))
    }
}

/// Gives `consumer` a copy of its init `fill` of its own, just before it, when other
/// ops read the fill too (CSE shares one fill between every layer's softmax): each
/// chain fuses its own.
fn own_fill<'c, 'a>(
    consumer: OperationRef<'c, 'a>,
    fill: OperationRef<'c, 'a>,
) -> OperationRef<'c, 'a> {
    if users(result(fill, 0).expect("a fill has a result")).len() < 2 {
        return fill;
    }
    let index = (consumer.operand_count() - 1) as isize;
    let clone = crate::distinct_empties::read_copy(fill.to_raw(), consumer.to_raw(), index);
    // SAFETY: the copy is a live op in the consumer's block.
    unsafe { OperationRef::from_raw(clone) }
}

/// The generics of a chain ending at `last` (a parallel generic), and the members whose
/// init is a fill (with the fill), when the chain qualifies.
#[allow(clippy::type_complexity)]
fn chain_from<'c, 'a>(
    last: OperationRef<'c, 'a>,
) -> Option<(
    Vec<OperationRef<'c, 'a>>,
    Vec<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>,
)> {
    let (outer, innermost, reduces) = row_shape(last)?;
    if reduces {
        return None;
    }
    let same = |a: &OperationRef, b: &OperationRef| a.to_raw().ptr == b.to_raw().ptr;
    let mut members = vec![last];
    let mut fills = Vec::new();
    // Members whose init is not fresh.
    let mut stale = Vec::new();
    let mut pending = vec![last];
    while let Some(consumer) = pending.pop() {
        let dims = map_dims(consumer)?;
        let loops = dims.last().map_or(0, Vec::len) + usize::from(row_shape(consumer)?.2);
        let inputs = consumer.operand_count() - 1;
        for (index, read) in dims.iter().enumerate().take(inputs) {
            let value = operand(consumer, index)?;
            let Some(producer) = producer(value) else {
                continue;
            };
            let Some((p_outer, p_innermost, p_reduces)) = row_shape(producer) else {
                continue;
            };
            if p_outer != outer || p_innermost != innermost {
                continue;
            }
            // Read by row: the whole row, or a reduction's statistic of the row.
            let by_row: Vec<usize> = (0..loops - usize::from(p_reduces)).collect();
            if *read != by_row {
                return None;
            }
            if !members.iter().any(|m| same(m, &producer)) {
                members.push(producer);
                pending.push(producer);
            }
        }
        // The init: a fresh tensor, filled for a reduction (checked for the members
        // that stay, below).
        match fresh_init(consumer) {
            Some(Some(fill)) => fills.push((consumer, fill)),
            Some(None) => {}
            None => stale.push(consumer),
        }
    }
    // A producer whose result is also read outside the chain (a mask broadcast that
    // every layer's softmax reads) stays outside it, read as an input, and so do the
    // members that only feed it: nothing is computed twice.
    loop {
        let outside = members.iter().skip(1).position(|member| {
            result(*member, 0).is_none_or(|value| {
                !users(value)
                    .iter()
                    .all(|user| members.iter().any(|m| same(m, user)))
            })
        });
        let Some(index) = outside else {
            break;
        };
        let removed = members.remove(index + 1);
        fills.retain(|(consumer, _)| !same(consumer, &removed));
    }
    if members.len() < 2 || !members.iter().any(|m| row_shape(*m).is_some_and(|s| s.2)) {
        return None;
    }
    if stale.iter().any(|op| members.iter().any(|m| same(m, op))) {
        return None;
    }
    Some((members, fills))
}

/// How a row is vectorized: `main` elements in unmasked pieces of `piece` (0: in one
/// vector), then, when 8 does not divide the row, the `tail` left after them as one
/// masked vector of `tail_lanes`, a power of two (Whisper's 1500 frames: 23 pieces of
/// 64, then 28 in 32 lanes; masked pieces of 60 all along the row ran slower, their
/// stores crossing cache lines). A tail of 44 in 48 lanes came out of LLVM element by
/// element (a `vinsertps` per lane in the disassembly; an op-by-op row of 44 in 48
/// lanes did not): softmax over 12 x 300 x 300 0.561 ms, in 64 lanes 0.293 ms
/// (onnxruntime 0.268).
#[derive(Clone, Copy, Debug)]
pub(super) struct RowVectors {
    main: i64,
    piece: i64,
    tail_lanes: i64,
}

impl RowVectors {
    /// Whether the row ends in a masked vector.
    pub fn masked(&self) -> bool {
        self.tail_lanes != 0
    }
}

/// The vector schedule of rows of `innermost` elements for the generics `members`.
pub(super) fn row_vectors(members: &[OperationRef], innermost: i64) -> Option<RowVectors> {
    if innermost % 8 == 0 {
        // Whole, or the longest multiple of 16 (else 8) of at most PIECE dividing it.
        let piece = if innermost <= PIECE {
            0
        } else {
            dividing_piece(innermost, PIECE)?
        };
        return Some(RowVectors {
            main: innermost,
            piece,
            tail_lanes: 0,
        });
    }
    if innermost < 16 || !members.iter().all(|m| maskable(*m)) {
        return None;
    }
    let main = innermost / PIECE * PIECE;
    let tail = innermost - main;
    Some(RowVectors {
        main,
        piece: if main > PIECE { PIECE } else { 0 },
        tail_lanes: (tail.max(16) as u64).next_power_of_two() as i64,
    })
}

/// Replaces every top-level `tensor.reshape` to its own type (a softmax's row
/// statistics reshaped from 6 x 1500 to 6 x 1500) by its source, so that the
/// statistic's readers read the reduction itself.
pub(super) fn forward_identity_reshapes(block: melior::ir::BlockRef) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("tensor.reshape") {
            continue;
        }
        let (Some(source), Some(reshaped)) = (operand(op, 0), result(op, 0)) else {
            continue;
        };
        // Static shapes only: two dynamic dimensions of one type may be swapped.
        let is_static =
            melior::ir::r#type::RankedTensorType::try_from(source.r#type()).is_ok_and(|t| {
                (0..t.rank())
                    .all(|d| matches!(t.dim_size(d), Ok(melior::ir::r#type::DimSize::Static(_))))
            });
        if is_static && source.r#type() == reshaped.r#type() {
            // SAFETY: both values are live and of one type; uses move to the source,
            // which dominates them (it is the reshape's operand); the reshape, then
            // unused, is detached and destroyed (the walk already holds the next op).
            unsafe {
                mlir_sys::mlirValueReplaceAllUsesOfWith(reshaped.to_raw(), source.to_raw());
                mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
                mlir_sys::mlirOperationDestroy(op.to_raw());
            }
        }
    }
}

/// Whether the (one) result of `op` holds f32 elements.
fn f32_result(op: OperationRef) -> bool {
    result(op, 0)
        .and_then(crate::lower_nodes::builder::tensor_info)
        .is_some_and(|(_, element)| element.is_f32())
}

/// The chains among the top-level `generics` of a function (in block order), for code
/// on `threads` threads; their ops are tagged for [`schedule`] and must not be
/// scheduled one by one.
pub(super) fn find<'c, 'a>(
    generics: &[OperationRef<'c, 'a>],
    threads: i64,
) -> Vec<RowChain<'c, 'a>> {
    let mut chains: Vec<RowChain> = Vec::new();
    let taken = |chains: &[RowChain], op: &OperationRef| {
        chains
            .iter()
            .any(|c| c.ops.iter().any(|m| m.to_raw().ptr == op.to_raw().ptr))
    };
    for last in generics.iter().rev() {
        if taken(&chains, last) {
            continue;
        }
        let Some((mut ops, fills)) = chain_from(*last) else {
            continue;
        };
        if ops.iter().any(|op| taken(&chains, op)) {
            continue;
        }
        let Some((outer, innermost, _)) = row_shape(*last) else {
            continue;
        };
        let min_bytes = if threads > 1 {
            MIN_BYTES_THREADS
        } else {
            MIN_BYTES
        };
        if outer.iter().product::<i64>() * innermost * 4 < min_bytes {
            continue;
        }
        // With threads, each row's buffers go on the stack of the thread computing it:
        // f32 rows of at most glow-private-buffers' largest buffer (a row buffer it
        // leaves on the heap could not be planned).
        if threads > 1
            && (innermost as u64 * 4 > crate::private_buffers::MAX_BYTES
                || !ops.iter().all(|op| f32_result(*op)))
        {
            continue;
        }
        let Some(vectors) = row_vectors(&ops, innermost) else {
            continue;
        };
        let steps = ops.len();
        ops.extend(
            fills
                .into_iter()
                .map(|(consumer, fill)| own_fill(consumer, fill)),
        );
        let kinds = ops
            .iter()
            .enumerate()
            .map(|(i, op)| (i < steps).then(|| row_shape(*op).is_some_and(|s| s.2)))
            .collect();
        chains.push(RowChain {
            kinds,
            ops,
            positions: Vec::new(),
            loops: parallel_iterators(*last).map_or(0, |p| p.len()),
            vectors,
        });
    }
    // Each chain's ops in block order (one walk of the block, after the fills' copies).
    if let Some(block) = chains.first().and_then(|c| c.ops[0].block()) {
        let mut positions = std::collections::HashMap::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            positions.insert(op.to_raw().ptr as usize, positions.len());
            next = op.next_in_block();
        }
        for chain in &mut chains {
            let mut ordered: Vec<(usize, Option<bool>, OperationRef)> = chain
                .ops
                .iter()
                .zip(&chain.kinds)
                .map(|(op, kind)| (positions[&(op.to_raw().ptr as usize)], *kind, *op))
                .collect();
            ordered.sort_by_key(|(position, _, _)| *position);
            chain.positions = ordered.iter().map(|(p, _, _)| *p).collect();
            chain.kinds = ordered.iter().map(|(_, k, _)| *k).collect();
            chain.ops = ordered.into_iter().map(|(_, _, op)| op).collect();
        }
    }
    for chain in &chains {
        for op in &chain.ops {
            super::set_tag_named(*op, TAG);
            // A row buffer of its own for each step (the last writes the output): one
            // shared with the output would make a step write the output's row, which
            // the next step then overwrites while reading it (a copy per row).
            crate::distinct_empties::own_destination(*op);
        }
    }
    chains
}

/// Script lines fusing each chain into a row loop and vectorizing its rows; whether any
/// row is masked (its reductions then need unmasking).
pub(super) fn schedule(script: &mut String, chains: &[RowChain], threads: i64) -> bool {
    if chains.is_empty() {
        return false;
    }
    let any = "!transform.any_op";
    let pair = format!("({any}, {any}) -> ({any}, {any})");
    // Handles in block order (the order of a pre-order walk of the function).
    let mut tagged: Vec<(usize, usize, usize)> = Vec::new();
    for (c, chain) in chains.iter().enumerate() {
        for m in 0..chain.ops.len() {
            tagged.push((chain.positions[m], c, m));
        }
    }
    tagged.sort();
    let names: Vec<String> = tagged
        .iter()
        .map(|(_, c, m)| format!("%chain{c}_op{m}"))
        .collect();
    let _ = writeln!(
        script,
        "    %chains = transform.structured.match attributes{{{TAG}}} in %root : ({any}) -> {any}\n    {} = transform.split_handle %chains : ({any}) -> ({})",
        names.join(", "),
        vec![any; names.len()].join(", ")
    );
    for (c, chain) in chains.iter().enumerate() {
        // The chain's result: every other op precedes it.
        let last = chain.ops.len() - 1;
        let mut handles: Vec<String> = (0..chain.ops.len())
            .map(|m| format!("%chain{c}_op{m}"))
            .collect();
        let target = handles[last].clone();
        let mut rows = vec![1; chain.loops];
        rows[chain.loops - 1] = 0;
        let outer = chain.loops - 1;
        // One thread: nested loops over the rows. Threads: one scf.forall over them,
        // each row's buffers private to its iteration (glow-private-buffers).
        let (innermost_loop, containing) = if threads > 1 {
            let _ = writeln!(
                script,
                "    %chain{c}_row, %chain{c}_rows = transform.structured.tile_using_forall {target} tile_sizes [{}] : ({any}) -> ({any}, {any})",
                list(&rows)
            );
            (format!("%chain{c}_rows"), format!("%chain{c}_rows"))
        } else {
            let _ = writeln!(
                script,
                "    %chain{c}_row, %chain{c}_loops:{outer} = transform.structured.tile_using_for {target} tile_sizes [{}] : ({any}) -> ({})",
                list(&rows),
                vec![any; outer + 1].join(", ")
            );
            (
                format!("%chain{c}_loops#{}", outer - 1),
                format!("%chain{c}_loops#0"),
            )
        };
        fuse_members(script, c, &innermost_loop, &mut handles, last, &pair);
        // Each row's steps as vector code; a row's buffers become row-sized tensors.
        handles[last] = format!("%chain{c}_row");
        let _ = writeln!(
            script,
            "    transform.apply_patterns to {containing} {{\n      transform.apply_patterns.tensor.fold_tensor_empty\n    }} : {any}"
        );
        for (m, handle) in handles.iter().enumerate() {
            if let Some(reduces) = chain.kinds[m] {
                vectorize_row(
                    script,
                    handle,
                    &format!("%chain{c}_step{m}"),
                    chain.vectors,
                    chain.loops,
                    reduces,
                );
            }
        }
    }
    chains.iter().any(|c| c.vectors.masked())
}

/// Script lines vectorizing `handle`, a generic over one row (every loop but the
/// innermost one step; `loops` loops), by `vectors`: whole pieces (a reduction folding
/// them into partial results), then the masked tail. `step` prefixes the new handles.
pub(super) fn vectorize_row(
    script: &mut String,
    handle: &str,
    step: &str,
    vectors: RowVectors,
    loops: usize,
    reduces: bool,
) {
    let any = "!transform.any_op";
    let last_dim = loops - 1;
    let mut pieces = vec![0; loops];
    pieces[last_dim] = vectors.piece;
    let mut tail_sizes = vec![1; loops];
    tail_sizes[last_dim] = vectors.tail_lanes;
    let mut main = handle.to_string();
    if vectors.tail_lanes != 0 && vectors.main != 0 {
        // The whole pieces, then the tail (a reduction's tail starts from the pieces'
        // result).
        let (whole, tail) = super::split_after(script, handle, last_dim, vectors.main, step);
        let _ = writeln!(
            script,
            "    transform.structured.vectorize {tail} vector_sizes [{}] : {any}",
            list(&tail_sizes)
        );
        main = whole;
    } else if vectors.tail_lanes != 0 {
        // A short row: one masked vector.
        let _ = writeln!(
            script,
            "    transform.structured.vectorize {handle} vector_sizes [{}] : {any}",
            list(&tail_sizes)
        );
        return;
    }
    let mut targets = vec![main.clone()];
    if vectors.piece != 0 && reduces {
        // A reduction in pieces: each piece folds into a piece-wide vector of partial
        // results, reduced to one value once per row.
        let _ = writeln!(
            script,
            "    {step}_init, {step}_partial, {step}_combine, {step}_loop = transform.structured.tile_reduction_using_for {main} by tile_sizes = [{}] : ({any}) -> ({any}, {any}, {any}, {any})",
            list(&pieces)
        );
        targets = vec![
            format!("{step}_init"),
            format!("{step}_partial"),
            format!("{step}_combine"),
        ];
    } else if vectors.piece != 0 {
        let _ = writeln!(
            script,
            "    {step}_pieces, {step}_loop = transform.structured.tile_using_for {main} tile_sizes [{}] : ({any}) -> ({any}, {any})",
            list(&pieces)
        );
        targets = vec![format!("{step}_pieces")];
    }
    for target in targets {
        let _ = writeln!(
            script,
            "    transform.structured.vectorize {target} : {any}"
        );
    }
}

/// Script lines fusing every op of chain `c` but the `last` generic into `containing`,
/// latest first, with a CSE before each so that two reads of one row share one slice
/// (one fused copy); `handles` then name the fused copies.
fn fuse_members(
    script: &mut String,
    c: usize,
    containing: &str,
    handles: &mut [String],
    last: usize,
    pair: &str,
) {
    let mut current = containing.to_string();
    for m in (0..handles.len()).rev().filter(|m| *m != last) {
        let _ = writeln!(
            script,
            "    transform.apply_cse to {current} : !transform.any_op\n    %chain{c}_fused{m}, %chain{c}_in{m} = transform.structured.fuse_into_containing_op {} into {current} : {pair}",
            handles[m]
        );
        handles[m] = format!("%chain{c}_fused{m}");
        current = format!("%chain{c}_in{m}");
    }
}

/// Whether `op` is tagged into a chain.
pub(super) fn in_chain(op: OperationRef) -> bool {
    op.has_attribute(TAG)
}
