//! The import driver: decodes initializers, types the graph inputs (with
//! `--input-shape` overrides), converts nodes in order, returns the graph outputs
//! from one `func.func`, and verifies the module. Every failure names its node.

use crate::{
    builder::{NodeContext, Slot},
    element::Element,
    error::{ImportError, Result},
    load::{load_model, ModelMapping},
    ops::{converter, unsupported_nodes},
    proto::{tensor_shape_proto::dimension::Value as Dim, type_proto, NodeProto, ValueInfoProto},
    tensor::TensorData,
};
use melior::{
    dialect::func,
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::FunctionType,
        Attribute, AttributeLike, Block, BlockLike, Location, Module, Region, RegionLike, Type,
    },
    Context,
};
use std::{cell::RefCell, collections::HashMap, path::Path, rc::Rc};

/// An `--input-shape` argument, `NAME=AxBxC` (`x` or `,` between dimensions; nothing
/// after `=` for a scalar), as the input's name and dimensions; the error says why not.
pub fn parse_input_shape(text: &str) -> std::result::Result<(String, Vec<i64>), String> {
    let (name, dims) = text.rsplit_once('=').ok_or_else(|| {
        format!("--input-shape '{text}' is not NAME=DIMS (e.g. input=1x3x224x224)")
    })?;
    let (name, dims) = (name.trim(), dims.trim());
    if dims.is_empty() {
        return Ok((name.to_string(), Vec::new()));
    }
    let dims = dims
        .split(['x', ','])
        .map(|d| match d.trim().parse::<i64>() {
            Ok(v) if v >= 0 => Ok(v),
            _ => Err(format!("--input-shape '{text}': '{d}' is not a dimension")),
        })
        .collect::<std::result::Result<_, _>>()?;
    Ok((name.to_string(), dims))
}

/// What the importer is told besides the model.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// Static shapes for inputs (overriding or pinning symbolic dimensions).
    pub input_shapes: HashMap<String, Vec<i64>>,
    /// The most weight bytes (initializers and constants) a model may hold.
    pub max_weight_bytes: u64,
    /// The most bytes any one tensor (input, intermediate or output) may hold.
    pub max_tensor_bytes: u64,
    /// Name of the generated function.
    pub function_name: String,
    /// Inputs bound to constant data (`--freeze-input`): they are no longer function
    /// arguments, and shape parameters that depend on them become static.
    pub frozen_inputs: HashMap<String, TensorData>,
}

/// The default limit on one tensor's size: 4 GiB.
pub const DEFAULT_MAX_TENSOR_BYTES: u64 = 4 << 30;

/// The byte size of a tensor of `shape` and `element`, or None when it overflows.
pub fn tensor_bytes(shape: &[i64], element: Element) -> Option<u64> {
    shape.iter().try_fold(element.size() as u64, |bytes, d| {
        u64::try_from(*d).ok().and_then(|d| bytes.checked_mul(d))
    })
}

/// Refuses a tensor larger than `limit` bytes (or whose size overflows).
pub(crate) fn check_tensor_size(
    shape: &[i64],
    element: Element,
    limit: u64,
) -> std::result::Result<(), String> {
    match tensor_bytes(shape, element) {
        Some(bytes) if bytes <= limit => Ok(()),
        Some(bytes) => Err(format!(
            "a {element:?} tensor of shape {shape:?} would hold {bytes} bytes, over the limit of {limit} (--max-tensor-bytes)"
        )),
        None => Err(format!(
            "a {element:?} tensor of shape {shape:?} has a byte size that overflows"
        )),
    }
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            input_shapes: HashMap::new(),
            max_weight_bytes: 8 << 30,
            max_tensor_bytes: DEFAULT_MAX_TENSOR_BYTES,
            function_name: "main".into(),
            frozen_inputs: HashMap::new(),
        }
    }
}

/// Weight blobs handed to MLIR as `dense_resource` attributes (MLIR owns and frees
/// them through the deleter).
pub struct Resources<'c> {
    next: usize,
    name: String,
    /// The model file's mapping: the pages of data copied into a blob are released.
    mapping: Option<ModelMapping>,
    /// The model's folder (external data of initializers inside If branches).
    pub(crate) directory: std::path::PathBuf,
    /// --max-tensor-bytes, for the values converted inside If branches.
    pub(crate) max_tensor_bytes: u64,
    /// Constants already emitted, by their data and block: a folded constant (of
    /// `builder::SHARED_BYTES` or more) that several ops read (an unrolled
    /// recurrence's transposed weights, once per step) is emitted once. The weak reference tells the same data from a later tensor at
    /// the same address without keeping the data alive.
    pub(crate) materialized:
        HashMap<(usize, usize), (std::rc::Weak<TensorData>, mlir_sys::MlirValue)>,
    context: std::marker::PhantomData<&'c Context>,
}

