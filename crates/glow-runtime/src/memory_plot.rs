//! `--memory-plot FILE.png`: the activation arena as a picture — time (the instruction
//! stream, left to right) against arena offset (bottom to top), one filled rectangle per
//! buffer over its lifetime, a horizontal grey line every megabyte, and a red line at
//! the liveness lower bound (no placement can use less arena than that). Written with
//! the `png` crate; the file appears only once complete.

use crate::planned::MemoryPlan;
use anyhow::{Context as _, Result};
use std::path::Path;

const WIDTH: usize = 1200;
const HEIGHT: usize = 600;
const MARGIN: usize = 10;

/// A colour per buffer, spread around the hue circle, pale enough to see edges.
fn colour(index: usize) -> [u8; 3] {
    let hue = (index as f64 * 0.618_033_988_75).fract() * 6.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let pale = |c: f64| (80.0 + c * 150.0) as u8;
    [pale(r), pale(g), pale(b)]
}

/// The RGB pixels of the plot of `plan`.
fn render(plan: &MemoryPlan) -> Vec<u8> {
    let mut pixels = vec![255u8; WIDTH * HEIGHT * 3];
    // Time runs from the first allocation (weights and constants come before it).
    let first = plan.intervals.iter().map(|i| i[0]).min().unwrap_or(0) as f64;
    let last = (plan.intervals.iter().map(|i| i[1]).max().unwrap_or(0) as f64 - first).max(1.0);
    let arena = plan.activations_size.max(1) as f64;
    let (inner_width, inner_height) = ((WIDTH - 2 * MARGIN) as f64, (HEIGHT - 2 * MARGIN) as f64);
    let x = |position: f64| MARGIN + ((position - first) / (last + 1.0) * inner_width) as usize;
    // Offsets grow upwards.
    let y =
        |offset: f64| HEIGHT - MARGIN - (offset / arena * inner_height).min(inner_height) as usize;
    let mut fill = |x0: usize, x1: usize, y0: usize, y1: usize, rgb: [u8; 3]| {
        for row in y0.min(HEIGHT - 1)..y1.min(HEIGHT) {
            for column in x0.min(WIDTH - 1)..x1.clamp(x0 + 1, WIDTH) {
                let at = (row * WIDTH + column) * 3;
                pixels[at..at + 3].copy_from_slice(&rgb);
            }
        }
    };
    let mut megabyte = 1e6;
    while megabyte < arena {
        let row = y(megabyte);
        fill(MARGIN, WIDTH - MARGIN, row, row + 1, [220, 220, 220]);
        megabyte += 1e6;
    }
    for (index, [start, end, offset, size]) in plan.intervals.iter().enumerate() {
        let (left, right) = (x(*start as f64), x(*end as f64 + 1.0));
        let (top, bottom) = (y((*offset + *size) as f64), y(*offset as f64));
        fill(left, right, top, bottom.max(top + 1), colour(index));
    }
    let bound = y(plan.lower_bound as f64);
    fill(MARGIN, WIDTH - MARGIN, bound, bound + 1, [200, 0, 0]);
    pixels
}

/// Writes the plot of `plan` to `path` (a temporary file renamed into place; a device
/// or FIFO is written in place, see glow_dialects::output_path).
pub fn write(plan: &MemoryPlan, path: &Path) -> Result<()> {
    let pixels = render(plan);
    let in_place = !glow_dialects::output_path::renames_into_place(path);
    let temporary = if in_place {
        path.to_path_buf()
    } else {
        path.with_extension("png.partial")
    };
    let written = (|| -> Result<()> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(!in_place)
            .truncate(!in_place)
            .open(&temporary)?;
        let mut encoder =
            png::Encoder::new(std::io::BufWriter::new(file), WIDTH as u32, HEIGHT as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
        writer.finish()?;
        if !in_place {
            std::fs::rename(&temporary, path)?;
        }
        Ok(())
    })();
    if written.is_err() && !in_place {
        let _ = std::fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write '{}'", path.display()))
}
