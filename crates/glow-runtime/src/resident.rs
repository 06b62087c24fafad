//! The process's peak resident memory, read from Linux's `/proc/self/status` (VmHWM,
//! the high-water mark of the resident set), recorded after each compile stage so a
//! memory report can say which stage set the peak (and the time each stage took, for
//! a compile report).

use std::time::Instant;

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

/// Peak resident memory and the time at the end of each stage, in order.
#[derive(Clone, Debug)]
pub struct Stages {
    started: Instant,
    ends: Vec<(String, Option<u64>, Instant)>,
}

impl Default for Stages {
    fn default() -> Self {
        Self::starting(Instant::now())
    }
}

impl Stages {
    /// Stages timed from `started` (when the compilation began).
    pub fn starting(started: Instant) -> Self {
        Self {
            started,
            ends: Vec::new(),
        }
    }

    /// Records the peak so far and the time as the end of `stage`.
    pub fn record(&mut self, stage: &str) {
        self.ends
            .push((stage.to_string(), peak_bytes(), Instant::now()));
    }

    /// `peak resident memory: after import 120.5 MB, after ...` (empty without data).
    pub fn report(&self) -> String {
        let stages: Vec<String> = self
            .ends
            .iter()
            .filter_map(|(stage, bytes, _)| {
                bytes.map(|b| format!("after {stage} {:.1} MB", b as f64 / 1e6))
            })
            .collect();
        if stages.is_empty() {
            return String::new();
        }
        format!("peak resident memory: {}", stages.join(", "))
    }

    /// `compile time: import 0.41 s, the graph stages 0.88 s, ...`: each stage's
    /// share of the time since the start (empty before the first stage ends).
    pub fn timing_report(&self) -> String {
        let mut previous = self.started;
        let stages: Vec<String> = self
            .ends
            .iter()
            .map(|(stage, _, end)| {
                let seconds = end.duration_since(previous).as_secs_f64();
                previous = *end;
                format!("{stage} {seconds:.2} s")
            })
            .collect();
        if stages.is_empty() {
            return String::new();
        }
        let total = previous.duration_since(self.started).as_secs_f64();
        format!("compile time: {} (total {total:.2} s)", stages.join(", "))
    }
}
