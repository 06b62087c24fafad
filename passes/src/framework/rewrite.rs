//! Rewrite rules: one Rust function per rule (named like Glow's), turned into real
//! MLIR `RewritePattern`s and applied by MLIR's greedy driver (with folding), exactly
//! like C++ `OpRewritePattern`s in `applyPatternsGreedily`.

use melior::{
    apply_patterns_and_fold_greedily_with_op, create_op_rewrite_pattern,
    ir::{operation::OperationLike, OperationRef},
    Context, GreedyRewriteDriverConfig, GreedySimplifyRegionLevel, PatternRewriter,
    RewritePatternSet, RewriterBase,
};

/// A rewrite rule rooted at one op name.
pub struct Rule {
    /// The op the rule matches, e.g. `glow.graph.fully_connected`.
    pub root: &'static str,
    /// Ops the rule may create (lets the driver order patterns).
    pub generates: &'static [&'static str],
    /// Matches `op` and rewrites it with `rewriter`; returns whether it did.
    pub rewrite: for<'c, 'a> fn(&'c Context, OperationRef<'c, 'a>, &RewriterBase<'c, '_>) -> bool,
}

/// Applies `rules` to everything nested in `op` with MLIR's greedy driver, to a
/// fixed point. Fails if the driver does not converge.
pub fn apply_rules(op: OperationRef<'_, '_>, rules: &[&'static Rule]) -> Result<(), melior::Error> {
    // `ContextRef::to_ref` borrows the ContextRef itself: keep it alive in a local.
    let context_ref = op.context();
    // SAFETY: the op's context outlives this function.
    let context: &Context = unsafe { context_ref.to_ref() };
    let patterns = RewritePatternSet::new(context);
    for rule in rules {
        let rewrite = rule.rewrite;
        let root = rule.root;
        let pattern = create_op_rewrite_pattern(
            rule.root,
            1,
            context,
            move |_pattern, raw_op, raw_rewriter| {
                // SAFETY: the driver hands a live op and rewriter for this call.
                let (matched, rewriter) = unsafe {
                    (
                        OperationRef::from_raw(raw_op),
                        PatternRewriter::from_raw(raw_rewriter),
                    )
                };
                let context_ref = matched.context();
                // SAFETY: the context outlives every pattern application; the
                // ContextRef it is borrowed from lives until the end of the call.
                let context: &Context = unsafe { context_ref.to_ref() };
                let base = rewriter.as_rewriter_base();
                // A panic must not unwind through MLIR's C++ driver: report it on the
                // op and decline the match.
                match glow_dialects::panics::catch(|| rewrite(context, matched, &base)) {
                    Ok(rewritten) => rewritten,
                    Err(reason) => {
                        super::emit_error(
                            matched.location(),
                            &format!("internal error in rewrite rule for '{root}': {reason}"),
                        );
                        false
                    }
                }
            },
            rule.generates,
        );
        patterns.add(pattern);
    }
    // No region simplification: the rules neither make blocks unreachable nor leave
    // block arguments dead (ops they leave dead the driver erases as it goes), and the
    // simplification walks the whole function after every sweep (half of
    // glow-graph-to-linalg's time on an unrolled LSTM). Canonicalization after the
    // passes still simplifies regions.
    let config = GreedyRewriteDriverConfig::new();
    config.set_region_simplification_level(GreedySimplifyRegionLevel::Disabled);
    apply_patterns_and_fold_greedily_with_op(op, patterns.freeze(), &config)
}
