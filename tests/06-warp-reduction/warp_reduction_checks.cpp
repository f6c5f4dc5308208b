#include "warp_reduction_checks.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <tuple>

#include "course/device_info.hpp"
#include "course/guarded_buffer.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"

namespace warp_reduction::testing {

namespace {

// The whole test input of size n on the GPU, between guard margins, uploaded once.
template <typename T>
const course::GuardedBuffer<T>& device_input(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<course::GuardedBuffer<T>>> cache;
  auto& slot = cache[n];
  if (!slot) slot = std::make_unique<course::GuardedBuffer<T>>(test_input<T>(n));
  return *slot;
}

struct Reference {
  long double sum = 0;
  long double magnitude = 0;
};

template <typename T>
const Reference& reference(std::size_t n, std::size_t offset) {
  static std::map<std::pair<std::size_t, std::size_t>, Reference> cache;
  const auto found = cache.find({n, offset});
  if (found != cache.end()) return found->second;
  const T* slice = test_input<T>(n).data() + offset;
  return cache[{n, offset}] = {cpu_sum(slice, n - offset), cpu_magnitude(slice, n - offset)};
}

// Integers: a difference that tells where the sum went wrong.
std::string diagnose_int_difference(const std::vector<int>& input, std::size_t offset,
                                    long long expected, int got) {
  const std::uint32_t difference =
      static_cast<std::uint32_t>(got) - static_cast<std::uint32_t>(expected);  // modulo 2^32
  if (const int reads = course::guard_reads_explaining(static_cast<long long>(got) - expected)) {
    return "the sum is off by exactly " + std::to_string(reads) +
           " times 0x5EADBEEF, the value the test puts around the input: the kernel read " +
           std::to_string(reads) + " element(s) outside it (a vector or an index past the end?)";
  }
  // Only a few elements at either end: with j near n, some sum of j elements matches by chance.
  const std::size_t count = input.size() - offset;
  std::uint32_t first = 0, last = 0;
  for (std::size_t j = 1; j <= 64 && 2 * j <= count; ++j) {
    first += static_cast<std::uint32_t>(input[offset + j - 1]);
    last += static_cast<std::uint32_t>(input[input.size() - j]);
    if (difference == 0u - last) {
      return "exactly the last " + std::to_string(j) + " element(s) are missing: a loop bound "
             "that stops early, or (with vectors) the tail after the last whole vector?";
    }
    if (difference == 0u - first) {
      return "exactly the first " + std::to_string(j) + " element(s) are missing: a loop that "
             "starts late, or (with vectors) the head before the first 16-byte boundary?";
    }
  }
  return "";
}

}  // namespace

template <typename T>
const std::vector<T>& test_input(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<std::vector<T>>> cache;
  auto& slot = cache[n];
  if (!slot) {
    if constexpr (std::is_integral_v<T>) {
      slot = std::make_unique<std::vector<T>>(course::random_ints(n, -16, 16, n));
    } else {
      const auto values = course::random_doubles(n, -1.0, 1.0, n);
      slot = std::make_unique<std::vector<T>>(values.begin(), values.end());
    }
  }
  return *slot;
}

const std::vector<std::size_t>& test_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    std::vector<std::size_t> s = {1, 2, 3, 7, 33, 1025, 4099};
    if (!course::under_sanitizer()) {
      for (std::size_t n : {31u, 32u, 255u, 1023u, 1024u, (1u << 16) + 1, (1u << 20) + 3,
                            (1u << 26) + 7}) {
        s.push_back(n);
      }
    }
    return s;
  }();
  return sizes;
}

template <typename T>
const std::vector<std::size_t>& start_offsets() {
  static const std::vector<std::size_t> offsets =
      std::is_integral_v<T> ? std::vector<std::size_t>{0, 1, 2, 3}
                            : std::vector<std::size_t>{0, 1};
  return offsets;
}

