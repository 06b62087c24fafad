//! How the glow tools keep their resident memory near one copy of the model's
//! weights: the executable's start-up pages go back, and large blocks go back to the
//! system when freed.
//!
//! Every glow tool links LLVM and MLIR statically (a 200+ MB executable). Before
//! `main`, their static constructors (command-line options, registries) run code and
//! read constants spread over the whole image, and the kernel maps 64 KB around each
//! first touch ("fault-around"): about 50 MB of the executable is resident before the
//! tool has done anything, counted in its resident set for the whole run. Those pages
//! are clean, read-only views of the file, so unmapping them loses nothing: whatever
//! runs later faults in what it really uses, one page at a time, from the page cache.

/// Sets up a tool's process: [`release_startup_pages`] and [`map_large_blocks`].
/// For executables only (a library must not change its host's allocator).
pub fn prepare_tool_process() {
    release_startup_pages();
    map_large_blocks();
}

/// Serves every allocation of 256 KB or more with its own mapping, returned to the
/// system when freed. glibc's default raises that threshold to the size of the
/// largest block freed so far, after which weight-sized blocks come from the heap and
/// stay resident after `free` (a pass replacing 50 filters one by one left 43 MB of
/// such holes on ResNet-50).
pub fn map_large_blocks() {
    // SAFETY: mallopt only tunes glibc's allocator; any value is valid.
    unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10) };
}

/// Unmaps the resident pages of the executable's read-only, never-written mappings
/// (code and constants; not the relocated or written data) and turns fault-around off
/// for them. Does nothing where `/proc` cannot be read.
pub fn release_startup_pages() {
    let (Ok(executable), Ok(maps)) = (
        std::fs::read_link("/proc/self/exe"),
        std::fs::read_to_string("/proc/self/smaps"),
    ) else {
        return;
    };
    let executable = executable.to_string_lossy().into_owned();
    let mut candidate: Option<(usize, usize)> = None;
    let release = |range: Option<(usize, usize)>| {
        if let Some((start, end)) = range {
            // SAFETY: the range is a whole mapping of the executable file that is
            // private, not writable and has no anonymous (copied-on-write) page: every
            // page equals the file's bytes, which the next access maps again.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_RANDOM);
            }
        }
    };
    for line in maps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let is_header = fields
            .first()
            .is_some_and(|f| f.contains('-') && !f.ends_with(':'));
        if is_header {
            candidate = None;
            let (Some(range), Some(permissions)) = (fields.first(), fields.get(1)) else {
                continue;
            };
            let path = fields.get(5).copied().unwrap_or("");
            let read_only_private = permissions.starts_with('r')
                && permissions.as_bytes().get(1) == Some(&b'-')
                && permissions.ends_with('p');
            if path != executable || !read_only_private {
                continue;
            }
            if let Some((start, end)) = range.split_once('-') {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    candidate = Some((start, end));
                }
            }
        } else if fields.first() == Some(&"Anonymous:") {
            // Written pages (relocated constants) are anonymous copies: keep those.
            if fields.get(1) == Some(&"0") {
                release(candidate.take());
            }
            candidate = None;
        }
    }
}
