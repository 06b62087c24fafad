//! `glow-instr-memory-order`: memory-aware ordering of independent instructions on
//! glow.instr (Glow scheduled its graph by the memory its branches hold). Where the
//! order of the top-level instructions is free (no value, buffer or side effect
//! orders them), a list scheduler runs first what frees most: among the ready
//! instructions, the one that frees most (activation bytes whose last use it is, minus
//! the bytes it makes live), else the earliest in program order; and a depth-first
//! order from the last instructions in which what needs the most memory runs first
//! (Glow's scheduler by memory size). Of the two, the one with the lowest peak of live
//! activation bytes is kept if it is below the program order's; otherwise the function
//! is left as it is.
//!
//! Dependences: values (at any depth, through views, weights and constants, which are
//! not instructions and go to the top of the function), and for every buffer (an
//! activation, an argument, a weight, a global; through views, inside loops) reads
//! after writes, writes after reads and writes after writes. An instruction holding
//! an op whose effects are not known from its buffer operands (a call, say) orders
//! everything around it. Allocations and deallocations are not instructions either:
//! allocations go to the top and deallocations to the end, for
//! `glow-instr-shorten-lifetimes` to place them.

use super::buffers::{body, move_before, name_of, uses, Access, TopLevel, VIEWS};
use crate::framework::{PassDefinition, PassOptions};
use crate::memory_plan::memref_bytes;
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        BlockLike, OperationRef, Value, ValueLike,
    },
};
use std::collections::{BTreeSet, HashMap};

/// The pass definition registered as `glow-instr-memory-order`.
pub static MEMORY_ORDER: PassDefinition = PassDefinition {
    argument: "glow-instr-memory-order",
    description: "Reorder independent glow.instr instructions so that what frees most memory runs first, when that lowers the peak of live activation bytes",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::<DialectHandle>::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// Ops that are not instructions: they only name memory or values.
fn is_lazy_kind(name: &str) -> bool {
    matches!(
        name,
        "glow.instr.alloc_activation"
            | "glow.instr.dealloc_activation"
            | "glow.instr.weight"
            | "arith.constant"
            | "ub.poison"
            | "memref.get_global"
    ) || (VIEWS.contains(&name) && name != "memref.reshape")
    // memref.reshape reads its shape operand, a buffer: an instruction.
}

/// Whether an op (at any depth) has no effects but those on its buffer operands.
fn effects_known(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "linalg.",
        "scf.",
        "arith.",
        "math.",
        "vector.",
        "memref.",
        "affine.",
        "ub.",
        "index.",
        "x86vector.",
        "amx.",
        "glow.instr.",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p)) && name != "glow.instr.check"
}

/// The instructions of a function body, their dependences and the activation buffers
/// each touches.
struct Graph<'c, 'a> {
    /// Per top-level position: whether the op is not an instruction (a lazy kind of op
    /// whose operands are all arguments or results of such ops).
    lazy: Vec<bool>,
    /// The instructions in program order.
    nodes: Vec<OperationRef<'c, 'a>>,
    /// For each instruction, the instructions it must follow.
    predecessors: Vec<BTreeSet<usize>>,
    /// For each instruction, the activation buffers it touches (index into `sizes`).
    touches: Vec<Vec<usize>>,
    /// Bytes of each activation buffer.
    sizes: Vec<u64>,
}

