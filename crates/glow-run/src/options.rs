//! Command-line options glow-run and glow-compile share: quantization from a profile
//! (Glow's `-load-profile`, `-quantization-schema`, ...) and the int8 kernels.

use anyhow::{bail, Context as _, Result};
use glow_passes::{pipelines::Quantization, Int8Kernels};
use std::path::PathBuf;

/// Quantization from a profile.
#[derive(clap::Args, Clone, Debug)]
pub struct QuantizationOptions {
    /// Quantize the model to int8 from this profile (glow-run --dump-profile).
    #[arg(long, value_name = "PROFILE.yaml")]
    pub load_profile: Option<PathBuf>,
    /// asymmetric, symmetric, symmetric_uint8 or symmetric_pow2.
    #[arg(long, default_value = "asymmetric", value_name = "SCHEMA")]
    pub quantization_schema: String,
    /// How ranges are chosen from histograms: minmax, kl or percentile.
    #[arg(long, default_value = "minmax", value_name = "CALIBRATION")]
    pub quantization_calibration: String,
    /// Integer precision (int8).
    #[arg(long, default_value = "int8", value_name = "PRECISION")]
    pub quantization_precision: String,
    /// Op kinds to keep in float (e.g. add,sigmoid), Glow's
    /// -keep-original-precision-for-nodes.
    #[arg(long, value_delimiter = ',', value_name = "KIND,...")]
    pub keep_float: Vec<String>,
    /// One weight scale per tensor instead of one per output channel.
    #[arg(long)]
    pub no_channelwise: bool,
    /// How int8 layers are compiled: host (AMX / VNNI micro-kernels as the CPU has
    /// them), amx, avx512-vnni, generic (plain vectors), reference (no micro-kernels)
    /// or amx-emulated (the AMX kernels in vector code, for checking them).
    #[arg(long, default_value = "host", value_name = "KIND")]
    pub int8_kernels: String,
}

impl QuantizationOptions {
    /// The quantization the options ask for, if any; values checked here so a wrong
    /// one is a one-line error naming the flag.
    pub fn quantization(&self) -> Result<Option<Quantization>> {
        use glow_passes::quantization::calibration::{Calibration, Schema};
        let Some(profile) = self.load_profile.as_ref() else {
            return Ok(None);
        };
        if Schema::parse(&self.quantization_schema).is_none() {
            bail!(
                "--quantization-schema is '{}'; expected asymmetric, symmetric, symmetric_uint8 or symmetric_pow2",
                self.quantization_schema
            );
        }
        if Calibration::parse(&self.quantization_calibration).is_none() {
            bail!(
                "--quantization-calibration is '{}'; expected minmax, kl or percentile",
                self.quantization_calibration
            );
        }
        if self.quantization_precision != "int8" {
            bail!(
                "--quantization-precision is '{}'; only int8 has integer kernels",
                self.quantization_precision
            );
        }
        for kind in &self.keep_float {
            if !glow_passes::quantization::values::QUANTIZED_OPS.contains(&kind.as_str()) {
                bail!(
                    "--keep-float names '{kind}', which has no integer form; kinds: {}",
                    glow_passes::quantization::values::QUANTIZED_OPS.join(", ")
                );
            }
        }
        Ok(Some(Quantization {
            profile: profile.display().to_string(),
            schema: self.quantization_schema.clone(),
            calibration: self.quantization_calibration.clone(),
            precision: self.quantization_precision.clone(),
            channelwise: !self.no_channelwise,
            keep: self.keep_float.clone(),
            report: false,
        }))
    }

    /// The int8 kernels; `runs_here` when the code runs on this CPU (the JIT, or a
    /// bundle for the host), which must then have what the kernels use.
    pub fn int8_kernels(&self, runs_here: bool) -> Result<Int8Kernels> {
        let kernels = Int8Kernels::parse(&self.int8_kernels).with_context(|| {
            format!(
                "--int8-kernels is '{}'; expected host, amx, avx512-vnni, generic, reference or amx-emulated",
                self.int8_kernels
            )
        })?;
        if runs_here
            && kernels == Int8Kernels::Avx512Vnni
            && !glow_passes::quant_kernels::host_has_vnni()
        {
            bail!("--int8-kernels avx512-vnni: this CPU has no AVX-512 VNNI, so it cannot run that code");
        }
        if runs_here && kernels == Int8Kernels::Amx && !glow_passes::quant_kernels::host_has_amx() {
            bail!("--int8-kernels amx: this CPU has no AMX-INT8 (or Linux does not grant this process the AMX tile state), so it cannot run that code");
        }
        Ok(kernels)
    }
}
