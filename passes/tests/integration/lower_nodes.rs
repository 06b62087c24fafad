//! glow-lower-nodes as a library call, snapshotting the lowered IR.

use crate::{context, parse};
use glow_passes::run_pipeline;

const RESNET_HEAD: &str = r#"
func.func @head(%x: tensor<1x8x4x4xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>,
                %w: tensor<8x10xf32>, %fb: tensor<10xf32>) -> tensor<1x10xf32> {
  %bn = glow.graph.batch_norm %x, %s, %b, %m, %v : tensor<1x8x4x4xf32>, tensor<8xf32>
  %r = glow.graph.relu %bn : tensor<1x8x4x4xf32>
  %p = glow.graph.avg_pool %r kernel [4, 4] : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  %f = glow.graph.reshape %p : tensor<1x8x1x1xf32> -> tensor<1x8xf32>
  %y = glow.graph.fully_connected %f, %w, %fb : (tensor<1x8xf32>, tensor<8x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}
"#;

#[test]
fn lowers_batch_norm_and_fully_connected() {
    let context = context();
    let mut module = parse(&context, RESNET_HEAD);
    run_pipeline(
        &mut module,
        "builtin.module(func.func(glow-lower-nodes),canonicalize)",
    )
    .unwrap();
    let text = module.as_operation().to_string();
    assert!(!text.contains("batch_norm") && !text.contains("fully_connected"));
    insta::assert_snapshot!(text);
}

#[test]
fn keeping_every_node_changes_nothing() {
    let context = context();
    let mut module = parse(&context, RESNET_HEAD);
    let before = module.as_operation().to_string();
    run_pipeline(
        &mut module,
        "builtin.module(func.func(glow-lower-nodes{keep=batch_norm,fully_connected,relu}))",
    )
    .unwrap();
    assert_eq!(before, module.as_operation().to_string());
}

#[test]
fn adaptive_windows_follow_pytorch() {
    use glow_passes::lower_nodes::adaptive_pool::averaging_matrix;
    // 5 -> 3: rows [0, 2), [1, 4), [3, 5).
    let (half, third) = (0.5, 1.0 / 3.0);
    assert_eq!(
        averaging_matrix(5, 3),
        vec![
            half, half, 0.0, 0.0, 0.0, //
            0.0, third, third, third, 0.0, //
            0.0, 0.0, 0.0, half, half,
        ]
    );
    // Equal, disjoint windows when the extents divide.
    assert_eq!(
        averaging_matrix(4, 2),
        vec![0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5]
    );
}
