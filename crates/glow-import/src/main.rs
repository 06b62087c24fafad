//! `glow-import MODEL.onnx [-o OUT.mlir]`: imports an ONNX model into `glow.graph` MLIR.
//! Errors are one line naming the node (name and op type), input or tensor at fault;
//! the exit code is 1 and no output file is left behind.

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use glow_dialects::register_glow_dialects;
use glow_onnx::{
    import_model_with_progress, load_model, signature, supported_ops, unsupported_nodes,
    ImportOptions, Progress, SUPPORTED_OPSETS,
};
use melior::{dialect::DialectRegistry, utility::register_all_dialects, Context};
use std::{
    collections::HashMap,
    io::{IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
};

/// The form `glow-import` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    /// The glow.graph module.
    Glow,
    /// Upstream-only linalg on tensors (`glow-export-linalg`).
    Linalg,
}

#[derive(Parser)]
#[command(
    name = "glow-import",
    version,
    about = "Import an ONNX model into glow.graph MLIR"
)]
struct Arguments {
    /// The .onnx model.
    #[arg(required_unless_present = "list_supported")]
    model: Option<PathBuf>,
    /// Output file (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Static shape of an input, e.g. `input=1x3x224x224` (repeatable).
    #[arg(long = "input-shape", value_name = "NAME=DIMS")]
    input_shapes: Vec<String>,
    /// Bind an input to constant data from an ONNX TensorProto (`.pb`) or numpy
    /// (`.npy`) file, e.g. `axes=axes.pb` (repeatable): the input stops being a function
    /// argument and shapes that depend on it become static.
    #[arg(long = "freeze-input", value_name = "NAME=FILE")]
    frozen_inputs: Vec<String>,
    /// What to write: `glow` (the glow.graph module) or `linalg` (upstream-only linalg
    /// on tensors after Glow's graph optimizations, the `glow-export-linalg` pipeline,
    /// for IREE's iree-compile and torch-mlir).
    #[arg(long, value_enum, default_value_t = Emit::Glow)]
    emit: Emit,
    /// Write MLIR bytecode instead of text.
    #[arg(long)]
    emit_bytecode: bool,
    /// Leave locations out of the text (they carry the ONNX node names that
    /// diagnostics and quantization profiles use).
    #[arg(long)]
    no_locations: bool,
    /// List every unsupported op of the model (op type and node) and exit.
    #[arg(long)]
    list_unsupported: bool,
    /// List the supported ONNX op types (and, first, the supported opset range) and exit.
    #[arg(long)]
    list_supported: bool,
    /// Print the model's inputs and outputs (`input NAME: TYPE [DIMS]`, one per line,
    /// symbolic dimensions by name, `?` when unnamed) and exit, without importing it.
    #[arg(long)]
    print_signature: bool,
    /// Check that the module reads back bit for bit from text, generic text and
    /// bytecode (MLIR's --verify-roundtrip, with Glow's portable bytecode); fail with
    /// the first difference otherwise.
    #[arg(long)]
    verify_roundtrip: bool,
    /// Name of the generated function.
    #[arg(long, default_value = "main")]
    function_name: String,
    /// Refuse models whose weights exceed this many bytes.
    #[arg(long, default_value_t = 8 << 30)]
    max_weights_bytes: u64,
    /// Refuse models in which one tensor (input, intermediate or output) would exceed
    /// this many bytes.
    #[arg(long, default_value_t = glow_onnx::DEFAULT_MAX_TENSOR_BYTES)]
    max_tensor_bytes: u64,
}

