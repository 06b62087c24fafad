//! The Rust-pass framework: passes registered from Rust are real MLIR passes whose
//! options MLIR parses, whose validation errors reach the pipeline parser, and whose
//! panics become diagnostics instead of crashing the process.

use crate::{context, parse};
use glow_passes::framework::{register_pass, OptionKind, PassDefinition, PassOption, PassOptions};
use glow_passes::{run_pipeline, PipelineError};
use melior::ir::{operation::OperationLike, OperationRef};
use std::sync::Mutex;

static SEEN: Mutex<Vec<PassOptions>> = Mutex::new(Vec::new());

static RECORD_OPTIONS: PassDefinition = PassDefinition {
    argument: "test-record-options",
    description: "Records its option values (test only)",
    anchor: Some("func.func"),
    options: &[
        PassOption {
            name: "names",
            description: "a list",
            kind: OptionKind::StringList,
            default: None,
        },
        PassOption {
            name: "flag",
            description: "a bool",
            kind: OptionKind::Bool,
            default: Some("false"),
        },
        PassOption {
            name: "count",
            description: "an int",
            kind: OptionKind::Int,
            default: Some("7"),
        },
        PassOption {
            name: "label",
            description: "a string",
            kind: OptionKind::String,
            default: Some("none"),
        },
    ],
    dependent_dialects: Vec::new,
    validate: |options| match options.value("count") {
        Some(count) if count.starts_with('-') => {
            Err(format!("'count' must not be negative, got {count}"))
        }
        _ => Ok(()),
    },
    run: |_op: OperationRef<'_, '_>, options| {
        SEEN.lock().unwrap().push(options.clone());
        Ok(())
    },
};

static PANICS: PassDefinition = PassDefinition {
    argument: "test-panics",
    description: "Panics (test only)",
    anchor: None,
    options: &[],
    dependent_dialects: Vec::new,
    validate: |_| Ok(()),
    run: |_, _| panic!("deliberate test panic"),
};

static FAILS: PassDefinition = PassDefinition {
    argument: "test-fails",
    description: "Reports an error on its op and fails (test only)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::new,
    validate: |_| Ok(()),
    run: |op, _| {
        glow_passes::framework::emit_error(op.location(), "this function is not welcome");
        Err(())
    },
};

static BREAKS_IR: PassDefinition = PassDefinition {
    argument: "test-breaks-ir",
    description: "Erases the terminator of its function (test only)",
    anchor: Some("func.func"),
    options: &[],
    dependent_dialects: Vec::new,
    validate: |_| Ok(()),
    run: |op, _| {
        use melior::ir::{BlockLike, RegionLike};
        let block = op.region(0).unwrap().first_block().unwrap();
        let terminator = block.terminator().unwrap();
        // SAFETY: `func.return` has no results, so nothing uses what is destroyed.
        unsafe { mlir_sys::mlirOperationDestroy(terminator.to_raw()) };
        Ok(())
    },
};

fn register_test_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        register_pass(&RECORD_OPTIONS);
        register_pass(&PANICS);
        register_pass(&FAILS);
        register_pass(&BREAKS_IR);
    });
}

const ONE_FUNCTION: &str = "func.func @f() { return }";

#[test]
fn options_are_parsed_by_mlir_and_reach_the_pass() {
    let context = context();
    register_test_passes();
    let mut module = parse(&context, ONE_FUNCTION);
    SEEN.lock().unwrap().clear();
    run_pipeline(
        &mut module,
        "builtin.module(func.func(test-record-options{names=a,b flag=true count=3}))",
    )
    .unwrap();
    run_pipeline(
        &mut module,
        "builtin.module(func.func(test-record-options))",
    )
    .unwrap();
    let seen = SEEN.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].list("names"), ["a", "b"]);
    assert!(seen[0].flag("flag"));
    assert_eq!(seen[0].value("count"), Some("3"));
    assert_eq!(seen[0].value("label"), Some("none"));
    // Defaults.
    assert!(seen[1].list("names").is_empty());
    assert!(!seen[1].flag("flag"));
    assert_eq!(seen[1].value("count"), Some("7"));
}