impl<'c> Resources<'c> {
    /// A `dense_resource` attribute of `type` holding a copy of `bytes`.
    pub fn blob(&mut self, r#type: Type<'c>, bytes: &[u8]) -> Attribute<'c> {
        let name = format!("{}{}", self.name, self.next);
        self.next += 1;
        let attribute = glow_dialects::elements::resource_elements(r#type, &name, bytes);
        if let Some(mapping) = &self.mapping {
            mapping.release(bytes);
        }
        attribute
    }
}

/// A node's name for messages: its name, or its first output when unnamed.
pub fn node_label(node: &NodeProto) -> String {
    if !node.name().is_empty() {
        node.name().to_string()
    } else {
        node.output
            .first()
            .cloned()
            .unwrap_or_else(|| "<unnamed>".into())
    }
}

/// The static type of a graph input, or why it has none.
fn input_type(info: &ValueInfoProto, options: &ImportOptions) -> Result<(Vec<i64>, Element)> {
    let name = info.name().to_string();
    let fail = |reason: String| ImportError::Input {
        name: name.clone(),
        reason,
    };
    let Some(type_proto::Value::TensorType(tensor)) =
        info.r#type.as_ref().and_then(|t| t.value.as_ref())
    else {
        return Err(fail(
            "not a tensor input (sequences, maps and optionals are not supported)".into(),
        ));
    };
    let element = Element::from_onnx(tensor.elem_type()).ok_or_else(|| {
        fail(format!(
            "unsupported element type {}",
            Element::onnx_name(tensor.elem_type())
        ))
    })?;
    let declared: Option<Vec<Option<i64>>> = tensor.shape.as_ref().map(|shape| {
        shape
            .dim
            .iter()
            .map(|d| match d.value {
                Some(Dim::DimValue(v)) if v >= 0 => Some(v),
                _ => None,
            })
            .collect()
    });
    if let Some(shape) = options.input_shapes.get(&name) {
        if let Some(declared) = &declared {
            if declared.len() != shape.len() {
                return Err(fail(format!(
                    "--input-shape gives rank {} but the model declares rank {}",
                    shape.len(),
                    declared.len()
                )));
            }
            for (d, (given, model)) in shape.iter().zip(declared).enumerate() {
                if let Some(model) = model {
                    if model != given {
                        return Err(fail(format!(
                            "--input-shape gives {given} for dimension {d}, which the model fixes to {model}"
                        )));
                    }
                }
            }
        }
        return Ok((shape.clone(), element));
    }
    let declared =
        declared.ok_or_else(|| fail("has no shape; give one with --input-shape".into()))?;
    let symbolic: Vec<String> = tensor
        .shape
        .as_ref()
        .map(|s| {
            s.dim
                .iter()
                .enumerate()
                .filter(|(_, d)| !matches!(d.value, Some(Dim::DimValue(v)) if v >= 0))
                .map(|(i, d)| match &d.value {
                    Some(Dim::DimParam(p)) => format!("dimension {i} ('{p}')"),
                    _ => format!("dimension {i}"),
                })
                .collect()
        })
        .unwrap_or_default();
    if !symbolic.is_empty() {
        return Err(fail(format!(
            "{} is dynamic; pin it with --input-shape {name}=...",
            symbolic.join(", ")
        )));
    }
    Ok((
        declared
            .into_iter()
            .map(|d| d.expect("all static"))
            .collect(),
        element,
    ))
}

/// Imports the ONNX model at `path` into a new module of `context` (which must have
/// the Glow and func dialects loaded).
pub fn import_model<'c>(
    context: &'c Context,
    path: &Path,
    options: &ImportOptions,
) -> Result<Module<'c>> {
    import_model_with_progress(context, path, options, &mut |_| {})
}

/// Progress of an import, for progress bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The model is decoded: `weight_bytes` of initializers, `nodes` to convert.
    Decoded {
        /// Bytes of initializer data.
        weight_bytes: u64,
        /// Nodes of the main graph.
        nodes: usize,
    },
    /// `done` nodes are converted.
    Converted {
        /// Nodes converted so far.
        done: usize,
    },
    /// The module is built and being verified.
    Verifying,
}

