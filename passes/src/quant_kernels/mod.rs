//! `glow-quant-kernels{isa=host|amx|avx512-vnni|generic|amx-emulated}`: glow.quant.conv2d
//! (NHWC, group one or depthwise) and glow.quant.fully_connected with constant 8-bit
//! weights (centred on their zero points; uint8 weights that then leave int8 are
//! offset by 128 and corrected with input window sums ([`window_sums`]), or split into
//! two int8 halves in depthwise layers) and 8-bit activations, with an 8-bit result or the exact
//! int32 one (ONNX's ConvInteger / MatMulInteger), become a call to a generated int8
//! micro-kernel ([`amx_kernel`], [`conv_kernel`], [`depthwise_kernel`]),
//! with the filter packed and the bias / requantization constants computed at
//! compile time ([`packing`]). A fully_connected layer is the 1x1 convolution of an
//! 1 x 1 x M x K image. Run `inline` afterwards; the ops it leaves (other layouts,
//! depthwise uint8 weights of 255 with zero point 0, runtime weights) take glow-graph-to-linalg's
//! reference lowering.
//!
//! `glow.quant.lookup_table` ops (8-bit, 64 elements or more) become calls of a byte
//! permute kernel ([`lookup_kernel`]) when `lookup-tables` is `vbmi`, or `host` (the
//! default) and the kernels' CPU has AVX-512 VBMI: this CPU for `isa=host`, an AMX one
//! for `isa=amx` (Sapphire Rapids and later have it); never for `avx512-vnni`, which
//! Cascade Lake also runs without VBMI, nor `generic`. `gather` leaves them to the
//! reference lowering.
//!
//! `isa=host` (the default) picks `amx` when the CPU running the compiler has AMX-INT8
//! and Linux grants the tile state, else `avx512-vnni` when it has AVX-512 VNNI, else
//! `generic` ([`host_cpu`]); bundles for another CPU pass it explicitly. `amx` puts
//! dense convolutions with input channels in multiples of 64 on AMX tiles and the
//! other layers on VNNI; `amx-emulated` builds the same AMX kernels with every tile
//! operation spelled as vector code, to execute and check them on CPUs without AMX.

pub mod amx_kernel;
pub mod amx_tiles;
pub mod conv_kernel;
pub mod depthwise_kernel;
pub mod grouped;
pub mod host_cpu;
pub mod kernel_text;
pub mod lookup_kernel;
pub mod lower_dot4;
pub mod packing;
pub mod plan;
pub mod window_sums;

use crate::{
    framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions},
    lower_nodes::builder::tensor_info,
    quantization::ir::tensor_type,
};
pub use host_cpu::{host_has_amx, host_has_vbmi, host_has_vnni};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::FlatSymbolRefAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, BlockLike, BlockRef, Identifier, Module, Operation, OperationRef, RegionLike,
        Type, Value, ValueLike,
    },
    Context,
};

/// The pass definition registered as `glow-quant-kernels`.
pub static QUANT_KERNELS: PassDefinition = PassDefinition {
    argument: "glow-quant-kernels",
    description: "Replace int8 convolutions and fully-connected layers with constant weights by AMX, VNNI or plain-vector micro-kernels with packed filters",
    anchor: Some("builtin.module"),
    options: &[
        PassOption {
            name: "isa",
            description: "host (AMX or VNNI when this CPU has them), amx, avx512-vnni, generic, or amx-emulated (AMX kernels in vector code, for testing)",
            kind: OptionKind::String,
            default: Some("host"),
        },
        PassOption {
            name: "lookup-tables",
            description: "host (VBMI byte-permute kernels when the isa's CPU has VBMI), vbmi, or gather (the reference lowering)",
            kind: OptionKind::String,
            default: Some("host"),
        },
    ],
    dependent_dialects: kernel_dialects,
    validate,
    run,
};

