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
#include "course/rounding.hpp"
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
  const double bound = course::summation_error_bound<T>(
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

// The reader of this program's SASS and PTX (machine_code_of, ptx_of) is course-common's:
// course/machine_code.hpp.

namespace {

// The instruction of a line, without the comment PTX and SASS may put after it.
std::string without_comment(const std::string& line) {
  const std::size_t comment = line.find("//");
  return comment == std::string::npos ? line : line.substr(0, comment);
}

// A PTX integer literal (decimal, 0x hex, 0b binary, 0 octal; an optional U suffix; an optional
// minus sign) as the 32 bits it puts in a .b32 register. false when `text` is not one.
bool ptx_integer(std::string text, std::uint32_t* value) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.erase(0, 1);
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.pop_back();
  if (text.empty()) return false;
  unsigned base = 10;
  std::size_t first = 0;
  if (text.size() > 1 && text[0] == '0') {
    if (text[1] == 'x' || text[1] == 'X') {
      base = 16, first = 2;
    } else if (text[1] == 'b' || text[1] == 'B') {
      base = 2, first = 2;
    } else {
      base = 8, first = 1;
    }
  }
  if (first >= text.size()) return false;
  std::uint64_t number = 0;
  for (std::size_t i = first; i < text.size(); ++i) {
    const char c = text[i];
    unsigned digit = 16;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
    if (digit >= base || number > (std::uint64_t{1} << 40)) return false;
    number = number * base + digit;
  }
  *value = static_cast<std::uint32_t>(negative ? std::uint64_t{0} - number : number);
  return true;
}

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// What one kernel's PTX exchanges between lanes: how many shfl.sync and redux.sync it has, and
// the first one whose member mask is not the whole warp ("" when there is none).
struct WarpExchanges {
  int count = 0;
  std::string partial_mask_problem;
};

// Every instruction that writes a register names it first (`mov.u32 %r6, -1;`,
// `ld.param.u32 %r2, [...];`, `shfl.sync.down.b32 %r7|%p1, ...;`). For each register, what the
// kernel writes into it, anywhere: the source operand of a 32-bit mov, or "" for any other
// instruction. PTX registers are written in few places, often one.
using RegisterWrites = std::map<std::string, std::vector<std::string>>;

RegisterWrites register_writes(const std::vector<std::string>& lines) {
  const std::regex written(R"(^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)\s+(%\w+)\s*[,|])");
  const std::regex move(R"(^mov\.[bus]32$)"), source(R"(,\s*([^,;\s]+)\s*;)");
  RegisterWrites writes;
  for (const std::string& line : lines) {
    std::smatch match, from;
    if (!std::regex_search(line, match, written)) continue;
    const std::string opcode = match[1].str();
    const bool moved = std::regex_match(opcode, move) && std::regex_search(line, from, source);
    writes[match[2].str()].push_back(moved ? from[1].str() : "");
  }
  return writes;
}

// The integer literal that `operand` always holds (itself when it is one; for a register, the
// literal every write into it gives, through copies), or "" when it may hold anything else.
std::string constant_of(const std::string& operand, const RegisterWrites& writes, int depth = 0) {
  std::uint32_t bits = 0;
  if (ptx_integer(operand, &bits)) return operand;
  const auto found = writes.find(operand);
  if (depth > 8 || found == writes.end() || found->second.empty()) return "";
  std::string value;
  std::uint32_t value_bits = 0;
  for (const std::string& source : found->second) {
    const std::string literal = source.empty() ? "" : constant_of(source, writes, depth + 1);
    if (literal.empty() || !ptx_integer(literal, &bits)) return "";
    if (!value.empty() && bits != value_bits) return "";
    value = literal, value_bits = bits;
  }
  return value;
}

WarpExchanges scan_warp_exchanges(const MachineCode& ptx) {
  // shfl.sync.down.b32 %r7|%p1, %r2, %r5, %r4, %r6;   redux.sync.add.s32 %r1, %r3, %r4;
  // The member mask is the last operand of both: a constant (-1, 0xffffffff, 65535) or a
  // register that `mov.u32 %r6, -1;` fills (nvcc 12 and 13 write it so).
  const std::regex exchange(R"(\b(shfl\.sync\.\w+\.b32|redux\.sync(?:\.\w+)+)\s+([^;]*);)");
  std::vector<std::string> lines;
  for (const std::string& line : ptx.instructions) lines.push_back(without_comment(line));
  const RegisterWrites writes = register_writes(lines);
  WarpExchanges found;
  for (const std::string& line : lines) {
    std::smatch match;
    if (!std::regex_search(line, match, exchange)) continue;
    ++found.count;
    if (!found.partial_mask_problem.empty()) continue;
    const std::string operands = match[2].str();
    std::string mask = trimmed(operands.substr(operands.rfind(',') + 1));
    if (const std::string constant = constant_of(mask, writes); !constant.empty()) mask = constant;
    std::uint32_t bits = 0;
    if (ptx_integer(mask, &bits) && bits == 0xffffffffu) continue;
    if (mask.rfind('%', 0) == 0) mask += ", a value computed at run time";
    const bool redux = match[1].str().rfind("redux", 0) == 0;
    found.partial_mask_problem =
        redux ? "a __reduce_add_sync names only part of the warp (redux.sync with member mask " +
                    mask + ", not 0xffffffff). Every lane that calls it must be in its mask, "
                    "and the sum covers only the lanes in it. Today's GPUs often give the right "
                    "sum anyway, and compute-sanitizer does not report it; the next GPU or "
                    "compiler need not"
              : "a shuffle names only part of the warp (member mask " + mask +
                    ", not 0xffffffff). Every lane that calls __shfl_down_sync must be in its "
                    "mask, and so must the lane it reads from: lane 0 reads lane 16 at offset "
                    "16. Today's GPUs often give the right sum anyway, and compute-sanitizer "
                    "does not report it; the next GPU or compiler need not";
  }
  return found;
}

const char* const kNoWarpExchange =
    "the kernel has no warp shuffle (no shfl.sync, and no redux.sync from __reduce_add_sync or "
    "cg::reduce, in its PTX): is the TODO still open?";

}  // namespace