fn run(arguments: Arguments) -> Result<()> {
    if arguments.list_supported {
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "opsets {}-{}",
            SUPPORTED_OPSETS.start(),
            SUPPORTED_OPSETS.end()
        )?;
        writeln!(out, "{}", supported_ops().join("\n"))?;
        return Ok(());
    }
    let model = arguments.model.clone().expect("clap requires MODEL here");
    if arguments.print_signature {
        let loaded = load_model(&model)?;
        let (inputs, outputs) = signature(&loaded.model);
        let mut out = std::io::stdout().lock();
        for (kind, ports) in [("input", inputs), ("output", outputs)] {
            for port in ports {
                writeln!(out, "{kind} {}", port.describe())?;
            }
        }
        return Ok(());
    }
    if arguments.list_unsupported {
        let loaded = load_model(&model)?;
        let nodes = unsupported_nodes(&loaded.model, true);
        if nodes.is_empty() {
            writeln!(std::io::stdout(), "every op of the model is supported")?;
        } else {
            let mut by_op: Vec<(String, Vec<String>)> = Vec::new();
            for (op, node) in nodes {
                match by_op.iter_mut().find(|(o, _)| *o == op) {
                    Some((_, list)) => list.push(node),
                    None => by_op.push((op, vec![node])),
                }
            }
            for (op, list) in &by_op {
                writeln!(
                    std::io::stdout(),
                    "{op} ({} node{}): {}",
                    list.len(),
                    if list.len() == 1 { "" } else { "s" },
                    list.join(", ")
                )?;
            }
            bail!("{} unsupported op type(s)", by_op.len());
        }
        return Ok(());
    }

    let mut input_shapes = HashMap::new();
    for text in &arguments.input_shapes {
        let (name, dims) = glow_onnx::parse_input_shape(text).map_err(anyhow::Error::msg)?;
        input_shapes.insert(name, dims);
    }
    let mut frozen_inputs = HashMap::new();
    for text in &arguments.frozen_inputs {
        let (name, data) = glow_runtime::frozen::parse_frozen(text)?;
        frozen_inputs.insert(name, data);
    }
    let options = ImportOptions {
        input_shapes,
        max_weight_bytes: arguments.max_weights_bytes,
        max_tensor_bytes: arguments.max_tensor_bytes,
        function_name: arguments.function_name.clone(),
        frozen_inputs,
    };

    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_glow_dialects(&registry);
    let context = Context::new();
    // One MLIR thread, as in glow-run / glow-compile: --emit=linalg's passes then free
    // each weight they replace at once.
    context.enable_multi_threading(false);
    context.append_dialect_registry(&registry);
    for dialect in ["func", "tensor", "quant", "glow.graph", "glow.quant"] {
        context.get_or_load_dialect(dialect);
    }
    // A progress bar for large models, on a terminal only.
    let bar = std::io::stderr().is_terminal().then(|| {
        indicatif::ProgressBar::hidden().with_style(
            indicatif::ProgressStyle::with_template(
                "{msg} [{bar:30}] {pos}/{len} nodes ({elapsed})",
            )
            .expect("valid template"),
        )
    });
    let mut large = false;
    let mut report = |progress: Progress| {
        let Some(bar) = &bar else { return };
        match progress {
            Progress::Decoded {
                weight_bytes,
                nodes,
            } => {
                large = nodes >= 500 || weight_bytes >= (64 << 20);
                if large {
                    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                }
                bar.set_length(nodes as u64);
                bar.set_message("importing");
            }
            Progress::Converted { done } if large => bar.set_position(done as u64),
            Progress::Verifying if large => bar.set_message("verifying"),
            _ => {}
        }
    };
    let module = import_model_with_progress(&context, &model, &options, &mut report);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut module = module?;
    if arguments.emit == Emit::Linalg {
        melior::utility::register_all_passes();
        glow_passes::register_glow_passes();
        glow_passes::run_pipeline(
            &mut module,
            &format!(
                "builtin.module({})",
                glow_passes::export_linalg::export_linalg_pipeline()
            ),
        )
        .map_err(|error| anyhow::anyhow!("--emit=linalg: {error}"))?;
    }
    if arguments.verify_roundtrip {
        glow_dialects::bytecode::verify_round_trip(&module)
            .map_err(|reason| anyhow::anyhow!("round trip failed: {reason}"))?;
    }

    // Output goes to a temporary file next to the target, renamed when complete: no
    // partial output on failure. A device or FIFO (`-o /dev/null`) is written in place:
    // a rename would replace it.
    let (mut sink, temporary) = match &arguments.output {
        None => (Box::new(std::io::stdout().lock()) as Box<dyn Write>, None),
        Some(path) if !glow_dialects::output_path::renames_into_place(path) => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot write '{}'", path.display()))?;
            (
                Box::new(std::io::BufWriter::new(file)) as Box<dyn Write>,
                None,
            )
        }
        Some(path) => {
            let directory = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            let temporary = directory.join(format!(
                ".{}.partial-{}",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                std::process::id()
            ));
            let file = std::fs::File::create(&temporary)
                .with_context(|| format!("cannot write '{}'", path.display()))?;
            (
                Box::new(std::io::BufWriter::new(file)) as Box<dyn Write>,
                Some(temporary),
            )
        }
    };
    let written = write_module(&context, module, &arguments, &mut sink).and_then(|()| {
        sink.flush()?;
        Ok(())
    });
    drop(sink);
    if let (Some(temporary), Some(path)) = (&temporary, &arguments.output) {
        let renamed = written.and_then(|()| {
            std::fs::rename(temporary, path)
                .map_err(|error| anyhow::anyhow!("cannot write '{}': {error}", path.display()))
        });
        if renamed.is_err() {
            let _ = std::fs::remove_file(temporary);
        }
        return renamed;
    }
    written
}

