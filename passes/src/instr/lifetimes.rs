//! `glow-instr-shorten-lifetimes`: Glow's alloc sinking and dealloc hoisting on
//! glow.instr. Each `glow.instr.alloc_activation` moves down to just before the first
//! top-level op that uses its buffer (directly, through a view, or inside a loop), and
//! its `glow.instr.dealloc_activation` up to just after the last one, so the planner
//! sees the shortest lifetimes. A buffer nothing uses loses its dealloc next to it (and
//! `glow-instr-dead-allocs` removes it). A buffer with no dealloc gets one. Views
//! (reshapes, subviews, tensorviews) move down to their first user first: an alloc
//! cannot go below a view of its buffer, and `glow-instr-memory-order` puts views at
//! the top of the function when it reorders, which had left every allocation of a
//! reordered function at the top (a 2-layer encoder's arena 1.8 -> 4.2 MB).

use super::buffers::{
    body, build_dealloc, deallocs, direct_uses, erase, move_after, move_before, name_of,
    top_level_ops, uses, Access, TopLevel, VIEWS,
};
use crate::framework::{PassDefinition, PassOptions};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef},
};
use std::collections::HashMap;

/// The pass definition registered as `glow-instr-shorten-lifetimes`.
pub static SHORTEN_LIFETIMES: PassDefinition = PassDefinition {
    argument: "glow-instr-shorten-lifetimes",
    description: "Sink each glow.instr.alloc_activation to its first use and hoist its dealloc_activation to its last (Glow's dealloc hoisting)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::<DialectHandle>::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = body(function) else {
        return Ok(());
    };
    sink_views(block);
    // Only allocations and deallocations move below, and no position of theirs is
    // read: the positions of the other ops stay in order, and are computed once
    // (recomputed for each buffer, they made the pass quadratic: a 2-layer LSTM
    // unrolled over 512 steps took 10 s here).
    let top_level = TopLevel::new(block);
    let allocations = top_level_ops(block, |op| name_of(op) == "glow.instr.alloc_activation");
    for alloc in allocations {
        let buffer = alloc.result(0).map_err(|_| ())?;
        let used_at: Vec<usize> = uses(buffer.into())
            .iter()
            .filter(|u| u.access != Access::Free)
            .filter_map(|u| top_level.position(u.owner))
            .collect();
        // The alloc must stay above every op defined from the buffer (its views too).
        let first = direct_uses(buffer.into())
            .iter()
            .filter(|(owner, _)| name_of(*owner) != "glow.instr.dealloc_activation")
            .filter_map(|(owner, _)| top_level.position(*owner))
            .min();
        let frees = deallocs(buffer.into());
        let (Some(first), Some(last)) = (first, used_at.iter().max()) else {
            // Unused: the dealloc follows the alloc.
            for dealloc in frees.iter().skip(1) {
                erase(*dealloc);
            }
            match frees.first() {
                Some(dealloc) => move_after(*dealloc, alloc),
                None => {
                    block.insert_operation_after(
                        alloc,
                        build_dealloc(buffer.into(), alloc.location()),
                    );
                }
            }
            continue;
        };
        let (first_user, last_user) = (top_level.ops[first], top_level.ops[*last]);
        move_before(alloc, first_user);
        for dealloc in frees.iter().skip(1) {
            erase(*dealloc);
        }
        // After the terminator nothing can go: a buffer the terminator uses lives on.
        let is_terminator = block
            .terminator()
            .is_some_and(|t| t.to_raw().ptr == last_user.to_raw().ptr);
        let dealloc = match frees.first() {
            Some(dealloc) => *dealloc,
            None => block
                .insert_operation_after(last_user, build_dealloc(buffer.into(), alloc.location())),
        };
        if is_terminator {
            move_before(dealloc, last_user);
        } else {
            move_after(dealloc, last_user);
        }
    }
    Ok(())
}

/// Moves each top-level view down to just before the first top-level op that uses
/// it, the last views first (a view of a view then follows the view it feeds).
/// Positions are computed once: a moved view is placed by the op it now precedes (its
/// anchor, an op that has not moved) and its rank among the views moved in front of
/// that op, so no position has to be recomputed after a move.
fn sink_views(block: BlockRef) {
    let views = top_level_ops(block, |op| VIEWS.contains(&name_of(op).as_str()));
    let top_level = TopLevel::new(block);
    let mut moved = MovedViews::default();
    for view in views.iter().rev() {
        let Some(here) = top_level.position(*view) else {
            continue;
        };
        let first = (0..view.result_count())
            .filter_map(|i| view.result(i).ok())
            .flat_map(|result| direct_uses(result.into()))
            .filter_map(|(owner, _)| top_level.position(owner).map(|at| (owner, at)))
            .map(|(owner, at)| {
                // The user's top-level op: a view moved before, or the op at `at`.
                let top = if moved.anchor.contains_key(&pointer(owner)) {
                    owner
                } else {
                    top_level.ops[at]
                };
                (moved.key(top, at), top, at)
            })
            .min_by_key(|(key, _, _)| *key);
        let Some((key, first_user, at)) = first else {
            continue;
        };
        let next_is_user = view
            .next_in_block()
            .is_some_and(|next| pointer(next) == pointer(first_user));
        // The view has not moved: its key is (here, after every rank).
        if key > (here, usize::MAX) && !next_is_user {
            move_before(*view, first_user);
            moved.placed_before(*view, first_user, at);
        }
    }
}

fn pointer(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The views [`sink_views`] moved: each one's anchor (the position of the unmoved op it
/// precedes) and, per anchor, the views in front of it in block order.
#[derive(Default)]
struct MovedViews {
    anchor: HashMap<usize, usize>,
    in_front: HashMap<usize, Vec<usize>>,
}

impl MovedViews {
    /// The order key of top-level op `op`, at position `at` before any move: (its
    /// anchor, its rank in front of it) for a moved view, (`at`, after every rank)
    /// otherwise.
    fn key(&self, op: OperationRef, at: usize) -> (usize, usize) {
        match self.anchor.get(&pointer(op)) {
            Some(&anchor) => (anchor, self.rank(anchor, op)),
            None => (at, usize::MAX),
        }
    }

    /// The place of moved view `op` among the views in front of `anchor`.
    fn rank(&self, anchor: usize, op: OperationRef) -> usize {
        self.in_front[&anchor]
            .iter()
            .position(|v| *v == pointer(op))
            .unwrap_or(0)
    }

    /// Records that `view` moved to just before `next` (at position `at` before any
    /// move).
    fn placed_before(&mut self, view: OperationRef, next: OperationRef, at: usize) {
        let (anchor, rank) = match self.anchor.get(&pointer(next)) {
            Some(&anchor) => (anchor, self.rank(anchor, next)),
            None => (at, self.in_front.get(&at).map_or(0, Vec::len)),
        };
        self.in_front
            .entry(anchor)
            .or_default()
            .insert(rank, pointer(view));
        self.anchor.insert(pointer(view), anchor);
    }
}
