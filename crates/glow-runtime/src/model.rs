//! Loading a model for the runners: an ONNX file imported with the given input shapes
//! (and frozen inputs), or a `.mlir` module; its entry function and the names, shapes
//! and element types of its inputs and outputs.

use crate::tensor::{Dtype, HostTensor};
use anyhow::{bail, Context as _, Result};
use glow_onnx::{import_model, ImportOptions};
use melior::{
    ir::{
        attribute::TypeAttribute,
        operation::OperationLike,
        r#type::{FunctionType, RankedTensorType, ShapedTypeLike},
        BlockLike, Module, OperationRef, TypeLike,
    },
    Context,
};
use std::{collections::HashMap, path::Path};

/// An MLIR context with every upstream and Glow dialect, pass and LLVM translation.
pub fn compiler_context() -> Context {
    let registry = melior::dialect::DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    glow_dialects::register_glow_dialects(&registry);
    let context = Context::new();
    // One MLIR thread: a model is one function, so parallel function passes gain
    // nothing, and passes can then free each weight they replace at once
    // (glow_dialects::resources::release_if_unreferenced), which keeps compilation
    // to about one copy of the weights.
    context.enable_multi_threading(false);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    melior::utility::register_all_passes();
    melior::utility::register_all_llvm_translations(&context);
    glow_passes::register_glow_passes();
    context
}

/// Where a model comes from and how to import it.
pub struct ModelSource<'s> {
    /// An `.onnx` file or a `.mlir` module.
    pub path: &'s Path,
    /// `NAME=AxBxC` static shapes of ONNX inputs.
    pub input_shapes: &'s [String],
    /// `NAME=FILE.npy` inputs, whose shapes pin the ONNX input shapes too.
    pub inputs: &'s [String],
    /// `NAME=FILE` (.pb or .npy) ONNX inputs bound to constants.
    pub frozen_inputs: &'s [String],
    /// The entry function's name.
    pub function: &'s str,
    /// The most bytes one tensor of the model may hold (`--max-tensor-bytes`).
    pub max_tensor_bytes: u64,
}

/// A loaded model: the module, and the ONNX names of the entry's inputs and outputs
/// (for `.mlir` modules, their `glow.name` attributes, else input0, output0, ...).
pub struct LoadedModel<'c> {
    /// The module (glow.graph).
    pub module: Module<'c>,
    /// Input names.
    pub input_names: Vec<String>,
    /// Output names.
    pub output_names: Vec<String>,
}

/// Imports or parses the model.
pub fn load<'c>(context: &'c Context, source: &ModelSource) -> Result<LoadedModel<'c>> {
    let is_onnx = source.path.extension().is_some_and(|e| e == "onnx");
    let module = if is_onnx {
        let mut shapes = HashMap::new();
        for text in source.input_shapes {
            let (name, dims) = glow_onnx::parse_input_shape(text).map_err(anyhow::Error::msg)?;
            shapes.insert(name, dims);
        }
        // Inputs given as .npy pin their shapes too.
        for text in source.inputs {
            if let Some((name, path)) = text.split_once('=') {
                if !shapes.contains_key(name) {
                    let data = HostTensor::read_npy(std::path::Path::new(path))?;
                    shapes.insert(name.to_string(), data.shape);
                }
            }
        }
        let mut frozen = HashMap::new();
        for text in source.frozen_inputs {
            let (name, data) = crate::frozen::parse_frozen(text)?;
            frozen.insert(name, data);
        }
        let options = ImportOptions {
            input_shapes: shapes,
            function_name: source.function.to_string(),
            frozen_inputs: frozen.clone(),
            max_tensor_bytes: source.max_tensor_bytes,
            ..Default::default()
        };
        import_model(context, source.path, &options)?
    } else {
        if !source.input_shapes.is_empty() {
            bail!("--input-shape applies to ONNX models; a .mlir function has static types");
        }
        // A clear error for a missing or unreadable file (MLIR's parser reports it
        // without the path), and for text nested deeper than MLIR's recursive parser
        // can take.
        let text = std::fs::read(source.path)
            .with_context(|| format!("cannot read '{}'", source.path.display()))?;
        glow_dialects::nesting::check(&text, &source.path.display().to_string())
            .map_err(anyhow::Error::msg)?;
        // Parsed from the file, so locations and diagnostics name it.
        let name = source.path.display().to_string();
        // SAFETY: the name outlives the call; the result is null or a new module.
        let parsed = unsafe {
            mlir_sys::mlirModuleCreateParseFromFile(
                context.to_raw(),
                melior::StringRef::new(&name).to_raw(),
            )
        };
        if parsed.ptr.is_null() {
            bail!("'{name}' does not parse as MLIR");
        }
        // SAFETY: a freshly parsed module, owned from here on.
        let module = unsafe { Module::from_raw(parsed) };
        check_tensor_sizes(&module, source.max_tensor_bytes)?;
        module
    };
    // Ports keep the names the importer gave them (`{glow.name = ...}`, the ONNX
    // names); others are input<i> / output<i>.
    let (inputs, outputs) = match find_function(&module, source.function) {
        Ok(function) => glow_dialects::port_names::port_names(function),
        Err(_) => Default::default(),
    };
    let named = |names: Vec<Option<String>>, what: &str| -> Vec<String> {
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| name.unwrap_or_else(|| format!("{what}{i}")))
            .collect()
    };
    let (input_names, output_names) = (named(inputs, "input"), named(outputs, "output"));

    Ok(LoadedModel {
        module,
        input_names,
        output_names,
    })
}

