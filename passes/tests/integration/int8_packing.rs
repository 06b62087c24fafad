//! The compile-time data of the int8 micro-kernels: packed filters and the bias that
//! absorbs the input zero point.

use glow_passes::quant_kernels::{depthwise_kernel::pack_depthwise, packing};

#[test]
fn dense_filters_pack_channel_quads_and_pad_with_zeros() {
    // F = 2, C = 3, 1x1: each quad holds c0..c2 and a zero; filters 2..15 are zero.
    let values = [1, 2, 3, -1, -2, -3];
    let filter = packing::Filter {
        values: &values,
        filters: 2,
        channels: 3,
        kernel_h: 1,
        kernel_w: 1,
    };
    let packed = filter.packed();
    assert_eq!(packed.len(), 64);
    assert_eq!(&packed[0..4], &[1, 2, 3, 0]);
    assert_eq!(&packed[4..8], &[255, 254, 253, 0]);
    assert!(packed[8..].iter().all(|b| *b == 0));
}

#[test]
fn weights_centred_when_they_fit_int8_else_offset_with_window_factors() {
    // uint8, zero point 128: centred values fit; no window sums.
    let centred = packing::kernel_weights(&[130, 120], &[128], 1, false);
    assert_eq!(centred.values, vec![2, -8]);
    assert_eq!(centred.window_factors, None);
    assert_eq!(centred.centred_sums, vec![2, -8]);
    // uint8, zero point 3: 250 - 3 = 247 leaves int8, so every weight is w - 128 and
    // each filter's factor 128 - 3; the zero-point sums stay those of w - 3.
    let offset = packing::kernel_weights(&[250, 3, 0, 10], &[3], 2, false);
    assert_eq!(offset.values, vec![122, -125, -128, -118]);
    assert_eq!(offset.window_factors, Some(vec![125, 125]));
    assert_eq!(offset.centred_sums, vec![247, 4]);
    // int8 storage with per-filter zero points: offset 0, factors -zw.
    let signed = packing::kernel_weights(&[127, -128], &[-10, 5], 1, true);
    assert_eq!(signed.values, vec![127, -128]);
    assert_eq!(signed.window_factors, Some(vec![10, -5]));
    assert_eq!(signed.centred_sums, vec![137, -133]);
}

#[test]
fn bias_operand_appends_the_window_factors_padded() {
    assert_eq!(
        packing::bias_operand(vec![1, 2, 0, 0], None),
        vec![1, 2, 0, 0]
    );
    assert_eq!(
        packing::bias_operand(vec![1, 2, 0, 0], Some(&[5, 6])),
        vec![1, 2, 0, 0, 5, 6, 0, 0]
    );
}

#[test]
fn dense_filters_order_reduction_as_kh_kw_channel() {
    // F = 1, C = 4, 1x2: k = kw * 4 + c, one quad per kernel column.
    let values = [10, 20, 11, 21, 12, 22, 13, 23]; // [f][c][kh][kw]
    let filter = packing::Filter {
        values: &values,
        filters: 1,
        channels: 4,
        kernel_h: 1,
        kernel_w: 2,
    };
    let packed = filter.packed();
    assert_eq!(filter.reduction_quads(), 2);
    assert_eq!(&packed[0..4], &[10, 11, 12, 13]);
    assert_eq!(&packed[64..68], &[20, 21, 22, 23]);
}

#[test]
fn bias_absorbs_the_input_zero_point() {
    let bias = packing::corrected_bias(&[10, 20], &[6, -6], 128, 16);
    assert_eq!(bias[..3], [10 - 768, 20 + 768, 0]);
    assert_eq!(bias.len(), 16);
}

#[test]
fn depthwise_filters_interleave_four_kernel_rows_per_lane() {
    // 16 channels, 3x3: lane c of kernel column kw holds rows 0..2 and a zero.
    let values: Vec<i64> = (0..16 * 9).map(|i| (i % 100) as i64).collect();
    let packed = pack_depthwise(&values, 16, 3, 3);
    assert_eq!(packed.len(), 3 * 64);
    for c in 0..16 {
        for kw in 0..3 {
            let lane = &packed[kw * 64 + c * 4..kw * 64 + c * 4 + 4];
            let expected: Vec<u8> = (0..3)
                .map(|kh| values[c * 9 + kh * 3 + kw] as u8)
                .chain([0])
                .collect();
            assert_eq!(lane, expected.as_slice(), "channel {c}, column {kw}");
        }
    }
}

#[test]
fn depthwise_channels_round_up_to_16_with_zero_weights() {
    // 24 channels, 1x1: two blocks of 16 lanes; lanes 8..15 of the second hold 0.
    let values: Vec<i64> = (1..=24).collect();
    let packed = pack_depthwise(&values, 24, 1, 1);
    assert_eq!(packed.len(), 2 * 64);
    assert_eq!(&packed[64..68], &[17, 0, 0, 0]);
    assert_eq!(&packed[64 + 7 * 4..64 + 8 * 4], &[24, 0, 0, 0]);
    assert!(packed[64 + 8 * 4..].iter().all(|b| *b == 0));
}
