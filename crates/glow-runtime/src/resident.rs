//! The process's peak resident memory, read from Linux's `/proc/self/status` (VmHWM,
//! the high-water mark of the resident set), recorded after each compile stage so a
//! memory report can say which stage set the peak.

/// The peak resident set so far, in bytes (`None` where `/proc` does not say).
pub fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kilobytes * 1024)
}

/// Peak resident memory after each stage, in order.
#[derive(Clone, Debug, Default)]
pub struct Stages(pub Vec<(String, u64)>);

impl Stages {
    /// Records the peak so far as the end of `stage`.
    pub fn record(&mut self, stage: &str) {
        if let Some(bytes) = peak_bytes() {
            self.0.push((stage.to_string(), bytes));
        }
    }

    /// `peak resident memory: after import 120.5 MB, after ...` (empty without data).
    pub fn report(&self) -> String {
        if self.0.is_empty() {
            return String::new();
        }
        let stages: Vec<String> = self
            .0
            .iter()
            .map(|(stage, bytes)| format!("after {stage} {:.1} MB", *bytes as f64 / 1e6))
            .collect();
        format!("peak resident memory: {}", stages.join(", "))
    }
}