/// Bytes per element of a tensor / memref element type as compiled (i1 takes a byte;
/// a `!quant` type its storage), or 8 for anything else (an upper bound).
fn element_bytes(element: melior::ir::Type) -> u64 {
    // SAFETY: type queries on a live type.
    unsafe {
        let raw = element.to_raw();
        if mlir_sys::mlirTypeIsAInteger(raw) {
            return u64::from(mlir_sys::mlirIntegerTypeGetWidth(raw).div_ceil(8));
        }
        if mlir_sys::mlirTypeIsAFloat(raw) {
            return u64::from(mlir_sys::mlirFloatTypeGetWidth(raw).div_ceil(8));
        }
        if mlir_sys::mlirTypeIsAQuantizedType(raw) {
            return u64::from(
                mlir_sys::mlirQuantizedTypeGetStorageTypeIntegralWidth(raw).div_ceil(8),
            );
        }
    }
    8
}

/// `file:line:col` for a printed `loc("file":line:col)`; other locations as printed.
pub fn plain_location(printed: &str) -> String {
    printed
        .strip_prefix("loc(")
        .and_then(|l| l.strip_suffix(')'))
        .and_then(|l| l.strip_prefix('"'))
        .and_then(|l| l.split_once("\":"))
        .map_or_else(
            || printed.to_string(),
            |(file, rest)| format!("{file}:{rest}"),
        )
}

