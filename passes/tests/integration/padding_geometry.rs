//! The geometry of glow-graph-optimize's padding rules: which filter taps of an atrous
//! convolution read the map (trim-padding-taps) and its regions of equal live taps
//! (split-padding-regions).

use glow_passes::graph_optimize::{
    padding_regions::{products, regions, Region},
    padding_taps::{trim, Axis},
};

fn axis(input: i64, taps: i64, dilation: i64, pad: i64) -> Axis {
    Axis {
        input,
        taps,
        stride: 1,
        dilation,
        pad_before: pad,
        output: input,
    }
}

#[test]
fn dilation_past_the_map_keeps_the_centre_tap() {
    let (first, kept, after) = trim(axis(14, 3, 24, 24)).expect("trimmed");
    assert_eq!((first, after), (1, 0));
    assert_eq!(
        kept,
        Axis {
            taps: 1,
            dilation: 1,
            pad_before: 0,
            ..axis(14, 3, 24, 24)
        }
    );
}

#[test]
fn live_taps_are_kept() {
    // Dilation 12 on 14 rows: the outer taps read rows 0-1 and 12-13 for some
    // outputs; a plain 3x3 with padding 1 reads the map with every tap.
    assert_eq!(trim(axis(14, 3, 12, 12)), None);
    assert_eq!(trim(axis(56, 3, 1, 1)), None);
}

#[test]
fn one_sided_trim_shrinks_one_padding() {
    // 5 taps, dilation 4 on 6 rows, padding 8: taps 0 and 4 read rows -8..-3 and
    // 8..13, taps 1-3 rows -4..1, 0..5, 4..9.
    let (first, kept, after) = trim(axis(6, 5, 4, 8)).expect("trimmed");
    assert_eq!(first, 1);
    assert_eq!(
        (kept.taps, kept.dilation, kept.pad_before, after),
        (3, 4, 4, 4)
    );
}

#[test]
fn strided_output_rows_stay() {
    // Stride 2, 7 rows, 3 taps at dilation 8, padding 8, 4 output rows.
    let a = Axis {
        input: 7,
        taps: 3,
        stride: 2,
        dilation: 8,
        pad_before: 8,
        output: 4,
    };
    let (first, kept, after) = trim(a).expect("trimmed");
    assert_eq!(first, 1);
    // The centre tap reads rows 0, 2, 4, 6 (2 o); the outer ones rows 2 o - 8 and
    // 2 o + 8, all padding. No trailing padding is needed for the 4 rows.
    assert_eq!((kept.taps, kept.pad_before, after), (1, 0, 0));
}

fn padded_axis(input: i64, dilation: i64) -> Axis {
    Axis {
        input,
        taps: 3,
        stride: 1,
        dilation,
        pad_before: dilation,
        output: input,
    }
}

fn region(first: i64, end: i64, tap: i64, last_tap: i64) -> Region {
    Region {
        first,
        end,
        tap,
        last_tap,
    }
}

#[test]
fn aspp_dilation_12_on_14_rows() {
    let a = padded_axis(14, 12);
    let r = regions(a).expect("regions");
    assert_eq!(
        r,
        vec![
            region(0, 2, 1, 2),
            region(2, 12, 1, 1),
            region(12, 14, 0, 1)
        ]
    );
    assert_eq!(products(&a, &r), (18, 42));
    // Input rows: o + 12 k - 12 for o in [0, 2), k in [1, 2]: rows 0 ..= 13.
    assert_eq!((r[0].input_start(&a), r[0].input_rows(&a)), (0, 14));
    assert_eq!((r[1].input_start(&a), r[1].input_rows(&a)), (2, 10));
    assert_eq!((r[2].input_start(&a), r[2].input_rows(&a)), (0, 14));
}

#[test]
fn plain_3x3_is_mostly_live() {
    let a = padded_axis(56, 1);
    let r = regions(a).expect("regions");
    assert_eq!(r.len(), 3);
    assert_eq!(products(&a, &r), (166, 168));
}

#[test]
fn an_output_row_of_padding_only() {
    // Dilation 20 on 4 rows with padding 30: row 0 reads -30, -10, 10: none.
    let a = Axis {
        pad_before: 30,
        output: 4,
        ..padded_axis(4, 20)
    };
    assert_eq!(regions(a), None);
}
