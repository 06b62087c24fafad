//! `glow-pads-in-place`: tensor.pad with static amounts and a constant value ->
//! tensor.insert_slice of the source into a tensor whose border alone is filled: one
//! linalg.fill per border slab (for each padded dimension d, the low and the high
//! slab, interior along the dimensions before d, whole along those after), inserted
//! after the source into a tensor.empty of the padded shape (destination-passing
//! style). The producer writes first and the border after it, while the border's cache
//! lines (mostly shared with the interior rows) are still cached: filled first, the
//! columns of MobileNetV2's padded 224 x 224 input missed one line per row (0.05 ms a
//! run in the fills). Run right
//! before `eliminate-empty-tensors` and bufferization, after the last CSE: the
//! producer of the padded value then writes straight into the padded buffer, and no
//! element is written twice (a whole-buffer fill wrote each element of a depthwise
//! convolution's 5 MB input once more before the producer did). A tensor.pad
//! bufferizes to a new buffer plus a strided `memrefCopy` call per run, and if CSE ran
//! after this rewrite, two pads of one shape would share fills and bufferization would
//! copy them. A pad of a leading slice of a wider result (rows computed widened to a
//! register tile's multiple) that fits the padded shape whole inserts that whole
//! result and fills the border over it, so the kernel writes into the padded buffer
//! too and its extra columns become padding. When the wider result is wider along a
//! dimension the pad leaves alone (channels widened to 16's multiple: MNASNet's and
//! EfficientNet's 72-channel expansions computed as 80, then padded for a depthwise
//! convolution), the padded tensor is built that wide there and its consumer reads the
//! leading slice of it: the extra channels ride along unread instead of the slice being
//! copied into a padded buffer of its own.

use crate::{
    framework::{apply_rules, emit_error, PassDefinition, PassOptions, Rule},
    lower_nodes::builder::tensor_info,
    to_linalg::builder::LinalgBuilder,
};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, ValueLike},
    Context, RewriterBase,
};

/// The pass definition registered as `glow-pads-in-place`.
pub static PADS_IN_PLACE: PassDefinition = PassDefinition {
    argument: "glow-pads-in-place",
    description: "Rewrite constant tensor.pad ops as linalg.fill + tensor.insert_slice, so producers write into the padded buffer",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: || {
        vec![
            DialectHandle::linalg(),
            DialectHandle::tensor(),
            DialectHandle::arith(),
        ]
    },
    validate: |_: &PassOptions| Ok(()),
    run,
};

/// How much wider than the pad's source, along an unpadded dimension, a value may be
/// for the padded tensor to take its extent: less than one AVX-512 register of f32.
const WIDENED_LANES: i64 = 16;

/// The rewrite of one tensor.pad.
pub static PAD_TO_FILL_AND_INSERT: Rule = Rule {
    root: "tensor.pad",
    generates: &["linalg.fill", "tensor.insert_slice", "tensor.empty"],
    rewrite,
};

fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    rewriter: &RewriterBase<'c, '_>,
) -> bool {
    // Static amounts only: no dynamic low/high operands.
    if op.operand_count() != 1 {
        return false;
    }
    let (Ok(source), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let (Some((padded, element)), Some(low)) = (
        tensor_info(result.into()),
        crate::framework::attributes::i64_array(op, "static_low"),
    ) else {
        return false;
    };
    let Some((inner, _)) = tensor_info(source) else {
        return false;
    };
    // The padding value: a constant yielded by the region.
    let Some(fill) = padding_constant(op) else {
        return false;
    };
    let b = LinalgBuilder::before(context, op, rewriter);
    let unit = vec![1; low.len()];
    // A leading slice of a kernel computed wider than needed (rows widened to a
    // register tile's multiple) whose whole result fits the padded tensor: the whole
    // result goes in (the border over it, below), so the kernel writes into the padded
    // buffer and its extra columns become padding (copying the slice cost MobileNetV2
    // at 257 x 257 0.65 ms a run). Along unpadded dimensions the padded tensor takes
    // the whole result's extent, and the pad's users read its leading slice.
    let (inserted, built, inner) = match widened_whole(source, &padded, &inner, &low) {
        Some((whole, built)) => {
            let extent = (0..inner.len())
                .map(|d| {
                    if built[d] == padded[d] {
                        inner[d]
                    } else {
                        built[d]
                    }
                })
                .collect();
            (whole, built, extent)
        }
        None => (source, padded.clone(), inner),
    };
    let mut padded_value = if built == padded {
        b.empty(result.r#type())
    } else {
        b.empty(b.tensor(&built, element))
    };
    padded_value = b.insert_slice(inserted, padded_value, &low, &unit);
    for (offsets, sizes) in border_slabs(&built, &inner, &low) {
        let slab = b.zeros(b.tensor(&sizes, element), fill);
        padded_value = b.insert_slice(slab, padded_value, &offsets, &unit);
    }
    if built != padded {
        padded_value = b.extract_slice(padded_value, &vec![0; padded.len()], &padded);
    }
    rewriter.replace_op_with_values(op, &[padded_value]);
    true
}

/// The value `source` (of shape `inner`) is a leading slice of, with the shape of the
/// tensor to build: `padded`, except along the dimensions the pad leaves alone, where
/// it takes the whole value's extent. None unless that whole value placed at `low`
/// stays inside that shape along the padded dimensions.
fn widened_whole<'c, 'a>(
    source: melior::ir::Value<'c, 'a>,
    padded: &[i64],
    inner: &[i64],
    low: &[i64],
) -> Option<(melior::ir::Value<'c, 'a>, Vec<i64>)> {
    let slice = crate::framework::values::defining_op(source)?;
    if !super::stack_through_slices::leading_slice(slice) {
        return None;
    }
    let whole = slice.operand(0).ok()?;
    let (wide, _) = tensor_info(whole)?;
    // Along an unpadded dimension, a value wider by less than a vector register's
    // lanes (a channel count widened to 16's multiple), not any leading slice: a pad of
    // 3 channels of 64 would build and fill all 64.
    let unpadded = |d: usize| low[d] == 0 && padded[d] == inner[d];
    if (0..wide.len()).any(|d| unpadded(d) && wide[d] - inner[d] >= WIDENED_LANES) {
        return None;
    }
    let built: Vec<i64> = (0..wide.len())
        .map(|d| if unpadded(d) { wide[d] } else { padded[d] })
        .collect();
    let fits = (0..wide.len()).all(|d| low[d] + wide[d] <= built[d]);
    // SAFETY: the value belongs to the function being rewritten, which outlives `source`.
    fits.then(|| {
        (
            unsafe { melior::ir::Value::from_raw(whole.to_raw()) },
            built,
        )
    })
}

/// `(offsets, sizes)` of the slabs that partition the border of a `padded` tensor
/// holding an `inner` one at `low`: for each dimension d, the part before and the part
/// after the inner extent along d, inner along the dimensions before d, whole along
/// those after it. Empty slabs are left out.
fn border_slabs(padded: &[i64], inner: &[i64], low: &[i64]) -> Vec<(Vec<i64>, Vec<i64>)> {
    let mut slabs = Vec::new();
    for d in 0..padded.len() {
        let high = padded[d] - low[d] - inner[d];
        for (start, size) in [(0, low[d]), (low[d] + inner[d], high)] {
            if size <= 0 {
                continue;
            }
            let (mut offsets, mut sizes) = (Vec::new(), Vec::new());
            for j in 0..padded.len() {
                let (offset, extent) = match j.cmp(&d) {
                    std::cmp::Ordering::Less => (low[j], inner[j]),
                    std::cmp::Ordering::Equal => (start, size),
                    std::cmp::Ordering::Greater => (0, padded[j]),
                };
                offsets.push(offset);
                sizes.push(extent);
            }
            if sizes.iter().all(|&n| n > 0) {
                slabs.push((offsets, sizes));
            }
        }
    }
    slabs
}

/// The attribute of the `arith.constant` the pad's region yields, if it does.
fn padding_constant<'c>(op: OperationRef<'c, '_>) -> Option<melior::ir::Attribute<'c>> {
    let region = op.region(0).ok()?;
    let block = region.first_block()?;
    let terminator = block.terminator()?;
    let yielded = terminator.operand(0).ok()?;
    let constant = crate::framework::values::defining_op(yielded)?;
    if constant.name().as_string_ref().as_str().ok()? != "arith.constant" {
        return None;
    }
    constant.attribute("value").ok()
}

fn run(op: OperationRef<'_, '_>, _: &PassOptions) -> Result<(), ()> {
    apply_rules(op, &[&PAD_TO_FILL_AND_INSERT]).map_err(|_| {
        emit_error(
            op.location(),
            "glow-pads-in-place: the rewrite did not converge",
        );
    })
}