std::string partial_shuffle_mask_problem(const MachineCode& ptx) {
  const WarpExchanges found = scan_warp_exchanges(ptx);
  if (!found.partial_mask_problem.empty()) return found.partial_mask_problem;
  return found.count == 0 ? kNoWarpExchange : "";
}

KernelProblem shuffle_mask_problem(const std::vector<MachineCode>& instantiations) {
  KernelProblem without_exchange;
  for (const MachineCode& kernel : instantiations) {
    const WarpExchanges found = scan_warp_exchanges(kernel);
    if (!found.partial_mask_problem.empty()) return {kernel.kernel, found.partial_mask_problem};
    if (found.count == 0 && without_exchange.problem.empty()) {
      without_exchange = {kernel.kernel, kNoWarpExchange};
    }
  }
  return without_exchange;
}

namespace {

// How a kernel orders its block total before its ticket, read from SASS or from PTX.
enum class TicketOrder {
  no_ticket,       // no atomic at all
  no_store,        // no global store before the first atomic
  unordered,       // nothing between them orders the store first
  block_scope,     // only a fence or release that reaches this block's threads
  device_scope,    // a fence or release that reaches every block: right
};

// SASS: ATOMG/ATOM/RED (not the shared-memory ATOMS), stores STG or, through a generic
// pointer, ST (what cuda::atomic_ref's store becomes); MEMBAR.SC.GPU (__threadfence()),
// MEMBAR.ALL.GPU (a release at device scope), .SYS, or .CTA (block scope).
TicketOrder sass_ticket_order(const MachineCode& sass) {
  const std::regex atomic(R"(\b(ATOMG?|RED)\.)"), store(R"(\b(STG|ST)\.)");
  const std::regex fence(R"(\bMEMBAR\b([.\w]*))"), narrow(R"(\.(CTA|SM)\b)");
  std::ptrdiff_t first_atomic = -1;
  for (std::size_t i = 0; i < sass.instructions.size(); ++i) {
    if (std::regex_search(sass.instructions[i], atomic)) {
      first_atomic = static_cast<std::ptrdiff_t>(i);
      break;
    }
  }
  if (first_atomic < 0) return TicketOrder::no_ticket;
  std::ptrdiff_t last_store = -1;
  for (std::ptrdiff_t i = first_atomic - 1; i >= 0; --i) {
    if (std::regex_search(sass.instructions[i], store)) {
      last_store = i;
      break;
    }
  }
  if (last_store < 0) return TicketOrder::no_store;
  TicketOrder order = TicketOrder::unordered;
  for (std::ptrdiff_t i = last_store + 1; i < first_atomic; ++i) {
    std::smatch match;
    if (!std::regex_search(sass.instructions[i], match, fence)) continue;
    const std::string qualifiers = match[1].str();
    if (!std::regex_search(qualifiers, narrow)) return TicketOrder::device_scope;
    order = TicketOrder::block_scope;
  }
  return order;
}

// PTX: the first atom/red outside shared memory; before it, a store outside shared, local and
// parameter memory; between them a fence (membar.gl/.sys, fence.sc/.acq_rel/.release.gpu/.sys),
// or the atomic itself with .release or .acq_rel at .gpu or .sys scope (no scope: .gpu).
TicketOrder ptx_ticket_order(const MachineCode& ptx) {
  const std::regex atomic(R"(\b(?:atom|red)((?:\.[\w:]+)+)\s)");
  const std::regex store(R"(\bst\.(?!shared|local|param))");
  const std::regex fence(
      R"(\b(membar\.(gl|sys|cta)|fence\.(sc|acq_rel|release)\.(gpu|sys|cta|cluster))\b)");
  std::vector<std::string> lines;
  for (const std::string& line : ptx.instructions) lines.push_back(without_comment(line));
  std::ptrdiff_t first_atomic = -1;
  std::string qualifiers;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch match;
    if (std::regex_search(lines[i], match, atomic) &&
        match[1].str().find(".shared") == std::string::npos) {
      first_atomic = static_cast<std::ptrdiff_t>(i);
      qualifiers = match[1].str() + ".";
      break;
    }
  }
  if (first_atomic < 0) return TicketOrder::no_ticket;
  std::ptrdiff_t last_store = -1;
  for (std::ptrdiff_t i = first_atomic - 1; i >= 0; --i) {
    if (std::regex_search(lines[i], store)) {
      last_store = i;
      break;
    }
  }
  if (last_store < 0) return TicketOrder::no_store;
  const auto has = [&](const char* part) { return qualifiers.find(part) != std::string::npos; };
  const bool narrow_scope = has(".cta.") || has(".cluster.");
  TicketOrder order = TicketOrder::unordered;
  if (has(".release.") || has(".acq_rel.")) {
    if (!narrow_scope) return TicketOrder::device_scope;
    order = TicketOrder::block_scope;
  }
  for (std::ptrdiff_t i = last_store + 1; i < first_atomic; ++i) {
    std::smatch match;
    if (!std::regex_search(lines[i], match, fence)) continue;
    const std::string found = match[1].str();
    if (found.find("cta") == std::string::npos && found.find("cluster") == std::string::npos) {
      return TicketOrder::device_scope;
    }
    order = TicketOrder::block_scope;
  }
  return order;
}

}  // namespace