#[test]
fn validation_and_parse_errors_name_the_problem() {
    let context = context();
    register_test_passes();
    let mut module = parse(&context, ONE_FUNCTION);
    let invalid = run_pipeline(
        &mut module,
        "builtin.module(func.func(test-record-options{count=-1}))",
    );
    match invalid {
        Err(PipelineError::Parse(message)) => {
            assert!(
                message.contains("'count' must not be negative, got -1"),
                "{message}"
            )
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    let not_an_int = run_pipeline(
        &mut module,
        "builtin.module(func.func(test-record-options{count=many}))",
    );
    assert!(
        matches!(not_an_int, Err(PipelineError::Parse(_))),
        "{not_an_int:?}"
    );
    let unknown = run_pipeline(&mut module, "builtin.module(no-such-pass)");
    match unknown {
        Err(PipelineError::Parse(message)) => {
            assert!(message.contains("no-such-pass"), "{message}")
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn a_panicking_pass_becomes_a_diagnostic() {
    let context = context();
    register_test_passes();
    let mut module = parse(&context, ONE_FUNCTION);
    match run_pipeline(&mut module, "builtin.module(test-panics)") {
        Err(PipelineError::Run(message)) => {
            assert!(
                message.contains("internal error in pass 'test-panics': deliberate test panic"),
                "{message}"
            )
        }
        other => panic!("expected a run error, got {other:?}"),
    }
}

#[test]
fn a_failing_pass_reports_its_located_error() {
    let context = context();
    register_test_passes();
    let mut module = parse(&context, ONE_FUNCTION);
    match run_pipeline(&mut module, "builtin.module(func.func(test-fails))") {
        Err(PipelineError::Run(message)) => assert!(
            message.contains("this function is not welcome"),
            "{message}"
        ),
        other => panic!("expected a run error, got {other:?}"),
    }
}

const ONE_ADD: &str =
    "func.func @f(%a: f32) -> f32 {\n  %s = arith.addf %a, %a : f32\n  return %s : f32\n}";

#[test]
fn a_pass_that_breaks_the_ir_stops_the_pipeline_with_or_without_the_verifier() {
    use glow_passes::framework::run_pipeline_verifying;
    let context = context();
    register_test_passes();
    // Without the per-pass verifier (release pipelines) the pass verifies its function
    // itself and names itself; the canonicalizer after it never runs on broken IR.
    let mut module = parse(&context, ONE_ADD);
    match run_pipeline_verifying(
        &mut module,
        "builtin.module(func.func(test-breaks-ir,canonicalize))",
        false,
    ) {
        Err(PipelineError::Run(message)) => assert!(
            message.contains("internal error: pass 'test-breaks-ir' left IR that does not verify")
                && message.contains("terminator"),
            "{message}"
        ),
        other => panic!("expected a run error, got {other:?}"),
    }
    // With it, MLIR's verifier reports the broken op.
    let mut module = parse(&context, ONE_ADD);
    match run_pipeline_verifying(
        &mut module,
        "builtin.module(func.func(test-breaks-ir))",
        true,
    ) {
        Err(PipelineError::Run(message)) => assert!(message.contains("terminator"), "{message}"),
        other => panic!("expected a run error, got {other:?}"),
    }
    // A valid pipeline runs either way.
    for verify_each in [false, true] {
        let mut module = parse(&context, ONE_ADD);
        run_pipeline_verifying(
            &mut module,
            "builtin.module(func.func(canonicalize,cse))",
            verify_each,
        )
        .unwrap();
    }
}

#[test]
fn values_name_their_definition_without_failing_conversions() {
    use glow_passes::framework::values::{block_argument, defining_op, operation_result};
    use melior::ir::{BlockLike, RegionLike};
    let context = context();
    let module = parse(
        &context,
        "func.func @f(%a: f32) -> f32 {\n  %s = arith.addf %a, %a : f32\n  return %s : f32\n}",
    );
    let function = module.body().first_operation().expect("the function");
    let block = function.region(0).unwrap().first_block().unwrap();
    let add = block.first_operation().expect("the add");
    let argument = add.operand(0).unwrap();
    let sum = add.result(0).unwrap().into();
    assert!(defining_op(argument).is_none() && operation_result(argument).is_none());
    assert_eq!(
        block_argument(argument).map(|a| a.argument_number()),
        Some(0)
    );
    assert!(block_argument(sum).is_none());
    let defining = defining_op(sum).expect("the add defines the sum");
    assert_eq!(defining.name().as_string_ref().as_str(), Ok("arith.addf"));
    assert_eq!(operation_result(sum).map(|r| r.result_number()), Some(0));
}
