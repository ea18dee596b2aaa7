// SPDX-License-Identifier: Apache-2.0
#include "simdbridge/stack.h"

#include <algorithm>
#include <cstddef>

#if defined(__linux__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace simdbridge {

namespace {

uintptr_t find_floor() noexcept {
  uintptr_t low = 0;
  size_t size = 0;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) { return 0; }
  void *address = nullptr;
  if (pthread_attr_getstack(&attr, &address, &size) == 0) { low = reinterpret_cast<uintptr_t>(address); }
  pthread_attr_destroy(&attr);
#elif defined(__APPLE__)
  size = pthread_get_stacksize_np(pthread_self());
  low = reinterpret_cast<uintptr_t>(pthread_get_stackaddr_np(pthread_self())) - size; // the address given is the top
#endif
  if (low == 0 || size == 0) { return 0; }
  return low + std::min<size_t>(size / 4, size_t(256) << 10);
}

} // namespace

uintptr_t stack_floor() noexcept {
  static thread_local const uintptr_t floor = find_floor();
  return floor;
}

} // namespace simdbridge
