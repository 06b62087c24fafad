//! The activation planner's placement: buffers alive at the same time never overlap,
//! every offset is aligned, and buffers with disjoint lifetimes reuse memory.

use glow_passes::{
    cpu_schedule::tiles::{largest_divisor_at_most, tiling, Kernel},
    memory_plan::first_fit::{
        lower_bound, place, place_in_order, plan, Interval, Strategy as Placement,
    },
};
use proptest::prelude::*;

fn interval() -> impl Strategy<Value = Interval> {
    (1u64..5000, 0usize..40, 0usize..20).prop_map(|(size, start, length)| Interval {
        size,
        start,
        end: start + length,
    })
}

proptest! {
    #[test]
    fn live_buffers_never_overlap(buffers in proptest::collection::vec(interval(), 1..40)) {
        let (offsets, arena) = place(&buffers, 64);
        for (i, a) in buffers.iter().enumerate() {
            prop_assert_eq!(offsets[i] % 64, 0);
            prop_assert!(offsets[i] + a.size <= arena);
            for (j, b) in buffers.iter().enumerate().skip(i + 1) {
                let alive_together = a.start <= b.end && b.start <= a.end;
                let disjoint = offsets[i] + a.size <= offsets[j] || offsets[j] + b.size <= offsets[i];
                prop_assert!(!alive_together || disjoint, "buffers {} and {} overlap", i, j);
            }
        }
        // Never more than every buffer side by side.
        let total: u64 = buffers.iter().map(|b| b.size.div_ceil(64) * 64).sum();
        prop_assert!(arena <= total);
    }

    #[test]
    fn every_strategy_is_valid_and_the_plan_is_the_best(
        buffers in proptest::collection::vec(interval(), 1..40)
    ) {
        let (bound, _) = lower_bound(&buffers, 64);
        let (_, best, _) = plan(&buffers, 64);
        for strategy in Placement::ALL {
            let (offsets, arena) = place_in_order(&buffers, 64, strategy);
            prop_assert!(arena >= bound, "{:?} beat the lower bound", strategy);
            prop_assert!(best <= arena);
            for (i, a) in buffers.iter().enumerate() {
                for (j, b) in buffers.iter().enumerate().skip(i + 1) {
                    let alive_together = a.start <= b.end && b.start <= a.end;
                    let disjoint =
                        offsets[i] + a.size <= offsets[j] || offsets[j] + b.size <= offsets[i];
                    prop_assert!(!alive_together || disjoint, "{:?}: {} and {} overlap", strategy, i, j);
                }
            }
        }
    }
}

#[test]
fn the_lower_bound_is_the_most_bytes_alive_at_once() {
    let buffers = [
        Interval {
            size: 100,
            start: 0,
            end: 2,
        },
        Interval {
            size: 200,
            start: 1,
            end: 3,
        },
        Interval {
            size: 300,
            start: 3,
            end: 4,
        },
    ];
    // Position 1-2: 128 + 256; position 3: 256 + 320 (ends are inclusive).
    assert_eq!(lower_bound(&buffers, 64), (576, 3));
}

#[test]
fn largest_first_reaches_the_lower_bound_where_program_order_does_not() {
    // A small buffer placed first in program order pushes the big ones above it.
    let buffers = [
        Interval {
            size: 64,
            start: 0,
            end: 1,
        },
        Interval {
            size: 640,
            start: 1,
            end: 2,
        },
        Interval {
            size: 640,
            start: 2,
            end: 3,
        },
        Interval {
            size: 64,
            start: 3,
            end: 3,
        },
    ];
    let (_, program_order) = place_in_order(&buffers, 64, Placement::ProgramOrder);
    let (_, best, _) = plan(&buffers, 64);
    assert_eq!(program_order, 1344);
    assert_eq!(best, 1280);
    assert_eq!(best, lower_bound(&buffers, 64).0);
}

#[test]
fn buffers_with_disjoint_lifetimes_share_memory() {
    let chain: Vec<Interval> = (0..10)
        .map(|i| Interval {
            size: 1000,
            start: i,
            end: i + 1,
        })
        .collect();
    let (_, arena) = place(&chain, 64);
    // Each buffer lives with its neighbours only: two slots suffice.
    assert_eq!(arena, 2 * 1024);
}

#[test]
fn tiles_divide_the_dimensions_and_fit_the_registers() {
    for f in [16, 24, 32, 64, 96, 144, 160, 1000] {
        for ow in [7, 13, 14, 27, 28, 55, 56, 112] {
            let t = tiling(Kernel::Conv2dNhwcHwcf, &[1, ow, ow, f], &[3, 3, 64]).unwrap();
            assert_eq!(ow % t.parallel[2], 0);
            assert_eq!(f % t.parallel[3], 0);
            let registers = t.parallel[2] * ((t.parallel[3] + 15) / 16);
            assert!(registers <= 24, "{ow}x{f}: {registers} accumulators");
        }
    }
    assert_eq!(largest_divisor_at_most(56, 12), 8);
    // A 13-wide row (SqueezeNet's last fire modules): 13 columns of 16 channels rather
    // than one column of 32.
    let t = tiling(Kernel::Conv2dNhwcHwcf, &[1, 13, 13, 256], &[3, 3, 64]).unwrap();
    assert_eq!((t.parallel[2], t.parallel[3]), (13, 16));
    // Where both hold as many lanes, the wider channel tile.
    let t = tiling(Kernel::Conv2dNhwcHwcf, &[1, 28, 28, 128], &[3, 3, 64]).unwrap();
    assert_eq!((t.parallel[2], t.parallel[3]), (7, 32));
    assert!(tiling(Kernel::Matmul, &[0, 4], &[4]).is_none());
}
