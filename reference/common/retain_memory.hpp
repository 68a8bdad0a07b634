// The pipelines allocate and free intermediates of tens to hundreds of megabytes (at 1024^3) stage
// after stage and run after run. By default glibc serves each from fresh mmap'd pages - one page
// fault per 4 KiB on first touch, about as long as the stage's arithmetic - and unmaps them on
// free. retain_freed_memory() makes it serve them from the heap and keep freed memory mapped, so
// that a later intermediate reuses pages an earlier one touched (docs/schemes.md measures it).
// The executables call it first thing; the library never changes process-wide state itself.
#pragma once

namespace ozref {

// True when the allocator accepted the settings (glibc); false elsewhere, where nothing changes.
bool retain_freed_memory();

}  // namespace ozref
