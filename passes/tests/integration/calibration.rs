//! Calibration (range from a histogram) and schemas (range to int8 parameters).

use glow_passes::quantization::{
    calibration::{calibrated_range, parameters, Calibration, Schema},
    profile_data::ValueProfile,
};

/// A profile of `counts` over [lo, hi].
fn profile(lo: f64, hi: f64, counts: Vec<u64>) -> ValueProfile {
    ValueProfile {
        name: "v".into(),
        min: lo,
        max: hi,
        histogram_min: lo,
        histogram_max: hi,
        histogram: counts,
    }
}

#[test]
fn kl_keeps_a_relu_range_despite_its_spike_of_zeros() {
    // A ReLU's output: half the values exactly 0, the rest decaying exponentially over
    // (0, 8]. The spike once pulled the threshold below 1 (most of the real values
    // clipped); without it the threshold keeps all but a negligible tail.
    let mut counts: Vec<u64> = (0..2048)
        .map(|i| (1e5 * (-(i as f64) / 200.0).exp()) as u64)
        .collect();
    counts[0] = counts.iter().sum();
    let range = calibrated_range(
        &profile(0.0, 8.0, counts),
        Calibration::Kl,
        Schema::Asymmetric,
    );
    assert!(range.0 == 0.0 && range.1 > 4.0, "{range:?}");
}

#[test]
fn kl_clips_rare_outliers() {
    // A dense bulk on [-10, 10] and a handful of outliers at -100 and 100: both
    // schemas' KL ranges clip the outliers (to within the 255 bins a window needs).
    let mut counts = vec![0u64; 2048];
    for (i, c) in counts.iter_mut().enumerate().take(1126).skip(922) {
        *c = 100_000 - (i as i64 - 1024).unsigned_abs() * 900;
    }
    counts[0] = 1;
    counts[2047] = 1;
    let value = profile(-100.0, 100.0, counts);
    for schema in [Schema::Asymmetric, Schema::Symmetric] {
        let (lo, hi) = calibrated_range(&value, Calibration::Kl, schema);
        assert!(
            hi < 30.0 && lo > -30.0 && hi > 9.0 && lo < -9.0,
            "{schema:?}: {lo} {hi}"
        );
    }
}

#[test]
fn percentile_edges_bracket_the_bulk() {
    let mut counts = vec![0u64; 100];
    for c in &mut counts[10..90] {
        *c = 1000;
    }
    let (lo, hi) = calibrated_range(
        &profile(0.0, 100.0, counts),
        Calibration::Percentile,
        Schema::Asymmetric,
    );
    assert_eq!((lo, hi), (10.0, 90.0));
}

#[test]
fn degenerate_ranges_get_a_usable_scale() {
    for schema in [
        Schema::Asymmetric,
        Schema::Symmetric,
        Schema::SymmetricUint8,
        Schema::SymmetricPow2,
    ] {
        let (scale, _, _) = parameters((0.0, 0.0), schema).unwrap();
        assert!(scale >= 0.06, "{schema:?}: {scale}");
    }
    assert!(parameters((f64::NEG_INFINITY, 1.0), Schema::Asymmetric).is_err());
}

#[test]
fn schemas_map_ranges_to_codes() {
    let (scale, zero, signed) = parameters((-1.0, 3.0), Schema::Asymmetric).unwrap();
    assert!(((scale - 4.0 / 255.0) / scale).abs() < 1e-6 && zero == -64 && signed);
    assert_eq!(
        parameters((0.0, 2.55), Schema::SymmetricUint8).unwrap().1,
        0
    );
    assert!(!parameters((0.0, 2.55), Schema::SymmetricUint8).unwrap().2);
    assert_eq!(
        parameters((-1.0, 1.0), Schema::SymmetricPow2).unwrap().0,
        1.0 / 64.0
    );
}

#[test]
fn kl_keeps_the_whole_range_of_discrete_values() {
    // An image input: 17 pixel levels, one of them (the background, at the minimum)
    // holding most values, the brightest at the maximum. Nothing is an outlier, and a
    // window that clips a level clips real data: the whole range must win (it once
    // lost with the symmetric schema, whose threshold search skipped the last bin).
    let mut counts = vec![0u64; 2048];
    for level in 0..17 {
        counts[(level * 2047) / 16] = if level == 0 {
            43_000
        } else {
            2_000 + level as u64 * 100
        };
    }
    let value = profile(-0.8, 1.85, counts);
    for schema in [
        Schema::Asymmetric,
        Schema::Symmetric,
        Schema::SymmetricUint8,
    ] {
        let (lo, hi) = calibrated_range(&value, Calibration::Kl, schema);
        assert!(
            lo <= -0.8 + 1e-9 && hi >= 1.85 - 2e-3,
            "{schema:?}: {lo} {hi}"
        );
    }
}