/// The dialects of generated kernels' ops (loaded before a kernel pass runs).
pub(crate) fn kernel_dialects() -> Vec<DialectHandle> {
    // SAFETY: static descriptors of dialects linked into the binary.
    let extra = unsafe {
        [
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__math__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__llvm__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__quant__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__memref__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__bufferization__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__amx__()),
        ]
    };
    let mut dialects = vec![
        DialectHandle::func(),
        DialectHandle::scf(),
        DialectHandle::arith(),
        DialectHandle::tensor(),
        DialectHandle::affine(),
    ];
    dialects.extend(extra);
    dialects.extend(glow_dialects::glow_dialect_handles());
    dialects
}

fn validate(options: &PassOptions) -> Result<(), String> {
    match options.value("isa").unwrap_or("host") {
        "host" | "amx" | "avx512-vnni" | "generic" | "amx-emulated" => {}
        other => {
            return Err(format!(
                "'isa' is '{other}'; expected host, amx, avx512-vnni, generic or amx-emulated"
            ))
        }
    }
    match options.value("lookup-tables").unwrap_or("host") {
        "host" | "vbmi" | "gather" => Ok(()),
        other => Err(format!(
            "'lookup-tables' is '{other}'; expected host, vbmi or gather"
        )),
    }
}

/// Whether lookup tables become VBMI permute kernels under `options`.
fn permute_lookups(options: &PassOptions) -> bool {
    match options.value("lookup-tables").unwrap_or("host") {
        "vbmi" => true,
        "gather" => false,
        _ => match options.value("isa").unwrap_or("host") {
            "amx" => true,
            "host" | "amx-emulated" => host_has_vbmi(),
            _ => false,
        },
    }
}

/// Inserts ops before an op of a block.
pub(crate) struct Inserter<'c, 'a> {
    pub(crate) context: &'c Context,
    pub(crate) block: BlockRef<'c, 'a>,
    pub(crate) before: OperationRef<'c, 'a>,
}

impl<'c, 'a> Inserter<'c, 'a> {
    /// An inserter before `op` (`None` when `op` is in no block).
    pub(crate) fn before(context: &'c Context, op: OperationRef<'c, 'a>) -> Option<Self> {
        Some(Self {
            context,
            block: op.block()?,
            before: op,
        })
    }

    pub(crate) fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attributes: &[(&str, Attribute<'c>)],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let op = OperationBuilder::new(name, self.before.location())
            .add_operands(operands)
            .add_attributes(&attributes)
            .add_results(&[result])
            .build()
            .unwrap_or_else(|e| panic!("cannot build {name}: {e}"));
        let inserted = self.block.insert_operation_before(self.before, op);
        let value = inserted.result(0).expect("one result");
        // SAFETY: the op lives in `block`, alive for 'a.
        unsafe { Value::from_raw(value.to_raw()) }
    }

    pub(crate) fn constant(&self, attribute: Attribute<'c>, r#type: Type<'c>) -> Value<'c, 'a> {
        self.op("arith.constant", &[], &[("value", attribute)], r#type)
    }
}

/// Gives every user of `op`'s one result `value` (of the result's type) instead, and
/// erases `op`.
pub(crate) fn replace_and_erase(op: OperationRef, value: Value) {
    let Ok(result) = op.result(0) else {
        return;
    };
    // SAFETY: both values are live and of one type; `op` has no users left when it is
    // detached and destroyed, and the caller drops its handle.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw());
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
}

fn i8_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 8).into()
}

