//! glow-runtime's public API: JIT compile and run, typed errors for each class of
//! failure, and a bundle written to a folder.

use glow_runtime::{
    compile, compile_bundle, model::Port, tensor::HostTensor, BundleRequest, Error, Options,
};
use std::path::PathBuf;

const MODEL: &str = r#"
func.func @main(%x: tensor<2x3xf32> {glow.name = "x"}, %ids: tensor<2xi64> {glow.name = "ids"}) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r = glow.graph.relu %x : tensor<2x3xf32>
  %y = glow.graph.add %r, %r : tensor<2x3xf32>
  %table = glow.graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %g = glow.graph.gather %table, %ids axis 0 : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32> loc("rows")
  return %y, %g : tensor<2x3xf32>, tensor<2x3xf32>
}
"#;

fn model_file(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("glow-runtime-api-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("temporary folder");
    let path = folder.join(name);
    std::fs::write(&path, MODEL).expect("model file");
    path
}

fn tensor(port: &Port, values: &[f64]) -> HostTensor {
    let bytes: Vec<u8> = match port.dtype.mlir_name() {
        "f32" => values
            .iter()
            .flat_map(|v| (*v as f32).to_le_bytes())
            .collect(),
        "i64" => values
            .iter()
            .flat_map(|v| (*v as i64).to_le_bytes())
            .collect(),
        other => panic!("unexpected element type {other}"),
    };
    HostTensor::from_bytes(port.shape.clone(), port.dtype, &bytes)
}

#[test]
fn compiles_runs_and_reports_each_error_class() {
    let path = model_file("model.mlir");
    let model = compile(&path, &Options::default()).expect("the model compiles");
    let names: Vec<&str> = model.inputs().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["x", "ids"]);
    let x = tensor(&model.inputs()[0], &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0]);
    let ids = tensor(&model.inputs()[1], &[1.0, -2.0]);
    let outputs = model.run(&[x.clone(), ids]).expect("the model runs");
    assert_eq!(outputs[0].values(), [0.0, 4.0, 0.0, 8.0, 0.0, 12.0]);
    assert_eq!(outputs[1].values(), [4.0, 5.0, 6.0, 1.0, 2.0, 3.0]);

    let outside = tensor(&model.inputs()[1], &[0.0, 2.0]);
    match model.run(&[x.clone(), outside]) {
        Err(Error::Refused(message)) => assert_eq!(
            message,
            "the model refused its input: node 'rows' (gather): an index is outside [-2, 1]"
        ),
        other => panic!("expected Error::Refused, got {:?}", other.map(|_| ())),
    }
    match model.run(&[x]) {
        Err(Error::Input(message)) => assert_eq!(message, "1 inputs given, the model takes 2"),
        other => panic!("expected Error::Input, got {:?}", other.map(|_| ())),
    }
    match compile(&path.with_file_name("missing.mlir"), &Options::default()) {
        Err(Error::Model(message)) => assert!(message.contains("missing.mlir"), "{message}"),
        other => panic!("expected Error::Model, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn writes_a_bundle() {
    let path = model_file("bundle.mlir");
    let output_dir = path.with_file_name("bundle");
    let summary = compile_bundle(&BundleRequest {
        model: path,
        output_dir: output_dir.clone(),
        name: Some("api".into()),
        input_shapes: Vec::new(),
        frozen_inputs: Vec::new(),
        function: "main".into(),
        max_tensor_bytes: 1 << 30,
        arena_limit: 0,
        target_cpu: None,
        quantization: None,
        int8_kernels: Default::default(),
        int8_kernels_name: "host".into(),
        no_winograd: false,
        threads: 1,
    })
    .expect("the bundle compiles");
    assert_eq!(summary.name, "api");
    for extension in ["o", "weights", "h", "json"] {
        assert!(
            output_dir.join(format!("api.{extension}")).exists(),
            "api.{extension}"
        );
    }
    assert_eq!(summary.constant_weights_size, 64);
}
