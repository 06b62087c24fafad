//! `glow-quantize{profile=P schema=... calibration=... precision=int8 channelwise=true
//! keep=... report=false}`: Glow's profile-guided quantization of a float glow.graph.
//!
//! Every value the profile names ([`super::values`]) that an op of an integer form
//! reads or produces (ops named in `keep` excepted) is followed by
//! quantize -> dequantize with the int8 parameters its calibrated range gives under the
//! schema; constant weights become int8 constants (symmetric, one scale per output
//! channel with `channelwise`) behind a dequantize. The graph is then in the QDQ form
//! onnxruntime writes, and Glow's quantization folding ([`super::fold`]) turns it into
//! integer ops, float islands staying float between a dequantize and a quantize.
//!
//! The profile must come from the same graph (its hash is checked); a value missing
//! from it, a malformed file, or parameters that cannot be represented are errors
//! naming the value. `report` also taps each quantized value's dequantized result
//! with a `glow.quant.profile` of the same name, for glow-run's quantization report.

use super::{
    calibration::{calibrated_range, parameters, Calibration, Schema},
    ir::{name_of, operand, producer, quantized, tensor_type},
    profile_data::Profile,
    selection::select_ops,
    values::{functions, graph_hash, is_weight, output_point, quantized_kind, quantized_values},
};
use crate::{
    framework::{emit_error, OptionKind, PassDefinition, PassOption, PassOptions},
    lower_nodes::builder::tensor_info,
};
use glow_dialects::quant_types::UniformQuantization;
use melior::{
    ir::{
        attribute::{AttributeLike as _, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, BlockLike, Identifier, Location, OperationRef, RegionLike, Type, TypeLike,
        Value, ValueLike,
    },
    Context,
};
use std::collections::HashSet;

/// The discardable attribute marking an op glow-quantize keeps float while folding.
pub const KEEP_FLOAT: &str = "glow.keep_float";

/// The pass definition registered as `glow-quantize`.
pub static QUANTIZE: PassDefinition = PassDefinition {
    argument: "glow-quantize",
    description: "Quantize a float glow.graph to int8 from a profile (Glow's profile-guided quantization): QDQ around every touched value, int8 weights, then quantization folding",
    anchor: Some("builtin.module"),
    options: &[
        PassOption {
            name: "profile",
            description: "The profile file (glow-run --dump-profile)",
            kind: OptionKind::String,
            default: None,
        },
        PassOption {
            name: "schema",
            description: "asymmetric, symmetric, symmetric_uint8 or symmetric_pow2",
            kind: OptionKind::String,
            default: Some("asymmetric"),
        },
        PassOption {
            name: "calibration",
            description: "How a range is chosen from a histogram: minmax, kl or percentile",
            kind: OptionKind::String,
            default: Some("minmax"),
        },
        PassOption {
            name: "precision",
            description: "Integer precision of activations and weights (int8)",
            kind: OptionKind::String,
            default: Some("int8"),
        },
        PassOption {
            name: "channelwise",
            description: "One weight scale per output channel (else one per tensor)",
            kind: OptionKind::Bool,
            default: Some("true"),
        },
        PassOption {
            name: "keep",
            description: "Op kinds to keep in float (e.g. keep=add,sigmoid)",
            kind: OptionKind::StringList,
            default: None,
        },
        PassOption {
            name: "report",
            description: "Tap each quantized value (dequantized) with glow.quant.profile for a quantization report",
            kind: OptionKind::Bool,
            default: None,
        },
    ],
    dependent_dialects: super::quantization_dialects,
    validate,
    run,
};

fn validate(options: &PassOptions) -> Result<(), String> {
    if options.value("profile").is_none_or(str::is_empty) {
        return Err("'profile' must name a profile file (glow-run --dump-profile)".into());
    }
    let schema = options.value("schema").unwrap_or("asymmetric");
    if Schema::parse(schema).is_none() {
        return Err(format!(
            "'schema' is '{schema}'; expected asymmetric, symmetric, symmetric_uint8 or symmetric_pow2"
        ));
    }
    let calibration = options.value("calibration").unwrap_or("minmax");
    if Calibration::parse(calibration).is_none() {
        return Err(format!(
            "'calibration' is '{calibration}'; expected minmax, kl or percentile"
        ));
    }
    match options.value("precision").unwrap_or("int8") {
        "int8" => {}
        other => {
            return Err(format!(
                "'precision' is '{other}'; only int8 has integer kernels (int16 is not supported)"
            ))
        }
    }
    for kind in options.list("keep") {
        let kind = kind.strip_prefix("glow.graph.").unwrap_or(kind);
        if !super::values::QUANTIZED_OPS.contains(&kind) {
            return Err(format!(
                "'keep' names '{kind}', which has no integer form; kinds: {}",
                super::values::QUANTIZED_OPS.join(", ")
            ));
        }
    }
    Ok(())
}

/// `tensor<shape x !quant.uniform<...>>` for a float value's shape.
fn quantized_type<'c>(value: Value<'c, '_>, q: &UniformQuantization) -> Option<Type<'c>> {
    let (shape, element) = tensor_info(value)?;
    Some(tensor_type(&shape, q.element_type(element)))
}

fn build<'c>(
    context: &'c Context,
    name: &str,
    operands: &[Value<'c, '_>],
    attributes: &[(&str, Attribute<'c>)],
    result: Option<Type<'c>>,
    location: Location<'c>,
) -> melior::ir::Operation<'c> {
    let attributes: Vec<(Identifier, Attribute)> = attributes
        .iter()
        .map(|(n, a)| (Identifier::new(context, n), *a))
        .collect();
    let mut builder = OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_attributes(&attributes);
    if let Some(result) = result {
        builder = builder.add_results(&[result]);
    }
    builder
        .build()
        .unwrap_or_else(|e| panic!("cannot build {name}: {e}"))
}

/// The int8 weight constant of the float constant `weight` (a conv filter quantized
/// along axis 0, fully_connected / matmul weights along axis 1), symmetric.
fn quantized_weight<'c>(
    context: &'c Context,
    weight: Value<'c, '_>,
    axis: usize,
    channelwise: bool,
) -> Option<(Vec<i64>, Vec<u8>, UniformQuantization)> {
    let (shape, element) = tensor_info(weight)?;
    if !element.is_f32() {
        return None;
    }
    let count = shape.iter().product::<i64>() as usize;
    let values = super::ir::float_constant(weight, count)?;
    let channels = shape[axis] as usize;
    let inner: usize = shape[axis + 1..].iter().product::<i64>() as usize;
    let channel_of = |i: usize| (i / inner) % channels;
    let mut magnitude = vec![0f32; if channelwise { channels } else { 1 }];
    for (i, v) in values.iter().enumerate() {
        let c = if channelwise { channel_of(i) } else { 0 };
        magnitude[c] = magnitude[c].max(v.abs());
    }
    let scales: Vec<f64> = magnitude
        .iter()
        .map(|m| ((*m / 127.0).max(f32::MIN_POSITIVE)) as f64)
        .collect();
    let bytes: Vec<u8> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let scale = scales[if channelwise { channel_of(i) } else { 0 }] as f32;
            (v / scale).round_ties_even().clamp(-127.0, 127.0) as i8 as u8
        })
        .collect();
    let _ = context;
    let quantization = UniformQuantization {
        axis: channelwise.then_some(axis),
        zero_points: vec![0; scales.len()],
        scales,
        ..UniformQuantization::per_tensor(1.0, 0, 8, true)
    };
    Some((shape, bytes, quantization))
}

