// SPDX-License-Identifier: Apache-2.0
#ifndef SIMDBRIDGE_STACK_H
#define SIMDBRIDGE_STACK_H

#include <cstdint>

namespace simdbridge {

/**
 * The lowest stack address a recursive reader of this library lets itself reach on the calling
 * thread: the end of the thread's stack plus a margin (a quarter of the stack, at most 256 KB)
 * for what runs after it stops, and for the guard pages a JVM or a sanitizer keeps there. Found
 * once per thread; 0 where the platform does not tell (no check then).
 *
 * The readers that build nested results by recursion (Arrow schema inference, Python's objects)
 * compare their frame with it once per level, so that a document nested deeper than the thread's
 * stack holds, possible only under a max_depth raised far past the default, is an error and not
 * a stack overflow.
 */
uintptr_t stack_floor() noexcept;

/** Whether the caller's frame is above `floor` (stack_floor()). Stacks grow down on every
 *  platform this library builds for. */
inline bool stack_has_room(uintptr_t floor) noexcept {
  return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) > floor;
}

} // namespace simdbridge

#endif // SIMDBRIDGE_STACK_H
