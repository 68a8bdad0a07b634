#include "common/retain_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ozref {

bool retain_freed_memory() {
#if defined(__GLIBC__)
  // No mmap'd chunks (every allocation from the heap), and no trimming of the heap's top below 1 GiB.
  return mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
#else
  return false;
#endif
}

}  // namespace ozref