template <typename T>
::testing::AssertionResult matches_cpu(const StepUnderTest& step, ReduceFn<T> reduce,
                                       std::size_t n, std::size_t offset, int block_size) {
  if (offset >= n) return ::testing::AssertionSuccess();  // nothing left to sum
  const T* input = device_input<T>(n).data() + offset;
  const std::size_t count = n - offset;
  Workspace<T> workspace;
  workspace.poison_before_each_run(true);
  const T got = reduce(input, count, block_size, workspace);
  COURSE_CHECK(cudaDeviceSynchronize());
  const Reference& exact = reference<T>(n, offset);
  const double bound = rounding_error_bound<T>(
      exact.magnitude, summation_depth(count, block_size, course::multiprocessor_count()));
  const long double error = std::fabs(static_cast<long double>(got) - exact.sum);
  const std::string margins = workspace.margin_report();
  const bool finite = std::isfinite(static_cast<double>(got));
  if (finite && error <= bound && margins.empty()) return ::testing::AssertionSuccess();

  std::ostringstream message;
  message << step.name << "<" << course::type_name<T>() << ">, n = " << count;
  if (offset > 0) message << " starting at input + " << offset;
  message << ", block size " << block_size << ": the sum is " << course::exact_text(got)
          << ", the CPU says " << course::exact_text(static_cast<double>(exact.sum));
  if (bound > 0) message << " (allowed error " << bound << ")";
  message << ".\n  Edit: " << step.source_file;
  std::string diagnosis;
  if (!margins.empty()) {
    diagnosis = "the kernel " + margins;
  } else if (!finite) {
    diagnosis = "NaN: the test surrounds the input with NaN and poisons the block sums with "
                "NaN, so the kernel read outside the input or a block sum that was never "
                "written (a vector past the end, or a block that stores no sum?)";
  } else if (count > 1 && got == T(0)) {
    diagnosis = "the result is 0: nothing was added up (is the TODO still open?)";
  } else if (const T poison = course::poison_value<T>();
             std::memcmp(&got, &poison, sizeof got) == 0) {
    diagnosis = "the result still holds the poison the test wrote over it: it was never "
                "written (is the TODO still open?)";
  } else if (count > 1 && got == test_input<T>(n)[offset]) {
    diagnosis = "the result is the first element alone: nothing was added into it (is the "
                "TODO still open, or does the tree stop early?)";
  } else if constexpr (std::is_integral_v<T>) {
    diagnosis = diagnose_int_difference(test_input<T>(n), offset,
                                        static_cast<long long>(exact.sum), got);
  }
  if (diagnosis.empty()) {
    Workspace<T> again;
    const T second = reduce(input, count, block_size, again);
    if (!(second == got)) {
      diagnosis = "a second run gave " + course::exact_text(second) +
                  ": the result changes from run to run, a race (a missing barrier?)";
    }
  }
  if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
  return ::testing::AssertionFailure() << message.str();
}

#define WARP_REDUCTION_CHECKS_FOR(T)                                                        \
  template const std::vector<T>& test_input<T>(std::size_t);                              \
  template const std::vector<std::size_t>& start_offsets<T>();                            \
  template ::testing::AssertionResult matches_cpu<T>(const StepUnderTest&, ReduceFn<T>,   \
                                                     std::size_t, std::size_t, int);
WARP_REDUCTION_CHECKS_FOR(int)
WARP_REDUCTION_CHECKS_FOR(float)
WARP_REDUCTION_CHECKS_FOR(double)

// ---- machine code ---------------------------------------------------------------------------

namespace {

std::string find_cuobjdump() {
  std::vector<std::string> folders;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream entries(path);
    for (std::string folder; std::getline(entries, folder, ':');) folders.push_back(folder);
  }
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(variable)) folders.push_back(std::string(home) + "/bin");
  }
  folders.push_back("/usr/local/cuda/bin");
  for (const std::string& folder : folders) {
    const std::string candidate = folder + "/cuobjdump";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Runs cuobjdump with `option` (-sass or -ptx) on this program and splits its output into
// kernels: a line matching `kernel_start` (group 1: the mangled name) starts one.
std::vector<MachineCode> dump_kernels(const char* option, const std::regex& kernel_start,
                                      std::string* failure) {
  std::vector<MachineCode> functions;
  const std::string tool = find_cuobjdump();
  if (tool.empty()) {
    *failure = "cuobjdump (part of the CUDA toolkit, next to nvcc) was not found on PATH, in "
               "$CUDA_HOME/bin or in /usr/local/cuda/bin";
    return functions;
  }
  // /proc/self/exe read by cuobjdump would be cuobjdump itself: resolve it here.
  char program[4096] = {};
  const ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  if (length <= 0) {
    *failure = "could not find this program's path (/proc/self/exe)";
    return functions;
  }
  const std::string command =
      tool + " " + option + " '" + std::string(program, length) + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *failure = "could not run " + command;
    return functions;
  }
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    const std::string line(buffer);
    std::smatch match;
    if (std::regex_search(line, match, kernel_start)) {
      functions.push_back({match[1].str(), {}});
    } else if (!functions.empty()) {
      functions.back().instructions.push_back(line);
    }
  }
  if (pclose(pipe) != 0 && functions.empty()) {
    *failure = "cuobjdump " + std::string(option) + " failed";
  }
  return functions;
}

