// Test-run helpers shared by the chapters' tests.
#pragma once

#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace course {

// True when the tests run under compute-sanitizer (the learner's run, the suites' sanitizer
// tests, the Meson test setups memcheck, racecheck, ...: all set COURSE_UNDER_SANITIZER=1). A
// step's sanitizer cases are its tests, so instrumented kernels, 10-100x slower, must stay
// quick: tests then leave out their large sizes, and parameterized suites register a few small
// cases instead of all of them.
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

}  // namespace course

// Skips a test of a step that this GPU cannot run (`why`: what the step needs, and what this GPU
// is). ./course test gives such a step a state of its own, not a failure: it looks for this
// prefix (NEEDS_ANOTHER_GPU in common/scripts/judge.py).
#define COURSE_SKIP_ON_THIS_GPU(why) GTEST_SKIP() << "this GPU cannot run this step: " << (why)

// Skips a test of a step that cannot run here (`why_not`: what it needs; "" when it runs): as
// one that needs another GPU, or, when only this build cannot run it on this GPU
// (`needs_a_rebuild`: a build for an older architecture), as not passed, so that ./course test
// fails the step and says what to rebuild.
#define COURSE_SKIP_UNLESS_STEP_RUNS(why_not, needs_a_rebuild)                        \
  do {                                                                               \
    const std::string course_why_not_ = (why_not);                                   \
    if (course_why_not_.empty()) break;                                              \
    if (needs_a_rebuild) GTEST_SKIP() << "skipped, not passed: " << course_why_not_; \
    COURSE_SKIP_ON_THIS_GPU(course_why_not_);                                        \
  } while (0)

// The Solution/ and Exercise/ instances of a test suite whose parameter is the implementation
// (an enum with members solution and exercise), each named after step STEP ("step3"): how
// ./course test NN.S finds a step's tests (common/scripts/manifest.py). A suite whose cases
// differ in more than the implementation names them stepS_... itself.
#define COURSE_STEP_TESTS(suite, implementation_type, step)                                  \
  INSTANTIATE_TEST_SUITE_P(Solution, suite, ::testing::Values(implementation_type::solution), \
                           [](const auto&) { return std::string("step" #step); });            \
  INSTANTIATE_TEST_SUITE_P(Exercise, suite, ::testing::Values(implementation_type::exercise), \
                           [](const auto&) { return std::string("step" #step); })