/// Replaces every use of `old` except in `except` by `new`.
fn replace_uses_except(old: Value, new: Value, except: &[OperationRef]) {
    // SAFETY: use-list walks on live values; uses are rewired one at a time after
    // the next one is read.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(old.to_raw());
        while !use_.ptr.is_null() {
            let next = mlir_sys::mlirOpOperandGetNextUse(use_);
            let owner = mlir_sys::mlirOpOperandGetOwner(use_);
            if !except.iter().any(|e| e.to_raw().ptr == owner.ptr) {
                let index = mlir_sys::mlirOpOperandGetOperandNumber(use_);
                mlir_sys::mlirOperationSetOperand(owner, index as isize, new.to_raw());
            }
            use_ = next;
        }
    }
}

struct Settings {
    schema: Schema,
    calibration: Calibration,
    channelwise: bool,
    keep: Vec<String>,
    report: bool,
}

fn quantize_function(
    context: &Context,
    function: OperationRef,
    profile: &Profile,
    path: &str,
    settings: &Settings,
) -> Result<(), String> {
    let hash = graph_hash(function);
    if hash != profile.graph_hash {
        return Err(format!(
            "profile '{path}' was taken on another graph (its hash is {}, this graph's is {hash}): profile this model with glow-run --dump-profile",
            profile.graph_hash
        ));
    }
    let kept = |op: OperationRef| {
        quantized_kind(op).is_some_and(|kind| {
            settings
                .keep
                .iter()
                .any(|k| k.strip_prefix("glow.graph.").unwrap_or(k) == kind)
        })
    };
    // Names over the whole graph (as glow-profile saw it), then the values the
    // selected ops touch.
    let named = quantized_values(function);
    let compute = select_ops(function, &kept);
    mark_kept(context, function, &kept);
    let mut touched: HashSet<usize> = HashSet::new();
    for op in &compute {
        for i in 0..op.operand_count() {
            if !is_weight(*op, i) {
                if let Some(v) = operand(*op, i) {
                    touched.insert(v.to_raw().ptr as usize);
                }
            }
        }
        if let Some(result) = crate::quantization::ir::result(*op, 0) {
            touched.insert(output_point(result).to_raw().ptr as usize);
        }
    }
    let entry = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or("the function has no body")?;
    for (value, name) in named {
        if !touched.contains(&(value.to_raw().ptr as usize)) {
            continue;
        }
        let entry_profile = profile.value(&name).ok_or_else(|| {
            format!("value '{name}' is not in profile '{path}' (profile this graph again)")
        })?;
        // A constant's profile is its exact range: never clipped.
        let constant = producer(value).is_some_and(|p| {
            matches!(
                name_of(p).as_str(),
                "glow.graph.constant" | "arith.constant"
            )
        });
        let calibration = if constant {
            Calibration::MinMax
        } else {
            settings.calibration
        };
        let range = calibrated_range(entry_profile, calibration, settings.schema);
        let (scale, zero_point, signed) =
            parameters(range, settings.schema).map_err(|e| format!("value '{name}': {e}"))?;
        if !(scale > 0.0 && scale.is_finite()) {
            return Err(format!(
                "value '{name}': scale {scale} cannot be represented"
            ));
        }
        let q = UniformQuantization::per_tensor(scale, zero_point, 8, signed);
        let quantized_type =
            quantized_type(value, &q).ok_or("a value without a static tensor type")?;
        // The quantize carries the value's name: the integer op folding makes of it
        // is created at its location.
        let location = Location::name(context, &name, function.location());
        let quantize = build(
            context,
            "glow.quant.quantize",
            &[value],
            &[],
            Some(quantized_type),
            location,
        );
        let dequantize_type = value.r#type();
        // SAFETY: queries on a live value; the owner is a live op of `entry`'s region.
        let quantize = unsafe {
            if mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
                entry.insert_operation(0, quantize)
            } else {
                let owner = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()));
                owner
                    .block()
                    .ok_or("a value outside a block")?
                    .insert_operation_after(owner, quantize)
            }
        };
        let q_value = quantize.result(0).map_err(|e| e.to_string())?;
        let dequantize = build(
            context,
            "glow.quant.dequantize",
            &[q_value.into()],
            &[],
            Some(dequantize_type),
            location,
        );
        let block = quantize.block().ok_or("a value outside a block")?;
        let dequantize = block.insert_operation_after(quantize, dequantize);
        let d_value = dequantize.result(0).map_err(|e| e.to_string())?;
        replace_uses_except(value, d_value.into(), &[quantize]);
    }
    // Constant weights: int8 per channel (or per tensor).
    for op in compute {
        let axis = match quantized_kind(op) {
            Some("conv2d") => 0,
            Some("fully_connected" | "matmul") => 1,
            _ => continue,
        };
        let Some(weight) = operand(op, 1).filter(|_| is_weight(op, 1)) else {
            continue;
        };
        let Some((shape, bytes, q)) = quantized_weight(context, weight, axis, settings.channelwise)
        else {
            continue;
        };
        let location = op.location();
        let storage_type = tensor_type(&shape, IntegerType::new(context, 8).into());
        let attribute = super::ir::elements_attribute(storage_type, &bytes, "weights");
        let block = op.block().ok_or("an op outside a block")?;
        let constant = block.insert_operation_before(
            op,
            build(
                context,
                "glow.graph.constant",
                &[],
                &[("value", attribute)],
                Some(storage_type),
                location,
            ),
        );
        let element = tensor_info(weight)
            .ok_or("weights without a static type")?
            .1;
        let q_type = tensor_type(&shape, q.element_type(element));
        let cast = block.insert_operation_before(
            op,
            build(
                context,
                "quant.scast",
                &[constant.result(0).map_err(|e| e.to_string())?.into()],
                &[],
                Some(q_type),
                location,
            ),
        );
        let dequantize = block.insert_operation_before(
            op,
            build(
                context,
                "glow.quant.dequantize",
                &[cast.result(0).map_err(|e| e.to_string())?.into()],
                &[],
                Some(weight.r#type()),
                location,
            ),
        );
        // SAFETY: operand 1 of a live op takes a value of the same type.
        unsafe {
            mlir_sys::mlirOperationSetOperand(
                op.to_raw(),
                1,
                dequantize.result(0).map_err(|e| e.to_string())?.to_raw(),
            )
        };
    }
    Ok(())
}