// Every kernel's SASS and PTX in this program, each read once.
const std::vector<MachineCode>& all_machine_code(std::string* why_not) {
  static std::string failure;
  static const std::vector<MachineCode> code =
      dump_kernels("-sass", std::regex(R"(Function\s*:\s*(\S+))"), &failure);
  if (why_not != nullptr) *why_not = failure;
  return code;
}

const std::vector<MachineCode>& all_ptx(std::string* why_not) {
  static std::string failure;
  static const std::vector<MachineCode> code =
      dump_kernels("-ptx", std::regex(R"(\.entry\s+([A-Za-z_][\w$]*))"), &failure);
  if (why_not != nullptr) *why_not = failure;
  return code;
}

std::vector<MachineCode> matching(const std::vector<MachineCode>& all,
                                  const std::vector<std::string>& name_parts) {
  std::vector<MachineCode> found;
  for (const MachineCode& function : all) {
    bool every = true;
    for (const std::string& part : name_parts) {
      every &= function.kernel.find(part) != std::string::npos;
    }
    if (every) found.push_back(function);
  }
  return found;
}

bool contains_word(const std::string& line, const std::regex& pattern) {
  return std::regex_search(line, pattern);
}

}  // namespace

std::vector<MachineCode> machine_code_of(const std::vector<std::string>& name_parts,
                                         std::string* why_not) {
  return matching(all_machine_code(why_not), name_parts);
}

std::vector<MachineCode> ptx_of(const std::vector<std::string>& name_parts, std::string* why_not) {
  return matching(all_ptx(why_not), name_parts);
}

std::string partial_shuffle_mask_problem(const MachineCode& ptx) {
  // shfl.sync.down.b32 %r2|%p1, %r1, 16, 31, -1;   the member mask is the last operand, a
  // constant or a register set by `mov.b32 %r23, -1;` before it.
  const std::regex shuffle(R"(shfl\.sync\.\w+\.b32\s.*,\s*([^,;\s]+)\s*;)");
  const std::regex move(R"(mov\.[bus]32\s+(%r\d+)\s*,\s*(-?(?:0x)?[0-9A-Fa-f]+)\s*;)");
  std::map<std::string, std::string> constants;  // register: the constant last moved into it
  int shuffles = 0;
  for (const std::string& line : ptx.instructions) {
    std::smatch match;
    if (std::regex_search(line, match, move)) {
      constants[match[1].str()] = match[2].str();
      continue;
    }
    if (!std::regex_search(line, match, shuffle)) continue;
    ++shuffles;
    std::string mask = match[1].str();
    if (const auto known = constants.find(mask); known != constants.end()) mask = known->second;
    if (mask != "-1" && mask != "0xffffffff" && mask != "0xFFFFFFFF" && mask != "4294967295") {
      return "a shuffle names only part of the warp (member mask " + mask + ", not 0xffffffff). "
             "Every lane that calls __shfl_down_sync must be in its mask, and so must the lane "
             "it reads from: lane 0 reads lane 16 at offset 16. Today's GPUs often give the "
             "right sum anyway, and compute-sanitizer does not report it; the next GPU or "
             "compiler need not";
    }
  }
  return shuffles == 0 ? "the kernel has no warp shuffle (is the TODO still open?)" : "";
}

std::string ticket_ordering_problem(const MachineCode& code) {
  const std::regex atomic(R"(\b(ATOMG?|RED)\.)"), fence(R"(\bMEMBAR\b)"), store(R"(\bSTG\.)");
  std::ptrdiff_t first_atomic = -1;
  for (std::size_t i = 0; i < code.instructions.size(); ++i) {
    if (contains_word(code.instructions[i], atomic)) {
      first_atomic = static_cast<std::ptrdiff_t>(i);
      break;
    }
  }
  if (first_atomic < 0) {
    return "the kernel takes no ticket: there is no atomic instruction in it (is the TODO still "
           "open?)";
  }
  std::ptrdiff_t last_store = -1;
  for (std::ptrdiff_t i = first_atomic - 1; i >= 0; --i) {
    if (contains_word(code.instructions[i], store)) {
      last_store = i;
      break;
    }
  }
  if (last_store < 0) {
    return "the kernel stores no block total before it takes its ticket (no STG before the "
           "first atomic): the last block could read a total that is not there yet";
  }
  for (std::ptrdiff_t i = last_store + 1; i < first_atomic; ++i) {
    if (contains_word(code.instructions[i], fence)) return "";
  }
  return "no __threadfence() between storing the block total and taking the ticket (no MEMBAR "
         "between the STG and the first atomic in the machine code): another block can see the "
         "ticket before it sees the total, and the last block would add a stale or poisoned "
         "value. It may pass every run here and fail on the next GPU";
}

}  // namespace warp_reduction::testing
