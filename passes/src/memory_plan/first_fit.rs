//! Static placement of buffers with known lifetimes in one arena (Glow's activation
//! memory planning): buffers are placed in order of their first use, each at the
//! lowest aligned offset where it overlaps no buffer alive at the same time, so
//! buffers whose lifetimes do not intersect share memory.

/// A buffer to place: its size in bytes and the interval of op positions (inclusive)
/// during which it is alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// Size in bytes.
    pub size: u64,
    /// Position of the first op using the buffer (its allocation).
    pub start: usize,
    /// Position of the last op using it.
    pub end: usize,
}

/// `value` rounded up to a multiple of `alignment` (a power of two).
pub fn align_up(value: u64, alignment: u64) -> u64 {
    value.div_ceil(alignment) * alignment
}

/// The offset of each buffer (aligned to `alignment`) and the arena size.
pub fn place(buffers: &[Interval], alignment: u64) -> (Vec<u64>, u64) {
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    order.sort_by_key(|&i| (buffers[i].start, std::cmp::Reverse(buffers[i].size)));
    let mut offsets = vec![0u64; buffers.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut arena = 0u64;
    for i in order {
        let buffer = buffers[i];
        // Memory taken by buffers alive at the same time, by offset.
        let mut taken: Vec<(u64, u64)> = placed
            .iter()
            .filter(|&&j| buffers[j].start <= buffer.end && buffer.start <= buffers[j].end)
            .map(|&j| (offsets[j], offsets[j] + buffers[j].size))
            .collect();
        taken.sort_unstable();
        let mut offset = 0u64;
        for (begin, end) in taken {
            if offset + buffer.size <= begin {
                break;
            }
            offset = offset.max(align_up(end, alignment));
        }
        offsets[i] = offset;
        arena = arena.max(offset + buffer.size);
        placed.push(i);
    }
    (offsets, align_up(arena, alignment))
}