/// Marks the ops `keep` names with [`KEEP_FLOAT`], so quantization folding leaves them
/// float even where quantize / dequantize pairs around them (for their neighbours)
/// would match its patterns.
fn mark_kept(context: &Context, function: OperationRef, kept: &dyn Fn(OperationRef) -> bool) {
    function.walk(WalkOrder::PreOrder, |op| {
        // SAFETY: a live op of the function.
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if kept(op) {
            // SAFETY: setting a unit attribute on a live op of this context.
            unsafe {
                let name = melior::StringRef::new(KEEP_FLOAT);
                mlir_sys::mlirOperationSetAttributeByName(
                    op.to_raw(),
                    name.to_raw(),
                    Attribute::unit(context).to_raw(),
                );
            }
        }
        WalkResult::Advance
    });
}

/// Removes the marks [`mark_kept`] set.
fn clear_keep_marks(function: OperationRef) {
    function.walk(WalkOrder::PreOrder, |op| {
        crate::framework::attributes::remove_attribute(op, KEEP_FLOAT);
        WalkResult::Advance
    });
}

/// Taps each integer op's result (dequantized) with a profile op named after the value
/// it stands for (the location the quantize gave it), for the quantization report.
fn tap_quantized_values(context: &Context, function: OperationRef) {
    let mut targets = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        let name = name_of(op);
        let integer = matches!(
            name.as_str(),
            "glow.quant.conv2d"
                | "glow.quant.fully_connected"
                | "glow.quant.batch_matmul"
                | "glow.quant.add"
                | "glow.quant.mul"
                | "glow.quant.avg_pool"
                | "glow.quant.lookup_table"
                | "glow.quant.quantize"
                | "glow.quant.rescale"
                | "glow.graph.max_pool"
                | "glow.graph.concat"
        );
        if integer
            && op
                .result(0)
                .ok()
                .and_then(|r| quantized(r.into()))
                .is_some()
        {
            targets.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let i64_type = IntegerType::new(context, 64).into();
    let mut seen = HashSet::new();
    for (id, raw) in targets.into_iter().enumerate() {
        // SAFETY: collected from the live function above.
        let op = unsafe { OperationRef::from_raw(raw) };
        // SAFETY: a query on a valid location.
        let Some(name) = (unsafe { location_name(op.location().to_raw()) }) else {
            continue;
        };
        if !seen.insert(name.clone()) {
            continue;
        }
        let (Ok(result), Some(block)) = (op.result(0), op.block()) else {
            continue;
        };
        let Some((shape, element)) = tensor_info(result.into()) else {
            continue;
        };
        let Some(float) = glow_dialects::quant_types::expressed(element) else {
            continue;
        };
        let location = op.location();
        let dequantize = block.insert_operation_after(
            op,
            build(
                context,
                "glow.quant.dequantize",
                &[result.into()],
                &[],
                Some(tensor_type(&shape, float)),
                location,
            ),
        );
        let Ok(real) = dequantize.result(0) else {
            continue;
        };
        block.insert_operation_after(
            dequantize,
            build(
                context,
                "glow.quant.profile",
                &[real.into()],
                &[
                    ("name", StringAttribute::new(context, &name).into()),
                    ("id", IntegerAttribute::new(i64_type, id as i64).into()),
                ],
                None,
                location,
            ),
        );
    }
}

/// The name of a NameLoc (directly, not nested).
unsafe fn location_name(location: mlir_sys::MlirLocation) -> Option<String> {
    // SAFETY: the caller passes a valid location.
    unsafe {
        if !mlir_sys::mlirLocationIsAName(location) {
            return None;
        }
        let name = mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationNameGetName(location));
        Some(glow_dialects::string_ref::text(name))
    }
}

fn run(module: OperationRef<'_, '_>, options: &PassOptions) -> Result<(), ()> {
    let context_ref = module.context();
    // SAFETY: the module's context outlives the pass.
    let context: &Context = unsafe { context_ref.to_ref() };
    let path = options.value("profile").unwrap_or("");
    let profile = Profile::read(std::path::Path::new(path)).map_err(|e| {
        emit_error(module.location(), &format!("glow-quantize: {e}"));
    })?;
    let settings = Settings {
        schema: Schema::parse(options.value("schema").unwrap_or("asymmetric"))
            .unwrap_or(Schema::Asymmetric),
        calibration: Calibration::parse(options.value("calibration").unwrap_or("minmax"))
            .unwrap_or(Calibration::MinMax),
        channelwise: options.value("channelwise") != Some("false"),
        keep: options.list("keep").to_vec(),
        report: options.flag("report"),
    };
    for function in functions(module) {
        if let Err(message) = quantize_function(context, function, &profile, path, &settings) {
            emit_error(function.location(), &format!("glow-quantize: {message}"));
            return Err(());
        }
        super::fold(function)?;
        clear_keep_marks(function);
        if settings.report {
            tap_quantized_values(context, function);
        }
    }
    Ok(())
}
