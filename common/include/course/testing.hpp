// Test-run helpers shared by the chapters' tests.
#pragma once

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>
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

// The element type's name for failure messages: "int", "float", "double".
template <typename T>
const char* type_name();
template <> inline const char* type_name<int>() { return "int"; }
template <> inline const char* type_name<float>() { return "float"; }
template <> inline const char* type_name<double>() { return "double"; }

// A value with every digit its type holds, so two results that print alike are alike.
template <typename T>
std::string exact_text(T value) {
  std::ostringstream out;
  out.precision(std::numeric_limits<T>::max_digits10);
  out << value;
  return out.str();
}

// For the known mistakes that the plain checks must catch: `rejection` is the first failure
// message of those checks, "" if none failed. Prints what a learner with that bug would see (the
// READMEs quote it) and returns true when they rejected it; a test then reads
//   EXPECT_TRUE(course::shows_the_rejection(rejection)) << name << " passed every check: ...";
inline bool shows_the_rejection(const std::string& rejection) {
  if (rejection.empty()) return false;
  std::cout << "Rejected as expected. What the learner sees:\n" << rejection << "\n";
  return true;
}

// For the known mistakes that only a sanitizer must catch (the Meson test "compute-sanitizer
// catches the known mistakes" runs them under it): says whether the plain tests' numbers showed the
// bug on this GPU too. `rejection` is the first failure message of the plain checks, or "" if none
// failed.
inline void report_what_the_numbers_showed(const std::string& mistake,
                                           const std::string& rejection, const char* tool) {
  if (rejection.empty()) {
    std::cout << "The numbers came out right on this GPU: only " << tool << " sees " << mistake
              << ".\n";
  } else {
    std::cout << "The tests caught " << mistake << " on this GPU too:\n" << rejection << "\n";
  }
}

}  // namespace course
