//! The typed Rust builders generated from the ODS files build verified IR, with
//! result types inferred where the op infers them.

use crate::{context, here};
use glow_dialects::ods::glow_graph;
use melior::{
    dialect::func,
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, RankedTensorType},
        Attribute, Block, BlockLike, Identifier, Module, Region, RegionLike, Type,
    },
};

fn tensor<'c>(context: &'c melior::Context, shape: &[u64]) -> Type<'c> {
    RankedTensorType::new(shape, Type::float32(context), None).into()
}

#[test]
fn conv_relu_fc_graph_builds_and_verifies() {
    let context = context();
    let location = here(&context);
    let module = Module::new(location);

    let input = tensor(&context, &[1, 3, 8, 8]);
    let filter = tensor(&context, &[4, 3, 3, 3]);
    let weights = tensor(&context, &[144, 10]);
    let bias = tensor(&context, &[10]);
    let output = tensor(&context, &[1, 10]);

    let block = Block::new(&[
        (input, location),
        (filter, location),
        (weights, location),
        (bias, location),
    ]);
    let arg = |i| block.argument(i).unwrap().into();
    // conv2d infers its result type, 1x4x6x6, from the input, filter and attributes.
    // (melior's macro spells the ODS name conv2d as conv_2_d.)
    let conv =
        block.append_operation(glow_graph::conv_2_d(&context, arg(0), arg(1), location).into());
    let relu = block.append_operation(
        glow_graph::relu(&context, conv.result(0).unwrap().into(), location).into(),
    );
    let flat = block.append_operation(
        glow_graph::reshape(
            &context,
            tensor(&context, &[1, 144]),
            relu.result(0).unwrap().into(),
            location,
        )
        .into(),
    );
    let fc = block.append_operation(
        glow_graph::fully_connected(
            &context,
            flat.result(0).unwrap().into(),
            arg(2),
            arg(3),
            location,
        )
        .into(),
    );
    block.append_operation(func::r#return(&[fc.result(0).unwrap().into()], location));

    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(&context, &[input, filter, weights, bias], &[output]);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "classifier"),
        TypeAttribute::new(function_type.into()),
        region,
        &[(
            Identifier::new(&context, "sym_visibility"),
            Attribute::parse(&context, "\"public\"").unwrap(),
        )],
        location,
    ));

    assert!(module.as_operation().verify());
    insta::assert_snapshot!(module.as_operation().to_string());
}

#[test]
fn builder_attributes_drive_type_inference() {
    use melior::ir::{attribute::DenseI64ArrayAttribute, ValueLike};
    let context = context();
    let location = here(&context);
    let block = Block::new(&[
        (tensor(&context, &[1, 3, 224, 224]), location),
        (tensor(&context, &[64, 3, 7, 7]), location),
    ]);
    // ResNet-50's stem: stride 2, pad 3 -> 112x112.
    let conv = glow_graph::Conv2DOperationBuilder::new(&context, location)
        .input(block.argument(0).unwrap().into())
        .filter(block.argument(1).unwrap().into())
        .strides(DenseI64ArrayAttribute::new(&context, &[2, 2]).into())
        .pads(DenseI64ArrayAttribute::new(&context, &[3, 3, 3, 3]).into())
        .build();
    let result = conv.as_operation().result(0).unwrap();
    assert_eq!(result.r#type().to_string(), "tensor<1x64x112x112xf32>");
}
