//! Static placement of buffers with known lifetimes in one arena (Glow's activation
//! memory planning): buffers are placed one by one, each at the lowest aligned offset
//! where it overlaps no buffer alive at the same time already placed, so buffers whose
//! lifetimes do not intersect share memory. The order matters; [`plan`] tries Glow's
//! (program order, as first-fit allocation at run time would) and two others
//! (largest buffers first, longest lifetimes first) and keeps the smallest arena. No
//! placement can beat [`lower_bound`], the most bytes alive at one time.

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

/// The offset of each buffer (aligned to `alignment`) and the arena size, placing
/// buffers in program order (Glow's first fit).
pub fn place(buffers: &[Interval], alignment: u64) -> (Vec<u64>, u64) {
    place_in_order(buffers, alignment, Strategy::ProgramOrder)
}

/// The order in which buffers are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// By first use, larger first on ties (Glow's first fit).
    ProgramOrder,
    /// Largest first (best fit by size: the buffers that set the peak go in first).
    LargestFirst,
    /// Longest lifetime first, then largest.
    LongestFirst,
    /// Largest size x lifetime first (the buffers that block the most).
    LargestAreaFirst,
    /// Largest first, each into the smallest gap it fits (best fit) rather than the
    /// lowest.
    BestFit,
}

impl Strategy {
    /// Every strategy, in the order [`plan`] tries them.
    pub const ALL: [Strategy; 5] = [
        Strategy::ProgramOrder,
        Strategy::LargestFirst,
        Strategy::LongestFirst,
        Strategy::LargestAreaFirst,
        Strategy::BestFit,
    ];

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::ProgramOrder => "first fit in program order",
            Strategy::LargestFirst => "largest first",
            Strategy::LongestFirst => "longest lifetime first",
            Strategy::LargestAreaFirst => "largest size x lifetime first",
            Strategy::BestFit => "best fit, largest first",
        }
    }
}

/// Orders the local search tries after the strategies, at most.
pub const SEARCH_STEPS: usize = 400;