std::string ticket_ordering_problem(const MachineCode& sass, const MachineCode* ptx) {
  const TicketOrder in_sass = sass_ticket_order(sass);
  // The PTX keeps the atomic's semantics; where it is given and the SASS shows no device-wide
  // fence, a release or acq_rel ticket at device scope there is right too.
  const TicketOrder in_ptx = ptx != nullptr ? ptx_ticket_order(*ptx) : in_sass;
  if (in_sass == TicketOrder::device_scope || in_ptx == TicketOrder::device_scope) return "";
  if (in_sass == TicketOrder::no_ticket) {
    return "the kernel takes no ticket: there is no atomic instruction in it (is the TODO still "
           "open?)";
  }
  if (in_sass == TicketOrder::no_store) {
    return "the kernel stores no block total before it takes its ticket (no STG before the "
           "first atomic): the last block could read a total that is not there yet";
  }
  if (in_sass == TicketOrder::block_scope || in_ptx == TicketOrder::block_scope) {
    return "the fence between storing the block total and taking the ticket reaches only this "
           "block (__threadfence_block() or a thread_scope_block atomic: MEMBAR.SC.CTA or "
           "MEMBAR.ALL.CTA in the machine code): it orders the store for this block's own "
           "threads, not for the block that takes the last ticket, which could add a stale or "
           "poisoned value. Use __threadfence() (or a release at cuda::thread_scope_device)";
  }
  return "no __threadfence() between storing the block total and taking the ticket (no MEMBAR "
         "between the STG and the first atomic in the machine code): another block can see the "
         "ticket before it sees the total, and the last block would add a stale or poisoned "
         "value. It may pass every run here and fail on the next GPU";
}

}  // namespace warp_reduction::testing
