// Test-run helpers shared by the chapters' tests.
#pragma once

#include <cstdlib>
#include <cstring>

namespace course {

// True when the tests run under compute-sanitizer through one of the Meson test setups
// (memcheck, racecheck, ...), which set COURSE_UNDER_SANITIZER=1. Instrumented kernels run
// 10-100x slower, so tests then leave out their one large size; every other size still runs.
inline bool under_sanitizer() {
  const char* value = std::getenv("COURSE_UNDER_SANITIZER");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace course
