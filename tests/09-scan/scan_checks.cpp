#include "scan_checks.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <utility>

#include "course/compare.hpp"
#include "course/guarded_buffer.hpp"
#include "course/random.hpp"
#include "course/rounding.hpp"
#include "course/testing.hpp"

namespace scan::testing {

template <>
const std::vector<int>& test_input<int>(std::size_t n, std::uint64_t seed) {
  static std::map<std::pair<std::size_t, std::uint64_t>, std::vector<int>> cache;
  auto& slot = cache[{n, seed}];
  if (slot.size() != n) slot = course::random_ints(n, -(1 << 30), 1 << 30, n * 7919 + seed + 1);
  return slot;
}

template <>
const std::vector<float>& test_input<float>(std::size_t n, std::uint64_t seed) {
  static std::map<std::pair<std::size_t, std::uint64_t>, std::vector<float>> cache;
  auto& slot = cache[{n, seed}];
  if (slot.size() != n) slot = course::random_floats(n, -1.0f, 1.0f, n * 7919 + seed + 1);
  return slot;
}

void run_and_wait(const StepUnderTest& step, const std::function<void()>& run) {
  cudaError_t status = cudaSuccess;
  try {
    run();
    status = cudaDeviceSynchronize();
  } catch (const course::CudaError& error) {
    status = error.code();
  }
  const std::string report = watchdog_report();
  if (!report.empty()) {
    std::ostringstream message;
    message << step.name << ": the kernel did not finish within " << kWatchdogSeconds
            << " s (" << report << ").\n"
            << "  A tile waited for a status word that no running block was going to write. "
               "Usual causes: tile numbers that do not follow the order in which blocks start "
               "(a block waits for a tile whose block cannot start until the waiting blocks "
               "finish), a status word never published, or published with a flag the look-back "
               "does not stop at, or a look-back that reads the wrong tile.\n  Edit: "
            << step.source_file
            << "\n  The GPU stopped the kernel, which ends this test program: the other tests "
               "did not run.\n";
    std::cerr << message.str() << std::flush;
    std::cout << message.str() << std::flush;
    std::_Exit(kWatchdogExit);
  }
  COURSE_CHECK(status);
}

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  COURSE_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

namespace {

std::string where(const StepUnderTest& step, const char* type, std::size_t n) {
  return step.name + "<" + type + ">, n = " + std::to_string(n);
}

// The ints' diagnoses that have a telling shape.
std::string diagnose_ints(const std::vector<int>& input, const std::vector<int>& expected,
                          const std::vector<int>& got, std::size_t n) {
  const int poison = course::poison_value<int>();
  std::size_t unwritten = 0;
  for (std::size_t i = 0; i < n; ++i) unwritten += got[i] == poison && expected[i] != poison;
  if (n > 0 && unwritten == n) {
    return "no element was written (is a TODO still open? In step 4: were the tile numbers "
           "past the grid, from a counter that was not reset?)";
  }
  bool exclusive = n > 1, input_copy = n > 1;
  for (std::size_t i = 0; i < n && (exclusive || input_copy); ++i) {
    const std::uint32_t before = static_cast<std::uint32_t>(expected[i]) -
                                 static_cast<std::uint32_t>(input[i]);
    exclusive = exclusive && static_cast<std::uint32_t>(got[i]) == before;
    input_copy = input_copy && got[i] == input[i];
  }
  if (exclusive) {
    return "every element holds the sum of the elements BEFORE it: an exclusive scan, where "
           "the inclusive one (up to and including the element) is asked for";
  }
  if (input_copy) return "the output is the input: nothing was added (is a TODO still open?)";
  // The first wrong element: where in its tile, and what it is off by.
  std::size_t first = 0;
  while (first < n && got[first] == expected[first]) ++first;
  if (first < n) {
    const std::uint32_t off =
        static_cast<std::uint32_t>(got[first]) - static_cast<std::uint32_t>(expected[first]);
    for (std::size_t back = 1; back <= 4 && back <= first; ++back) {
      if (off == static_cast<std::uint32_t>(expected[first - back])) {
        return "the first wrong element is off by the inclusive prefix of element " +
               std::to_string(first - back) + ": a tile's prefix counted twice, or an inclusive "
               "prefix used where the exclusive one (everything before the tile) belongs?";
      }
    }
    if (first % kTileItems == 0 || first % kStep1Threads == 0) {
      return "the first wrong element, " + std::to_string(first) + ", starts a tile: the sum of "
             "the tiles before it is wrong or missing";
    }
  }
  return "";
}

std::string margins_text(const course::GuardedBuffer<int>& in) {
  return in.check_margins().text("the input");
}

}  // namespace

template <>
::testing::AssertionResult matches_cpu<int>(const StepUnderTest& step, ScanFn<int> scan,
                                            std::size_t n, Workspace& workspace,
                                            std::uint64_t seed) {
  const std::vector<int>& input = test_input<int>(n, seed);
  const course::GuardedBuffer<int> device_input(input);
  course::GuardedBuffer<int> output(n);
  output.fill_bytes(course::kPoisonByte);
  workspace.poison_before_each_run(true);
  run_and_wait(step, [&] {
    scan(device_input.data(), output.data(), static_cast<long long>(n), workspace);
  });
  const std::vector<int> got = output.to_host();
  const std::vector<int> expected = cpu_scan(input, n);
  const course::ComparisonReport report = course::compare_exact(expected, got);
  const course::MarginReport outside = output.check_margins();
  const std::string input_written = margins_text(device_input);
  if (report.ok() && outside.ok() && input_written.empty()) {
    return ::testing::AssertionSuccess();
  }
  std::ostringstream message;
  message << where(step, "int", n) << ": " << report.text();
  const std::string diagnosis = report.ok() ? "" : diagnose_ints(input, expected, got, n);
  if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
  if (!outside.ok()) {
    message << "\n  The kernel " << outside.text("the output")
            << " (the last tile holds only what is left of n: no thread may store past it)";
  }
  if (!input_written.empty()) message << "\n  The kernel " << input_written;
  message << "\n  Edit: " << step.source_file;
  return ::testing::AssertionFailure() << message.str();
}

template <>
::testing::AssertionResult matches_cpu<float>(const StepUnderTest& step, ScanFn<float> scan,
                                              std::size_t n, Workspace& workspace,
                                              std::uint64_t seed) {
  const std::vector<float>& input = test_input<float>(n, seed);
  const course::GuardedBuffer<float> device_input(input);
  course::GuardedBuffer<float> output(n);
  output.fill_bytes(course::kPoisonByte);
  workspace.poison_before_each_run(true);
  run_and_wait(step, [&] {
    scan(device_input.data(), output.data(), static_cast<long long>(n), workspace);
  });
  const std::vector<float> got = output.to_host();
  std::vector<double> expected, magnitude;
  cpu_scan(input, n, expected, magnitude);
  std::vector<double> bound(n);
  for (std::size_t i = 0; i < n; ++i) {
    bound[i] = course::summation_error_bound<float>(magnitude[i], scan_depth(i));
  }
  const course::ComparisonReport report = course::compare_within(expected, got, bound);
  const course::MarginReport outside = output.check_margins();
  if (report.ok() && outside.ok()) return ::testing::AssertionSuccess();
  std::ostringstream message;
  message << where(step, "float", n) << ": " << report.text();
  if (report.non_finite > report.unwritten) {
    message << "\n  NaN in the result often means a read outside the input (the test surrounds "
               "it with NaN), or a shared value read before it was written.";
  }
  if (!outside.ok()) message << "\n  The kernel " << outside.text("the output");
  message << "\n  Edit: " << step.source_file;
  return ::testing::AssertionFailure() << message.str();
}

::testing::AssertionResult matches_cpu_for_every_size(const StepUnderTest& step,
                                                      ScanFn<int> scan,
                                                      const std::vector<std::size_t>& sizes) {
  const std::size_t largest = *std::max_element(sizes.begin(), sizes.end());
  const std::vector<int>& input = test_input<int>(largest);
  const std::vector<int> expected_all = cpu_scan(input, largest);
  const course::GuardedBuffer<int> device_input(input);
  course::GuardedBuffer<int> output(largest);
  Workspace workspace;
  workspace.poison_before_each_run(true);
  const int poison = course::poison_value<int>();
  for (const std::size_t n : sizes) {
    output.fill_bytes(course::kPoisonByte);
    run_and_wait(step, [&] {
      scan(device_input.data(), output.data(), static_cast<long long>(n), workspace);
    });
    const std::vector<int> got = output.to_host();
    const std::vector<int> expected(expected_all.begin(), expected_all.begin() + n);
    const std::vector<int> mine(got.begin(), got.begin() + n);
    const course::ComparisonReport report = course::compare_exact(expected, mine);
    std::size_t past = 0;
    for (std::size_t i = n; i < largest; ++i) past += got[i] != poison;
    const std::string outside = output.check_margins().text("the output");
    if (report.ok() && past == 0 && outside.empty()) continue;
    std::ostringstream message;
    message << where(step, "int", n) << ": " << report.text();
    const std::vector<int> first_n(input.begin(), input.begin() + n);
    const std::string diagnosis = report.ok() ? "" : diagnose_ints(first_n, expected, mine, n);
    if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
    if (past > 0) {
      message << "\n  The kernel wrote " << past << " element(s) past the n = " << n
              << " it was asked for (the last tile holds only what is left of n)";
    }
    if (!outside.empty()) message << "\n  The kernel " << outside;
    message << "\n  Edit: " << step.source_file;
    return ::testing::AssertionFailure() << message.str();
  }
  return ::testing::AssertionSuccess();
}

// ---- The PTX check ------------------------------------------------------------------------------

namespace {

const std::regex kMemoryOp(R"(^\s*(?:@!?%\w+\s+)?(ld|st)\.([\w.]*)\s)");
const std::regex kAtomic(R"(^\s*(?:@!?%\w+\s+)?(atom|red)\.([\w.]*)\s)");
const std::regex kFence(R"(^\s*(?:@!?%\w+\s+)?(fence|membar)\.([\w.]*)\s*;)");

bool has(const std::string& qualifiers, const char* part) {
  return ("." + qualifiers + ".").find(std::string(".") + part + ".") != std::string::npos;
}

bool gpu_scope(const std::string& q) { return has(q, "gpu") || has(q, "sys"); }

bool outside_global(const std::string& q) {
  return has(q, "shared") || has(q, "local") || has(q, "param") || has(q, "const") ||
         has(q, "tex");
}

// A GPU-wide fence: orders this thread's accesses before it against those after it.
bool gpu_fence(const std::string& line) {
  std::smatch m;
  if (!std::regex_search(line, m, kFence)) return false;
  const std::string q = m[2];
  return (m[1] == "membar" && has(q, "gl")) ||
         (m[1] == "fence" && (has(q, "acq_rel") || has(q, "sc")) && has(q, "gpu"));
}

// A GPU-scope release (for a weak store before it) or acquire (for a weak load after it).
bool releases(const std::string& line) {
  std::smatch m;
  if (std::regex_search(line, m, kMemoryOp)) {
    const std::string q = m[2];
    return m[1] == "st" && has(q, "release") && has(q, "gpu");
  }
  if (std::regex_search(line, m, kAtomic)) {
    const std::string q = m[2];
    return (has(q, "release") || has(q, "acq_rel")) && has(q, "gpu");
  }
  return gpu_fence(line);
}
bool acquires(const std::string& line) {
  std::smatch m;
  if (std::regex_search(line, m, kMemoryOp)) {
    const std::string q = m[2];
    return m[1] == "ld" && has(q, "acquire") && has(q, "gpu");
  }
  if (std::regex_search(line, m, kAtomic)) {
    const std::string q = m[2];
    return (has(q, "acquire") || has(q, "acq_rel")) && has(q, "gpu");
  }
  return gpu_fence(line);
}

std::string shown(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos ? line : line.substr(first);
}

}  // namespace

std::string status_access_problem(const MachineCode& ptx) {
  const auto& lines = ptx.instructions;
  bool publishes = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, kMemoryOp)) continue;
    const std::string op = m[1], q = m[2];
    if (outside_global(q) || has(q, "cs")) continue;  // shared, local, ...; the tile data
    const bool strong = has(q, "volatile") ||
                        ((has(q, "relaxed") || has(q, "acquire") || has(q, "release")) &&
                         gpu_scope(q));
    const bool wide = has(q, "b64") || has(q, "u64") || has(q, "s64");
    if (strong && op == "st" && wide) publishes = true;
    if (strong) continue;
    if (op == "st") {
      if (std::any_of(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1, lines.end(), releases)) {
        publishes = true;  // value, then a flag with release
        continue;
      }
      return "a weak store to global memory (`" + shown(lines[i]) +
             "`) with no GPU-scope release after it. If it writes a status word, or half of "
             "one, a reader may see the flag without the value (two stores may be seen in "
             "either order). Publish flag and value as one 64-bit word with a strong store "
             "(cuda::atomic_ref<StatusWord, cuda::thread_scope_device>, relaxed), or the value "
             "first and then the flag with a release store";
    }
    if (!std::any_of(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(i), acquires)) {
      return "a weak load from global memory (`" + shown(lines[i]) +
             "`). If it reads a status word, the compiler may hoist it out of the wait loop and "
             "the SM may serve it from a stale copy in its L1 cache: the loop then never sees "
             "the predecessor's status. Read status words with a strong GPU-scope load "
             "(wait_for_status does), or the value only after an acquire load of the flag";
    }
  }
  if (!publishes) {
    return "the kernel publishes no status word (no strong 64-bit store, and no store followed "
           "by a release): is the TODO still open?";
  }
  return "";
}

}  // namespace scan::testing