fn build_graph<'c, 'a>(top: &TopLevel<'c, 'a>, terminator: usize) -> Graph<'c, 'a> {
    // Top-level position -> instruction number (lazy ops and the terminator have none).
    let mut node_of: HashMap<usize, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut lazy = vec![false; top.ops.len()];
    for (position, op) in top.ops.iter().enumerate() {
        if position == terminator {
            continue;
        }
        lazy[position] = is_lazy_kind(&name_of(*op))
            && op.operands().all(|operand| {
                super::buffers::defining_op(operand)
                    .and_then(|owner| top.position(owner))
                    .is_none_or(|p| lazy[p])
            });
        if !lazy[position] {
            node_of.insert(position, nodes.len());
            nodes.push(*op);
        }
    }
    let mut predecessors = vec![BTreeSet::new(); nodes.len()];

    // Values: an operand at any depth defined by another instruction, directly or
    // through lazy ops.
    for (index, node) in nodes.iter().enumerate() {
        let mut producers = BTreeSet::new();
        node.walk(WalkOrder::PreOrder, |nested| {
            for operand in nested.operands() {
                collect_producers(top, &node_of, operand, &mut producers);
            }
            WalkResult::Advance
        });
        producers.remove(&index);
        predecessors[index].extend(producers);
    }

    // Unknown effects: ordered against everything before and after.
    let barriers: Vec<usize> = (0..nodes.len())
        .filter(|i| {
            let mut known = true;
            nodes[*i].walk(WalkOrder::PreOrder, |nested| {
                known &= effects_known(&name_of(nested));
                WalkResult::Advance
            });
            !known
        })
        .collect();
    for barrier in barriers {
        for (later, set) in predecessors.iter_mut().enumerate() {
            if later > barrier {
                set.insert(barrier);
            }
        }
        predecessors[barrier].extend(0..barrier);
    }

    // Buffers: every memref that is not a view of another, with its accesses per
    // instruction in program order.
    let mut sizes = Vec::new();
    let mut touches = vec![Vec::new(); nodes.len()];
    for root in buffer_roots(top, terminator) {
        let mut accesses: Vec<(usize, Access)> = Vec::new();
        for u in uses(root) {
            let Some(node) = top.position(u.owner).and_then(|p| node_of.get(&p)) else {
                continue;
            };
            if u.access == Access::Free {
                continue;
            }
            match accesses.iter_mut().find(|(n, _)| n == node) {
                Some((_, access)) if *access != u.access => *access = Access::ReadWrite,
                Some(_) => {}
                None => accesses.push((*node, u.access)),
            }
        }
        accesses.sort_by_key(|(node, _)| *node);
        let (mut writers, mut readers): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for (node, access) in &accesses {
            predecessors[*node].extend(writers.iter().filter(|w| *w != node));
            if access.writes() {
                predecessors[*node].extend(readers.iter().filter(|r| *r != node));
                writers = vec![*node];
                readers.clear();
            }
            if access.reads() {
                readers.push(*node);
            }
        }
        let activation = super::buffers::is_activation(root);
        if let (true, Some(bytes)) = (activation, memref_bytes(root.r#type())) {
            for (node, _) in &accesses {
                touches[*node].push(sizes.len());
            }
            sizes.push(bytes);
        }
    }
    Graph {
        lazy,
        nodes,
        predecessors,
        touches,
        sizes,
    }
}

/// The instructions `value` comes from: its defining instruction, or those of the
/// lazy op (view, constant) defining it.
fn collect_producers(
    top: &TopLevel,
    node_of: &HashMap<usize, usize>,
    value: Value,
    producers: &mut BTreeSet<usize>,
) {
    let Some(owner) = super::buffers::defining_op(value) else {
        return;
    };
    let Some(position) = top.position(owner) else {
        return;
    };
    if let Some(node) = node_of.get(&position) {
        producers.insert(*node);
    } else {
        for operand in top.ops[position].operands() {
            collect_producers(top, node_of, operand, producers);
        }
    }
}

/// The memrefs the body's buffers start from: the function's arguments and the
/// results of top-level ops that are not views.
fn buffer_roots<'c, 'a>(top: &TopLevel<'c, 'a>, terminator: usize) -> Vec<Value<'c, 'a>> {
    let is_memref = |value: &Value| crate::framework::values::memref_type(value.r#type()).is_some();
    let mut roots: Vec<Value> = Vec::new();
    if let Some(first) = top.ops.first() {
        let block = super::buffers::parent_block(*first);
        for i in 0..block.argument_count() {
            if let Ok(argument) = block.argument(i) {
                roots.push(argument.into());
            }
        }
    }
    for (position, op) in top.ops.iter().enumerate() {
        if position == terminator || VIEWS.contains(&name_of(*op).as_str()) {
            continue;
        }
        for i in 0..op.result_count() {
            if let Ok(result) = op.result(i) {
                roots.push(result.into());
            }
        }
    }
    roots.retain(is_memref);
    roots
}

/// The peak of live activation bytes when the instructions run in `order` (a buffer
/// lives from the first instruction touching it to the last).
fn peak(graph: &Graph, order: &[usize]) -> u64 {
    let mut first = vec![usize::MAX; graph.sizes.len()];
    let mut last = vec![0; graph.sizes.len()];
    for (time, node) in order.iter().enumerate() {
        for buffer in &graph.touches[*node] {
            first[*buffer] = first[*buffer].min(time);
            last[*buffer] = time;
        }
    }
    let mut change = vec![0i64; order.len() + 1];
    for buffer in 0..graph.sizes.len() {
        if first[buffer] != usize::MAX {
            change[first[buffer]] += graph.sizes[buffer] as i64;
            change[last[buffer] + 1] -= graph.sizes[buffer] as i64;
        }
    }
    let (mut live, mut peak) = (0i64, 0i64);
    for delta in change {
        live += delta;
        peak = peak.max(live);
    }
    peak as u64
}

/// Greedy list scheduling: of the ready instructions, the one that frees most first,
/// else the earliest in program order.
fn schedule(graph: &Graph) -> Vec<usize> {
    let count = graph.nodes.len();
    let mut waiting: Vec<usize> = graph.predecessors.iter().map(BTreeSet::len).collect();
    let mut successors = vec![Vec::new(); count];
    for (node, set) in graph.predecessors.iter().enumerate() {
        for predecessor in set {
            successors[*predecessor].push(node);
        }
    }
    let mut remaining_users = vec![0usize; graph.sizes.len()];
    for buffers in &graph.touches {
        for buffer in buffers {
            remaining_users[*buffer] += 1;
        }
    }
    let mut live = vec![false; graph.sizes.len()];
    let mut ready: BTreeSet<usize> = (0..count).filter(|n| waiting[*n] == 0).collect();
    let mut order = Vec::with_capacity(count);
    while let Some(&chosen) = ready.iter().min_by_key(|node| {
        let growth: i64 = graph.touches[**node]
            .iter()
            .map(|b| {
                let size = graph.sizes[*b] as i64;
                let opens = if live[*b] { 0 } else { size };
                let frees = if remaining_users[*b] == 1 { size } else { 0 };
                opens - frees
            })
            .sum();
        // What frees memory first, most first; otherwise program order (an op that
        // only opens buffers, a fill say, is ready long before it is useful).
        if growth <= 0 {
            (0, growth, **node)
        } else {
            (1, 0, **node)
        }
    }) {
        ready.remove(&chosen);
        order.push(chosen);
        for buffer in &graph.touches[chosen] {
            live[*buffer] = true;
            remaining_users[*buffer] -= 1;
        }
        for successor in &successors[chosen] {
            waiting[*successor] -= 1;
            if waiting[*successor] == 0 {
                ready.insert(*successor);
            }
        }
    }
    order
}

/// Depth first from the instructions nothing depends on (Glow's scheduler by memory
/// size): each instruction runs right after what it needs, and of what it needs the
/// part that holds the most memory on its way runs first, so branches run one at a
/// time and what an instruction opens is opened just before it.
fn depth_first(graph: &Graph) -> Vec<usize> {
    let count = graph.nodes.len();
    let opened: Vec<u64> = graph
        .touches
        .iter()
        .map(|buffers| buffers.iter().map(|b| graph.sizes[*b]).sum())
        .collect();
    // The most memory live on the way to each instruction (predecessors come first).
    let mut most = vec![0u64; count];
    for node in 0..count {
        most[node] = graph.predecessors[node]
            .iter()
            .map(|p| most[*p])
            .max()
            .unwrap_or(0)
            .max(opened[node]);
    }
    let mut has_successor = vec![false; count];
    for set in &graph.predecessors {
        for p in set {
            has_successor[*p] = true;
        }
    }
    let mut visited = vec![false; count];
    let mut order = Vec::with_capacity(count);
    for sink in (0..count).filter(|n| !has_successor[*n]) {
        // (instruction, its predecessors by decreasing memory, how many were visited)
        let mut stack: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        let sorted = |node: usize| {
            let mut predecessors: Vec<usize> = graph.predecessors[node].iter().copied().collect();
            predecessors.sort_by_key(|p| (std::cmp::Reverse(most[*p]), *p));
            predecessors
        };
        if visited[sink] {
            continue;
        }
        visited[sink] = true;
        stack.push((sink, sorted(sink), 0));
        while let Some((node, predecessors, next)) = stack.last_mut() {
            if let Some(&predecessor) = predecessors.get(*next) {
                *next += 1;
                if !visited[predecessor] {
                    visited[predecessor] = true;
                    let list = sorted(predecessor);
                    stack.push((predecessor, list, 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
    }
    order
}

fn run(function: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    let Some(block) = body(function) else {
        return Ok(());
    };
    let Some(terminator_op) = block.terminator() else {
        return Ok(());
    };
    let top = TopLevel::new(block);
    let Some(terminator) = top.position(terminator_op) else {
        return Ok(());
    };
    let graph = build_graph(&top, terminator);
    // Two schedules; the lowest peak wins, program order on ties.
    let program_order: Vec<usize> = (0..graph.nodes.len()).collect();
    let mut best = (peak(&graph, &program_order), program_order);
    for order in [schedule(&graph), depth_first(&graph)] {
        let candidate = peak(&graph, &order);
        if order.len() == graph.nodes.len() && candidate < best.0 {
            best = (candidate, order);
        }
    }
    let order = best.1;
    if order.iter().enumerate().all(|(i, n)| i == *n) {
        return Ok(());
    }
    // Lazy ops first (in their order), the instructions in the new order, the
    // deallocations last (in their order).
    let mut previous: Option<OperationRef> = None;
    for (position, op) in top.ops[..terminator].iter().enumerate() {
        if name_of(*op) == "glow.instr.dealloc_activation" {
            move_before(*op, terminator_op);
        } else if graph.lazy[position] {
            match previous {
                Some(previous) => super::buffers::move_after(*op, previous),
                None => {
                    if let Some(first) = block.first_operation() {
                        if first.to_raw().ptr != op.to_raw().ptr {
                            move_before(*op, first);
                        }
                    }
                }
            }
            previous = Some(*op);
        }
    }
    let deallocs_start = top.ops[..terminator]
        .iter()
        .find(|op| name_of(**op) == "glow.instr.dealloc_activation")
        .copied()
        .unwrap_or(terminator_op);
    for node in order {
        move_before(graph.nodes[node], deallocs_start);
    }
    Ok(())
}