/// The best of [`Strategy::ALL`], then, while it is above the [`lower_bound`], a local
/// search from its order (swapping nearby buffers, keeping any swap that does not grow
/// the arena; deterministic): offsets, arena size and how the placement was found.
pub fn plan(buffers: &[Interval], alignment: u64) -> (Vec<u64>, u64, String) {
    let (mut offsets, mut size, strategy) = Strategy::ALL
        .iter()
        .map(|&strategy| {
            let (offsets, size) = place_in_order(buffers, alignment, strategy);
            (offsets, size, strategy)
        })
        .min_by_key(|(_, size, _)| *size)
        .expect("at least one strategy");
    let (bound, _) = lower_bound(buffers, alignment);
    let mut name = strategy.name().to_string();
    if size <= bound || buffers.len() < 2 {
        return (offsets, size, name);
    }
    let best_fit = strategy == Strategy::BestFit;
    let mut order = strategy_order(buffers, strategy);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move |below: usize| {
        // xorshift64: a fixed sequence, so plans are reproducible.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let mut improved = false;
    for _ in 0..SEARCH_STEPS {
        let i = random(order.len() - 1);
        let j = (i + 1 + random(8)).min(order.len() - 1);
        order.swap(i, j);
        let (candidate, candidate_size) = place_order(buffers, alignment, &order, best_fit);
        if candidate_size <= size {
            improved |= candidate_size < size;
            (offsets, size) = (candidate, candidate_size);
            if size <= bound {
                break;
            }
        } else {
            order.swap(i, j);
        }
    }
    if improved {
        name.push_str(", refined by local search");
    }
    (offsets, size, name)
}

/// The most bytes (each buffer rounded up to `alignment`) alive at one position, and
/// that position: no placement needs less.
pub fn lower_bound(buffers: &[Interval], alignment: u64) -> (u64, usize) {
    let mut events: Vec<(usize, i64)> = Vec::with_capacity(2 * buffers.len());
    for buffer in buffers {
        let size = align_up(buffer.size, alignment) as i64;
        events.push((buffer.start, size));
        events.push((buffer.end + 1, -size));
    }
    // Frees before allocations at the same position (an interval ends inclusively).
    events.sort_by_key(|&(position, delta)| (position, delta));
    let (mut live, mut peak, mut at) = (0i64, 0i64, 0usize);
    for (position, delta) in events {
        live += delta;
        if live > peak {
            (peak, at) = (live, position);
        }
    }
    (peak as u64, at)
}

/// Placement in the order `strategy` gives.
pub fn place_in_order(buffers: &[Interval], alignment: u64, strategy: Strategy) -> (Vec<u64>, u64) {
    let order = strategy_order(buffers, strategy);
    place_order(buffers, alignment, &order, strategy == Strategy::BestFit)
}

/// The order in which `strategy` places `buffers`.
fn strategy_order(buffers: &[Interval], strategy: Strategy) -> Vec<usize> {
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    match strategy {
        Strategy::ProgramOrder => {
            order.sort_by_key(|&i| (buffers[i].start, std::cmp::Reverse(buffers[i].size)))
        }
        Strategy::LargestFirst | Strategy::BestFit => {
            order.sort_by_key(|&i| (std::cmp::Reverse(buffers[i].size), buffers[i].start))
        }
        Strategy::LargestAreaFirst => order.sort_by_key(|&i| {
            let lifetime = (buffers[i].end - buffers[i].start + 1) as u64;
            (
                std::cmp::Reverse(buffers[i].size.saturating_mul(lifetime)),
                buffers[i].start,
            )
        }),
        Strategy::LongestFirst => order.sort_by_key(|&i| {
            (
                std::cmp::Reverse(buffers[i].end - buffers[i].start),
                std::cmp::Reverse(buffers[i].size),
                buffers[i].start,
            )
        }),
    }
    order
}

/// Placement of `buffers` one by one in `order`, each at the lowest offset where it
/// fits, or with `best_fit` in the smallest gap that holds it.
fn place_order(
    buffers: &[Interval],
    alignment: u64,
    order: &[usize],
    best_fit: bool,
) -> (Vec<u64>, u64) {
    let mut offsets = vec![0u64; buffers.len()];
    let mut placed: Vec<usize> = Vec::new();
    let mut arena = 0u64;
    for &i in order {
        let buffer = buffers[i];
        // Memory taken by buffers alive at the same time, by offset.
        let mut taken: Vec<(u64, u64)> = placed
            .iter()
            .filter(|&&j| buffers[j].start <= buffer.end && buffer.start <= buffers[j].end)
            .map(|&j| (offsets[j], offsets[j] + buffers[j].size))
            .collect();
        taken.sort_unstable();
        let offset = if best_fit {
            best_gap(&taken, buffer.size, alignment)
        } else {
            lowest_gap(&taken, buffer.size, alignment)
        };
        offsets[i] = offset;
        arena = arena.max(offset + buffer.size);
        placed.push(i);
    }
    (offsets, align_up(arena, alignment))
}

/// The lowest aligned offset where `size` bytes overlap none of `taken` (sorted).
fn lowest_gap(taken: &[(u64, u64)], size: u64, alignment: u64) -> u64 {
    let mut offset = 0u64;
    for &(begin, end) in taken {
        if offset + size <= begin {
            break;
        }
        offset = offset.max(align_up(end, alignment));
    }
    offset
}

/// The aligned offset of the smallest gap between `taken` (sorted) that holds `size`
/// bytes; past the last one if none does.
fn best_gap(taken: &[(u64, u64)], size: u64, alignment: u64) -> u64 {
    let mut best: Option<(u64, u64)> = None;
    let mut offset = 0u64;
    for &(begin, end) in taken {
        if offset + size <= begin {
            let gap = begin - offset;
            if best.is_none_or(|(smallest, _)| gap < smallest) {
                best = Some((gap, offset));
            }
        }
        offset = offset.max(align_up(end, alignment));
    }
    best.map_or(offset, |(_, at)| at)
}