/// Replaces `op` with a call of the kernel `plan` describes (defined in `module_block`).
fn replace(
    context: &Context,
    op: OperationRef,
    plan: &plan::Plan,
    module_block: BlockRef,
) -> Option<()> {
    let inserter = Inserter::before(context, op)?;
    let i8 = i8_type(context);
    let mut input = op.operand(0).ok()?;
    let (_, x_element) = tensor_info(input)?;
    if plan.matrix.is_some() {
        input = inserter.op(
            "glow.graph.reshape",
            &[input],
            &[],
            tensor_type(&plan.input, x_element),
        );
    }
    let mut storage = inserter.op("quant.scast", &[input], &[], tensor_type(&plan.input, i8));
    if let Some((pad, padded)) = &plan.pad {
        let callee = FlatSymbolRefAttribute::new(context, pad).into();
        storage = inserter.op(
            "func.call",
            &[storage],
            &[("callee", callee)],
            tensor_type(padded, i8),
        );
    }
    let filter_type = tensor_type(&plan.filter_shape, i8);
    let filter = inserter.constant(
        glow_dialects::elements::resource_elements(filter_type, "packed", &plan.packed),
        filter_type,
    );
    let fp = plan.output[3];
    let i32: Type = IntegerType::new(context, 32).into();
    // Per kernel output channel; a grouped plan's hold every group's.
    let bias_type = tensor_type(&[plan.bias.len() as i64], i32);
    let bias_bytes: Vec<u8> = plan.bias.iter().flat_map(|b| b.to_le_bytes()).collect();
    let bias = inserter.constant(
        crate::quantization::ir::elements_attribute(bias_type, &bias_bytes, "bias"),
        bias_type,
    );
    let mult_type = tensor_type(&[plan.multipliers.len() as i64], Type::float32(context));
    let mult_bytes: Vec<u8> = plan
        .multipliers
        .iter()
        .flat_map(|m| m.to_le_bytes())
        .collect();
    let multipliers = inserter.constant(
        crate::quantization::ir::elements_attribute(mult_type, &mult_bytes, "scale"),
        mult_type,
    );
    let out_shape = plan.output;
    let out_element: Type = if plan.exact_output { i32 } else { i8 };
    let out_type = tensor_type(&out_shape, out_element);
    let init = inserter.op("tensor.empty", &[], &[], out_type);
    let callee = FlatSymbolRefAttribute::new(context, &plan.name).into();
    let mut result = inserter.op(
        "func.call",
        &[storage, filter, bias, multipliers, init],
        &[("callee", callee)],
        out_type,
    );
    let real_shape = [out_shape[0], out_shape[1], out_shape[2], plan.filters];
    if plan.filters != fp {
        let array = |values: &[i64]| -> Attribute {
            melior::ir::attribute::DenseI64ArrayAttribute::new(context, values).into()
        };
        let segments: Attribute =
            melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 0, 0, 0]).into();
        result = inserter.op(
            "tensor.extract_slice",
            &[result],
            &[
                ("static_offsets", array(&[0, 0, 0, 0])),
                ("static_sizes", array(&real_shape)),
                ("static_strides", array(&[1, 1, 1, 1])),
                ("operandSegmentSizes", segments),
            ],
            tensor_type(&real_shape, out_element),
        );
    }
    let y = op.result(0).ok()?;
    let (y_shape, y_element) = tensor_info(y.into())?;
    let mut value = inserter.op(
        "quant.scast",
        &[result],
        &[],
        tensor_type(&real_shape, y_element),
    );
    if plan.matrix.is_some() {
        value = inserter.op(
            "glow.graph.reshape",
            &[value],
            &[],
            tensor_type(&y_shape, y_element),
        );
    }
    replace_and_erase(op, value);
    // The kernel function, parsed from its text and moved into the module (an AMX
    // kernel calls the permission helper, declared for the parse only).
    let declarations = if plan.amx {
        amx_tiles::REQUEST_AMX_DECLARATION
    } else {
        ""
    };
    append_text(module_block, context, declarations, &plan.text)
}

