//! Option values of a running pass. MLIR parses and type-checks them (they are real
//! `Pass::Option`s); the pass reads them here as text.

use glow_dialects::ffi::GlowPassOptionValue;
use std::slice;

/// The values of a pass's declared options, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions {
    values: Vec<(String, Vec<String>)>,
}

impl PassOptions {
    /// Options from `(name, values)` pairs (tests and direct callers).
    pub fn new(values: impl IntoIterator<Item = (String, Vec<String>)>) -> Self {
        Self {
            values: values.into_iter().collect(),
        }
    }

    /// Copies option values handed over by the C++ shim.
    ///
    /// # Safety
    /// `values` must point to `count` valid entries whose strings are valid UTF-8 or
    /// at least readable bytes for the duration of the call.
    pub(crate) unsafe fn from_raw(values: *const GlowPassOptionValue, count: isize) -> Self {
        let text = |s: mlir_sys::MlirStringRef| {
            if s.length == 0 {
                return String::new();
            }
            // SAFETY: the shim hands valid (pointer, length) pairs.
            let bytes = unsafe { slice::from_raw_parts(s.data.cast::<u8>(), s.length) };
            String::from_utf8_lossy(bytes).into_owned()
        };
        if count <= 0 || values.is_null() {
            return Self::default();
        }
        // SAFETY: the caller guarantees `count` entries.
        let entries = unsafe { slice::from_raw_parts(values, count as usize) };
        Self::new(entries.iter().map(|entry| {
            let list = if entry.num_values <= 0 || entry.values.is_null() {
                Vec::new()
            } else {
                // SAFETY: each entry holds `num_values` string refs.
                unsafe { slice::from_raw_parts(entry.values, entry.num_values as usize) }
                    .iter()
                    .map(|value| text(*value))
                    .collect()
            };
            (text(entry.name), list)
        }))
    }

    /// All values of a list option (empty when unset).
    pub fn list(&self, name: &str) -> &[String] {
        self.values
            .iter()
            .find(|(option, _)| option == name)
            .map(|(_, values)| values.as_slice())
            .unwrap_or(&[])
    }

    /// The value of a scalar option, if it has one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.list(name).first().map(String::as_str)
    }

    /// A boolean option (`false` when unset).
    pub fn flag(&self, name: &str) -> bool {
        self.value(name) == Some("true")
    }
}
