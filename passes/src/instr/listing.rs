//! `glow-print-listing`: prints each glow.instr function as Glow's IR dump did — the
//! weights with their sizes, then the numbered instruction stream with each buffer an
//! instruction reads (`@in`), writes (`@out`) or both (`@inout`) — to stderr, or to
//! the file of the `file` option. The IR is not changed. Views (subviews, reshapes,
//! casts) and constants are not instructions: a buffer used through a view is listed
//! under the buffer's own name.

use super::buffers::{access, name_of, root, Access, TopLevel, VIEWS};
use crate::framework::{
    attributes, locations, OptionKind, PassDefinition, PassOption, PassOptions,
};
use crate::memory_plan::memref_bytes;
use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        BlockLike, OperationRef, RegionLike, Value, ValueLike,
    },
};
use std::{collections::HashMap, fmt::Write as _};

/// The pass definition registered as `glow-print-listing`.
pub static PRINT_LISTING: PassDefinition = PassDefinition {
    argument: "glow-print-listing",
    description: "Print glow.instr functions as Glow's instruction listing (weights, then numbered instructions with @in / @out / @inout buffers)",
    anchor: Some("func.func"),
    options: &[PassOption {
        name: "file",
        description: "Append the listing to this file instead of stderr",
        kind: OptionKind::String,
        default: None,
    }],
    dependent_dialects: Vec::<DialectHandle>::new,
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// The buffers of a function by raw value, with their listing names.
struct Names {
    names: HashMap<usize, String>,
}

impl Names {
    fn name(&self, value: Value) -> Option<&str> {
        self.names
            .get(&(value.to_raw().ptr as usize))
            .map(String::as_str)
    }
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// `offset N` when the planner placed the buffer.
fn offset_text(op: OperationRef) -> String {
    attributes::i64_value(op, "offset").map_or(String::new(), |o| format!(", offset {o}"))
}

fn run(function: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let region = function.region(0).map_err(|_| ())?;
    let Some(block) = region.first_block() else {
        return Ok(());
    };
    let top_level = TopLevel::new(block);
    let is_instr = top_level.ops.iter().any(|op| {
        matches!(
            name_of(*op).as_str(),
            "glow.instr.alloc_activation" | "glow.instr.weight"
        )
    });
    if !is_instr {
        return Ok(());
    }
    let function_name = attributes::string(function, "sym_name").unwrap_or_default();
    let mut text = format!("listing of @{function_name}\n");
    let mut names = Names {
        names: HashMap::new(),
    };
    let mut used_names: HashMap<String, usize> = HashMap::new();
    let mut unique = |base: String| -> String {
        let count = used_names.entry(base.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            base
        } else {
            format!("{base}.{}", *count - 1)
        }
    };
    // Arguments (before glow-plan-memory) and weights.
    text.push_str("weights:\n");
    for i in 0..block.argument_count() {
        let argument = block.argument(i).map_err(|_| ())?;
        if crate::framework::values::memref_type(argument.r#type()).is_none() {
            continue;
        }
        // After glow-plan-memory, the three byte buffers of Glow's bundle memory model.
        let planned = ["constant_weights", "mutable_weights", "activations"];
        let name = if function.attribute("glow.activations_size").is_ok() && i < 3 {
            unique(planned[i].to_string())
        } else {
            unique(format!("arg{i}"))
        };
        let bytes = memref_bytes(argument.r#type()).unwrap_or(0);
        let _ = writeln!(
            text,
            "  %{name} : {} ({bytes} bytes, argument)",
            argument.r#type()
        );
        names.names.insert(key(argument.into()), name);
    }
    for op in &top_level.ops {
        if name_of(*op) != "glow.instr.weight" {
            continue;
        }
        let result = op.result(0).map_err(|_| ())?;
        let name = unique(attributes::string(*op, "name").unwrap_or_else(|| "weight".into()));
        let mutability = if attributes::i64_value(*op, "mutability") == Some(0) {
            "constant"
        } else {
            "mutable"
        };
        let bytes = memref_bytes(result.r#type()).unwrap_or(0);
        let _ = writeln!(
            text,
            "  %{name} : {} ({bytes} bytes, {mutability}{})",
            result.r#type(),
            offset_text(*op)
        );
        names.names.insert(key(result.into()), name);
    }
    text.push_str("instructions:\n");
    let mut number = 0;
    for op in &top_level.ops {
        let op_name = name_of(*op);
        if op_name == "glow.instr.weight"
            || VIEWS.contains(&op_name.as_str())
            || op_name == "arith.constant"
            || op.to_raw().ptr
                == block
                    .terminator()
                    .map_or(std::ptr::null_mut(), |t| t.to_raw().ptr)
        {
            continue;
        }
        let node = locations::node_name(*op);
        let line = match op_name.as_str() {
            "glow.instr.alloc_activation" => {
                let result = op.result(0).map_err(|_| ())?;
                let name = unique(node.clone().unwrap_or_else(|| "activation".into()));
                let bytes = memref_bytes(result.r#type()).unwrap_or(0);
                let line = format!(
                    "%{name} = alloc_activation {} ({bytes} bytes{})",
                    result.r#type(),
                    offset_text(*op)
                );
                names.names.insert(key(result.into()), name);
                line
            }
            "glow.instr.dealloc_activation" => {
                let buffer = op.operand(0).map_err(|_| ())?;
                format!("dealloc_activation %{}", names.name(buffer).unwrap_or("?"))
            }
            _ => {
                let operands = buffer_operands(*op, &names);
                let node = node.map_or(String::new(), |n| format!(" '{n}'"));
                format!(
                    "{}{node} {}",
                    op_name.trim_start_matches("glow.instr."),
                    operands.join(", ")
                )
            }
        };
        let _ = writeln!(text, "  {number:>4} {}", line.trim_end());
        number += 1;
    }
    match options.value("file").filter(|f| !f.is_empty()) {
        Some(path) => {
            use std::io::Write as _;
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut file| file.write_all(text.as_bytes()));
            if let Err(error) = written {
                crate::framework::emit_error(
                    function.location(),
                    &format!("glow-print-listing: cannot write '{path}': {error}"),
                );
                return Err(());
            }
        }
        None => eprint!("{text}"),
    }
    Ok(())
}

/// The named buffers `op` touches (at any depth, through views), each with its role,
/// in order of first appearance.
fn buffer_operands(op: OperationRef, names: &Names) -> Vec<String> {
    let mut order: Vec<usize> = Vec::new();
    let mut roles: HashMap<usize, (bool, bool, String)> = HashMap::new();
    let mut visit = |owner: OperationRef| {
        for i in 0..owner.operand_count() {
            let Ok(operand) = owner.operand(i) else {
                continue;
            };
            if crate::framework::values::memref_type(operand.r#type()).is_none() {
                continue;
            }
            let buffer = root(operand);
            let Some(name) = names.name(buffer) else {
                continue;
            };
            let use_access = access(owner, i);
            if VIEWS.contains(&name_of(owner).as_str()) && i == 0 || use_access == Access::Free {
                continue;
            }
            let entry = roles.entry(key(buffer)).or_insert_with(|| {
                order.push(key(buffer));
                (false, false, name.to_string())
            });
            entry.0 |= use_access.reads();
            entry.1 |= use_access.writes();
        }
    };
    visit(op);
    op.walk(WalkOrder::PreOrder, |nested| {
        if nested.to_raw().ptr != op.to_raw().ptr {
            // SAFETY: the op is live during the walk.
            visit(unsafe { OperationRef::from_raw(nested.to_raw()) });
        }
        WalkResult::Advance
    });
    order
        .iter()
        .map(|k| {
            let (reads, writes, name) = &roles[k];
            let role = match (reads, writes) {
                (true, true) => "@inout",
                (false, true) => "@out",
                _ => "@in",
            };
            format!("{role} %{name}")
        })
        .collect()
}
