//! A model's declared inputs and outputs, as `glow-import --print-signature` lists
//! them: name, ONNX element type and dimensions, symbolic ones by their names (`?`
//! for an unnamed one), without importing the graph. Inputs that an initializer
//! backs (defaults a caller may override) are not inputs of the compiled model and
//! are left out.

use crate::proto::ModelProto;
use crate::proto::{tensor_shape_proto::dimension::Value as Dim, type_proto, ValueInfoProto};
use crate::Element;

/// One dimension as a model declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclaredDim {
    /// A fixed size.
    Fixed(i64),
    /// A symbolic size with its name (`batch`), or without one.
    Symbolic(Option<String>),
}

/// A declared input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// The value's name.
    pub name: String,
    /// The element type's lower-case ONNX-independent name (`f32`, `i64`, `bool`, ...),
    /// or the ONNX name of one glow does not support.
    pub element: String,
    /// The dimensions, or `None` when the model declares no shape (or the value is
    /// not a tensor).
    pub dims: Option<Vec<DeclaredDim>>,
}

impl Port {
    fn of(info: &ValueInfoProto) -> Self {
        let tensor = match info.r#type.as_ref().and_then(|t| t.value.as_ref()) {
            Some(type_proto::Value::TensorType(tensor)) => Some(tensor),
            _ => None,
        };
        let element = match tensor {
            Some(tensor) => Element::from_onnx(tensor.elem_type())
                .map(|e| format!("{e:?}").to_lowercase())
                .unwrap_or_else(|| Element::onnx_name(tensor.elem_type())),
            None => "not a tensor".to_string(),
        };
        let dims = tensor.and_then(|t| t.shape.as_ref()).map(|shape| {
            shape
                .dim
                .iter()
                .map(|d| match &d.value {
                    Some(Dim::DimValue(v)) if *v >= 0 => DeclaredDim::Fixed(*v),
                    Some(Dim::DimParam(p)) if !p.is_empty() => {
                        DeclaredDim::Symbolic(Some(p.clone()))
                    }
                    _ => DeclaredDim::Symbolic(None),
                })
                .collect()
        });
        Self {
            name: info.name().to_string(),
            element,
            dims,
        }
    }

    /// `name: f32 [batch, 3, 224, 224]` (`[?]`-style for unnamed symbolic sizes,
    /// `unknown shape` when none is declared).
    pub fn describe(&self) -> String {
        let dims = match &self.dims {
            Some(dims) => format!(
                "[{}]",
                dims.iter()
                    .map(|d| match d {
                        DeclaredDim::Fixed(v) => v.to_string(),
                        DeclaredDim::Symbolic(Some(name)) => name.clone(),
                        DeclaredDim::Symbolic(None) => "?".to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => "unknown shape".to_string(),
        };
        format!("{}: {} {dims}", self.name, self.element)
    }
}

/// The model's inputs (without initializer-backed ones) and outputs, in graph order.
pub fn signature(model: &ModelProto) -> (Vec<Port>, Vec<Port>) {
    let Some(graph) = model.graph.as_ref() else {
        return (Vec::new(), Vec::new());
    };
    let initialized: std::collections::HashSet<&str> =
        graph.initializer.iter().map(|t| t.name()).collect();
    let inputs = graph
        .input
        .iter()
        .filter(|i| !initialized.contains(i.name()))
        .map(Port::of)
        .collect();
    let outputs = graph.output.iter().map(Port::of).collect();
    (inputs, outputs)
}