/// Parses `declarations` (one top-level op, or nothing) and `text` (top-level ops)
/// as one module and moves the ops of `text` to the end of `module_block`.
pub(crate) fn append_text(
    module_block: BlockRef,
    context: &Context,
    declarations: &str,
    text: &str,
) -> Option<()> {
    let parsed = Module::parse(context, &format!("module {{\n{declarations}\n{text}}}\n"))?;
    let mut next = parsed.body().first_operation();
    if !declarations.is_empty() {
        next = next?.next_in_block();
    }
    while let Some(op) = next {
        next = op.next_in_block();
        // SAFETY: the op is detached from the temporary module and owned here.
        let op = unsafe {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            Operation::from_raw(op.to_raw())
        };
        module_block.append_operation(op);
    }
    Some(())
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let choice = plan::Choice::from_option(options.value("isa").unwrap_or("host"));
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let Some(module_block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let targets = ops_named(module, &["glow.quant.conv2d", "glow.quant.fully_connected"]);
    let mut amx_helper = false;
    let mut names = SymbolNames::new(module, "glow_int8_kernel");
    for raw in targets {
        // SAFETY: collected from the live module; ops are only erased after use.
        let op = unsafe { OperationRef::from_raw(raw) };
        let name = names.next();
        let Some(plan) = plan::plan(op, choice, name) else {
            continue;
        };
        if plan.amx && !amx_helper {
            amx_helper = true;
            if append_text(module_block, context, "", amx_tiles::REQUEST_AMX).is_none() {
                emit_error(
                    module.location(),
                    "glow-quant-kernels: internal error while adding the AMX permission helper",
                );
                return Err(());
            }
        }
        if replace(context, op, &plan, module_block).is_none() {
            emit_error(
                module.location(),
                "glow-quant-kernels: internal error while generating an int8 kernel",
            );
            return Err(());
        }
    }
    if permute_lookups(options) {
        for raw in ops_named(module, &["glow.quant.lookup_table"]) {
            // SAFETY: as above.
            let op = unsafe { OperationRef::from_raw(raw) };
            let Some(kernel) = lookup_kernel::kernel_for(op, &names.next()) else {
                continue;
            };
            if lookup_kernel::replace(context, op, &kernel, module_block).is_none() {
                emit_error(
                    module.location(),
                    "glow-quant-kernels: internal error while generating a lookup kernel",
                );
                return Err(());
            }
        }
    }
    Ok(())
}

/// The ops of `module` named one of `names`, in pre-order (raw handles, so that the
/// caller may erase each after its use).
pub(crate) fn ops_named(module: OperationRef, names: &[&str]) -> Vec<mlir_sys::MlirOperation> {
    let mut found = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        if name
            .as_string_ref()
            .as_str()
            .is_ok_and(|name| names.contains(&name))
        {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    found
}

/// Fresh symbol names `<prefix>_<n>` for kernels added to a module: names the module
/// already defines are skipped.
pub(crate) struct SymbolNames {
    table: mlir_sys::MlirSymbolTable,
    prefix: &'static str,
    next: usize,
}

impl SymbolNames {
    /// Names for kernels added to `module`.
    pub(crate) fn new(module: OperationRef, prefix: &'static str) -> Self {
        // SAFETY: `module` is a live op with the symbol-table trait; the table is
        // destroyed on drop, before the pass returns.
        let table = unsafe { mlir_sys::mlirSymbolTableCreate(module.to_raw()) };
        Self {
            table,
            prefix,
            next: 0,
        }
    }

    /// The next name no symbol of the module has (at the time the table was built,
    /// or added since under a name this generator gave).
    pub(crate) fn next(&mut self) -> String {
        loop {
            self.next += 1;
            let name = format!("{}_{}", self.prefix, self.next);
            let symbol = melior::StringRef::new(&name);
            // SAFETY: a lookup in a live symbol table.
            let exists = unsafe {
                !mlir_sys::mlirSymbolTableLookup(self.table, symbol.to_raw())
                    .ptr
                    .is_null()
            };
            if !exists {
                return name;
            }
        }
    }
}

impl Drop for SymbolNames {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        unsafe { mlir_sys::mlirSymbolTableDestroy(self.table) };
    }
}