/// [`import_model`], reporting progress to `report`.
pub fn import_model_with_progress<'c>(
    context: &'c Context,
    path: &Path,
    options: &ImportOptions,
    report: &mut dyn FnMut(Progress),
) -> Result<Module<'c>> {
    let loaded = load_model(path)?;
    let graph = loaded
        .model
        .graph
        .as_ref()
        .expect("load_model checks the graph");

    let unsupported = unsupported_nodes(&loaded.model, false);
    if !unsupported.is_empty() {
        let (op, node) = &unsupported[0];
        let more = if unsupported.len() > 1 {
            format!(
                " (and {} more; --list-unsupported lists them)",
                unsupported.len() - 1
            )
        } else {
            String::new()
        };
        return Err(ImportError::Node {
            node: node.clone(),
            op_type: op.clone(),
            reason: format!("unsupported op{more}"),
        });
    }

    // Initializers: constants known at import time.
    let mut weights: u64 = 0;
    let mut constants: HashMap<String, TensorData> = HashMap::new();
    for tensor in &graph.initializer {
        let data = TensorData::from_proto(tensor, &loaded.directory)?;
        weights += data.bytes.len() as u64;
        if weights > options.max_weight_bytes {
            return Err(ImportError::Tensor {
                name: tensor.name().to_string(),
                reason: format!(
                    "weights exceed --max-weights-bytes ({} bytes)",
                    options.max_weight_bytes
                ),
            });
        }
        constants.insert(tensor.name().to_string(), data);
    }
    for (name, flag) in options
        .input_shapes
        .keys()
        .map(|n| (n, "--input-shape"))
        .chain(options.frozen_inputs.keys().map(|n| (n, "--freeze-input")))
    {
        if !graph.input.iter().any(|i| i.name() == name) {
            return Err(ImportError::Input {
                name: name.clone(),
                reason: format!("{flag} names an input the model does not have"),
            });
        }
    }
    for (name, data) in &options.frozen_inputs {
        let info = graph
            .input
            .iter()
            .find(|i| i.name() == name)
            .expect("checked above");
        let pinned = ImportOptions {
            input_shapes: HashMap::from([(name.clone(), data.dims.clone())]),
            ..Default::default()
        };
        let (_, element) = input_type(info, &pinned).map_err(|error| match error {
            ImportError::Input { name, reason } => ImportError::Input {
                name,
                reason: format!(
                    "--freeze-input data of shape {:?}: {}",
                    data.dims,
                    reason.replace("--input-shape gives", "it has")
                ),
            },
            other => other,
        })?;
        if element != data.element {
            return Err(ImportError::Input {
                name: name.clone(),
                reason: format!(
                    "--freeze-input data is {:?} but the input is {:?}",
                    data.element, element
                ),
            });
        }
        constants.insert(name.clone(), data.clone());
    }

    // Function arguments: inputs that are not initializers.
    let mut arguments = Vec::new();
    for info in graph
        .input
        .iter()
        .filter(|i| !constants.contains_key(i.name()))
    {
        let (shape, element) = input_type(info, options)?;
        check_tensor_size(&shape, element, options.max_tensor_bytes).map_err(|reason| {
            ImportError::Input {
                name: info.name().to_string(),
                reason,
            }
        })?;
        arguments.push((info.name().to_string(), shape, element));
    }

    let location = Location::new(context, &path.display().to_string(), 0, 0);
    let module = Module::new(location);
    let tensor_type = |shape: &[i64], element: Element| -> Type<'c> {
        let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
        melior::ir::r#type::RankedTensorType::new(&dims, element.mlir(context), None).into()
    };
    let argument_types: Vec<Type> = arguments
        .iter()
        .map(|(_, s, e)| tensor_type(s, *e))
        .collect();
    let block = Block::new(
        &argument_types
            .iter()
            .map(|t| (*t, location))
            .collect::<Vec<_>>(),
    );
    let region = Region::new();
    region.append_block(block);
    let placeholder = FunctionType::new(context, &argument_types, &[]);
    let function = module.body().append_operation(func::func(
        context,
        StringAttribute::new(context, &options.function_name),
        TypeAttribute::new(placeholder.into()),
        region,
        &[],
        location,
    ));
    let block = function
        .region(0)
        .and_then(|r| {
            r.first_block().ok_or(melior::Error::OperationExpected {
                expected: "block",
                actual: String::new(),
            })
        })
        .map_err(|_| ImportError::Model("internal error: function has no body".into()))?;

    let mut env: HashMap<String, Slot> = HashMap::new();
    for (index, (name, shape, element)) in arguments.iter().enumerate() {
        let value = block
            .argument(index)
            .expect("one argument per input")
            .into();
        env.insert(name.clone(), Slot::value(value, shape.clone(), *element));
    }
    for (name, data) in constants {
        env.insert(name, Slot::constant(data));
    }

    // Diagnostics from builders and the verifier are collected, not printed.
    let diagnostics = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = Rc::clone(&diagnostics);
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        sink.borrow_mut().push(diagnostic.to_string());
        true
    });

    let mut resources = Resources {
        next: 0,
        name: "w".into(),
        mapping: loaded.mapping.clone(),
        directory: loaded.directory.clone(),
        max_tensor_bytes: options.max_tensor_bytes,
        materialized: HashMap::new(),
        context: std::marker::PhantomData,
    };
    let outcome = (|| -> Result<()> {
        report(Progress::Decoded {
            weight_bytes: weights,
            nodes: graph.node.len(),
        });
        for (index, node) in graph.node.iter().enumerate() {
            report(Progress::Converted { done: index });
            let label = node_label(node);
            let fail = |reason: String| ImportError::Node {
                node: label.clone(),
                op_type: node.op_type().to_string(),
                reason,
            };
            let convert = converter(node).expect("unsupported ops were rejected above");
            let node_location = Location::name(context, &label, location);
            diagnostics.borrow_mut().clear();
            let converted = glow_dialects::panics::catch(|| {
                let mut cx = NodeContext {
                    context,
                    block,
                    location: node_location,
                    node,
                    opset: loaded.opset,
                    env: &mut env,
                    resources: &mut resources,
                };
                convert(&mut cx)
            });
            let slots = match converted {
                Ok(Ok(slots)) => slots,
                Ok(Err(reason)) => return Err(fail(reason)),
                Err(panic) => {
                    let reason = diagnostics.borrow().join("; ");
                    return Err(fail(if reason.is_empty() {
                        format!("internal error while building the node: {panic}")
                    } else {
                        reason
                    }));
                }
            };
            for (name, slot) in node.output.iter().zip(slots) {
                check_tensor_size(&slot.shape, slot.element, options.max_tensor_bytes)
                    .map_err(|reason| fail(format!("output '{name}': {reason}")))?;
                if !name.is_empty() {
                    env.insert(name.clone(), slot);
                }
            }
        }
        Ok(())
    })();
    let result = outcome.and_then(|()| {
        // Outputs.
        let mut values = Vec::new();
        let mut types = Vec::new();
        for output in &graph.output {
            let slot = env.get(output.name()).cloned().ok_or_else(|| {
                ImportError::Model(format!(
                    "graph output '{}' is not produced by any node",
                    output.name()
                ))
            })?;
            let label = format!("output '{}'", output.name());
            let (value, r#type) = {
                let node = NodeProto {
                    name: Some(label.clone()),
                    ..Default::default()
                };
                let mut cx = NodeContext {
                    context,
                    block,
                    location: Location::name(context, &label, location),
                    node: &node,
                    opset: loaded.opset,
                    env: &mut env,
                    resources: &mut resources,
                };
                match (&slot.quantization, slot.value) {
                    // A quantized output is returned as is, with its !quant type.
                    (Some(q), Some(value)) => (
                        value,
                        cx.quantized_tensor_type(&slot.shape, slot.element, q),
                    ),
                    _ => (
                        cx.materialize(&slot).map_err(ImportError::Model)?,
                        tensor_type(&slot.shape, slot.element),
                    ),
                }
            };
            values.push(value);
            types.push(r#type);
        }
        block.append_operation(func::r#return(&values, location));
        let function_type = FunctionType::new(context, &argument_types, &types);
        // SAFETY: `function` is a live func.func op; function_type is a valid attribute.
        unsafe {
            let name = melior::StringRef::new("function_type");
            mlir_sys::mlirOperationSetAttributeByName(
                function.to_raw(),
                name.to_raw(),
                TypeAttribute::new(function_type.into()).to_raw(),
            );
        }
        // The ONNX names travel with the function, so runners of the printed module
        // still accept `--input input_ids=...`.
        let input_names: Vec<String> = arguments.iter().map(|(n, _, _)| n.clone()).collect();
        let output_names: Vec<String> = graph.output.iter().map(|o| o.name().to_string()).collect();
        glow_dialects::port_names::set_port_names(function, &input_names, &output_names);
        diagnostics.borrow_mut().clear();
        report(Progress::Verifying);
        if !module.as_operation().verify() {
            let reason = diagnostics.borrow().join("; ");
            return Err(ImportError::Model(format!(
                "the imported IR does not verify: {reason}"
            )));
        }
        Ok(())
    });
    context.detach_diagnostic_handler(handler);
    result.map(|()| module)
}