/// Refuses a `.mlir` module with a statically shaped tensor or memref value larger
/// than `limit` bytes (or whose size overflows), naming its location.
pub fn check_tensor_sizes(module: &Module, limit: u64) -> Result<()> {
    use melior::ir::{
        operation::{WalkOrder, WalkResult},
        RegionLike, Value, ValueLike,
    };
    let too_large = |value: Value| -> Option<String> {
        let r#type = value.r#type();
        // SAFETY: shaped-type queries on a live type, guarded by the kind checks.
        let static_shape = unsafe {
            let raw = r#type.to_raw();
            if !(mlir_sys::mlirTypeIsARankedTensor(raw) || mlir_sys::mlirTypeIsAMemRef(raw)) {
                return None;
            }
            if !mlir_sys::mlirShapedTypeHasStaticShape(raw) {
                return None;
            }
            (0..mlir_sys::mlirShapedTypeGetRank(raw))
                .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
                .collect::<Vec<i64>>()
        };
        // SAFETY: the element type of a shaped type.
        let element = unsafe {
            melior::ir::Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(r#type.to_raw()))
        };
        let bytes = static_shape
            .iter()
            .try_fold(element_bytes(element), |b, d| {
                u64::try_from(*d).ok().and_then(|d| b.checked_mul(d))
            });
        match bytes {
            Some(b) if b <= limit => None,
            Some(b) => Some(format!("a value of type {type} would hold {b} bytes, over the limit of {limit} (--max-tensor-bytes)")),
            None => Some(format!("a value of type {type} has a byte size that overflows")),
        }
    };
    let mut found: Option<String> = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let mut values: Vec<Value> = (0..op.result_count())
            .filter_map(|i| op.result(i).ok().map(Into::into))
            .collect();
        for r in 0..op.region_count() {
            let Ok(region) = op.region(r) else { continue };
            let mut block = region.first_block();
            while let Some(b) = block {
                values.extend(
                    (0..b.argument_count()).filter_map(|i| b.argument(i).ok().map(Value::from)),
                );
                block = b.next_in_region();
            }
        }
        if let Some(message) = values.into_iter().find_map(too_large) {
            found = Some(format!(
                "{}: {message}",
                crate::model::plain_location(&op.location().to_string())
            ));
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    match found {
        Some(message) => bail!("{message}"),
        None => Ok(()),
    }
}

/// The `func.func` named `name` in `module`.
pub fn find_function<'c, 'm>(module: &'m Module<'c>, name: &str) -> Result<OperationRef<'c, 'm>> {
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(candidate) = op {
        let is_function = candidate.name().as_string_ref().as_str() == Ok("func.func");
        let symbol = candidate.attribute("sym_name").ok().map(|a| a.to_string());
        if is_function && symbol.as_deref() == Some(&format!("\"{name}\"")) {
            return Ok(candidate);
        }
        op = candidate.next_in_block();
    }
    bail!("no function @{name} in the module")
}

/// The inputs and outputs of `function`, named by `input_names` / `output_names`.
pub fn signature_ports(
    function: OperationRef,
    input_names: &[String],
    output_names: &[String],
) -> Result<(Vec<Port>, Vec<Port>)> {
    let signature = TypeAttribute::try_from(function.attribute("function_type")?)
        .ok()
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .context("the function has no function type")?;
    // SAFETY: the types live as long as the context, which outlives every use here.
    let static_type = |t: melior::ir::Type| unsafe { melior::ir::Type::from_raw(t.to_raw()) };
    let inputs = ports(
        (0..signature.input_count()).map(|i| static_type(signature.input(i).unwrap())),
        input_names,
        "input",
    )?;
    let outputs = ports(
        (0..signature.result_count()).map(|i| static_type(signature.result(i).unwrap())),
        output_names,
        "output",
    )?;
    Ok((inputs, outputs))
}

/// A function argument or result: name, shape and element type.
pub struct Port {
    /// The ONNX name, or input<i> / output<i>.
    pub name: String,
    /// Static shape.
    pub shape: Vec<i64>,
    /// Element type.
    pub dtype: Dtype,
}

fn ports(
    types: impl Iterator<Item = melior::ir::Type<'static>>,
    names: &[String],
    what: &str,
) -> Result<Vec<Port>> {
    types
        .enumerate()
        .map(|(i, t)| {
            let name = names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("{what}{i}"));
            let tensor = RankedTensorType::try_from(t).map_err(|_| {
                anyhow::anyhow!("{what} '{name}' has type {t}, not a ranked tensor")
            })?;
            let shape = (0..tensor.rank())
                .map(|d| match tensor.dim_size(d) {
                    Ok(melior::ir::r#type::DimSize::Static(n)) => Ok(n as i64),
                    _ => bail!("{what} '{name}' has a dynamic shape"),
                })
                .collect::<Result<Vec<i64>>>()?;
            let element = tensor.element().to_string();
            // Quantized tensors are exchanged as their storage integers.
            let storage = glow_dialects::quant_types::storage(tensor.element())
                .map(|(width, signed)| format!("{}i{width}", if signed { "" } else { "u" }));
            let dtype =
                Dtype::from_mlir(storage.as_deref().unwrap_or(&element)).with_context(|| {
                    format!(
                        "{what} '{name}' has element type {element} (glow-run supports {})",
                        Dtype::MLIR_NAMES.trim_end()
                    )
                })?;
            Ok(Port { name, shape, dtype })
        })
        .collect()
}

/// Characters outside `[A-Za-z0-9_.-]` become `_`.
pub fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Renames `function` (its `sym_name`) to `name`; nothing else in the module may refer
/// to it (the entry function of a model).
pub fn rename_function(function: OperationRef, name: &str) {
    let context = function.context();
    // SAFETY: the ContextRef outlives the borrow in this frame.
    let context = unsafe { context.to_ref() };
    let attribute = melior::ir::attribute::StringAttribute::new(context, name);
    // SAFETY: setting an attribute of a live op to a live attribute.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            function.to_raw(),
            melior::StringRef::new("sym_name").to_raw(),
            melior::ir::AttributeLike::to_raw(&attribute),
        )
    }
}