/// Writes `module` to `sink` as text (streamed: the weights are hex-encoded a chunk
/// at a time, see glow_dialects::text_output) or as bytecode (checked to read back
/// first, see below).
fn write_module(
    context: &Context,
    module: melior::ir::Module,
    arguments: &Arguments,
    sink: &mut dyn Write,
) -> Result<()> {
    if arguments.emit_bytecode {
        // Written around MLIR 22's mangling of dotted dialect names
        // (glow_dialects::bytecode) into an anonymous scratch file, and checked to read
        // back (the weights read in place) before any byte reaches the output.
        let mut scratch =
            tempfile::tempfile().context("cannot create a scratch file for the bytecode")?;
        {
            let mut buffered = std::io::BufWriter::new(&mut scratch);
            glow_dialects::bytecode::write_to(&module, &mut buffered)
                .map_err(anyhow::Error::msg)?;
            buffered.flush()?;
        }
        drop(module);
        free_weights(context);
        {
            // SAFETY: a private scratch file nothing else writes.
            let bytes =
                unsafe { memmap2::Mmap::map(&scratch) }.context("cannot read back the bytecode")?;
            let read_back = glow_dialects::bytecode::reads_back(context, &bytes);
            // The read-back's blobs pointed into the mapping dropped below: empty them.
            free_weights(context);
            if !read_back {
                bail!("the MLIR bytecode of this module does not read back; write text instead");
            }
        }
        std::io::Seek::rewind(&mut scratch)?;
        std::io::copy(&mut scratch, sink)?;
        return Ok(());
    }
    glow_dialects::text_output::write_text(&module, !arguments.no_locations, sink)?;
    Ok(())
}

/// Frees every weight blob of `context` (no module of it is alive any more).
fn free_weights(context: &Context) {
    let empty = melior::ir::Module::new(melior::ir::Location::unknown(context));
    glow_dialects::resources::release_unreferenced(&empty);
}

fn main() -> ExitCode {
    glow_dialects::panics::install_hook("glow-import");
    glow_dialects::process_memory::prepare_tool_process();
    let arguments = Arguments::parse();
    match run(arguments) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away early (`glow-import ... | head`) is not an error,
        // as for Unix tools.
        Err(error)
            if error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("glow-import: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
