// Test-run helpers shared by the chapters' tests.
#pragma once

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace course {

// True when the tests run under compute-sanitizer through one of the Meson test setups
// (memcheck, racecheck, ...), which set COURSE_UNDER_SANITIZER=1. Instrumented kernels run
// 10-100x slower, so tests then leave out their one large size; every other size still runs.
inline bool under_sanitizer() {
  const char* value = std::getenv("COURSE_UNDER_SANITIZER");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

// For bad-input tests: the message of the std::invalid_argument that `call()` throws, or ""
// when it throws nothing or something else (so a test can assert on both at once).
template <typename Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& error) {
    return error.what();
  } catch (...) {
  }
  return "";
}

}  // namespace course
