// What the chapter-06 tests check: one checker that runs a step on a guarded input (NaN or
// 0x5EADBEEF around it), compares with the CPU and says what went wrong; and the memory-order
// check of the one-launch kernels, read off their machine code.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "warp_reduction.cuh"

namespace warp_reduction::testing {

// Test inputs: ints in [-16, 16] (2^26 of them cannot overflow an int, so the sum is exact),
// floats and doubles in [-1, 1) with mixed signs. Seeded by n: reproducible.
template <typename T>
const std::vector<T>& test_input(std::size_t n);

// Sizes from 1 to 2^26 + 7: tiny, around a warp and a block, odd tails, primes; the largest ones
// are left out under compute-sanitizer.
const std::vector<std::size_t>& test_sizes();
// Where the input starts, in elements from a 256-byte-aligned array: 1, 2 and 3 are
// misaligned for 16-byte vectors (ints: every head length; float and double: one).
template <typename T>
const std::vector<std::size_t>& start_offsets();

struct StepUnderTest {
  std::string name;         // e.g. "step3_warp_shuffle"
  std::string source_file;  // the file to edit
};

// Sums elements [offset, n) of test_input<T>(n) with `reduce` (so the pointer is input + offset)
// and compares with the exact sum: ints exactly, floats and doubles within
// rounding_error_bound(). The message names the step, the file, n, the offset, the block size
// and the type, the expected and actual sums, and a diagnosis when the difference has a
// telling shape.
template <typename T>
::testing::AssertionResult matches_cpu(const StepUnderTest& step, ReduceFn<T> reduce,
                                       std::size_t n, std::size_t offset, int block_size);

// The machine code (SASS) of the kernels in this test program whose mangled name contains
// every one of `name_parts`, read with cuobjdump. `why_not` says why when cuobjdump is missing.
struct MachineCode {
  std::string kernel;
  std::vector<std::string> instructions;
};
std::vector<MachineCode> machine_code_of(const std::vector<std::string>& name_parts,
                                         std::string* why_not);

// "" when the kernel stores a block total, fences (MEMBAR) and only then takes its ticket (the
// first atomic); otherwise what is missing, in the learner's terms.
std::string ticket_ordering_problem(const MachineCode& code);

// The PTX (the compiler's portable assembly, which keeps each shuffle's member mask) of the
// kernels whose mangled name contains every one of `name_parts`, read with cuobjdump -ptx.
std::vector<MachineCode> ptx_of(const std::vector<std::string>& name_parts, std::string* why_not);

// "" when every shfl.sync in the kernel names the whole warp (mask 0xffffffff); otherwise
// which mask it uses and why that is wrong. A partial mask gives the right sums on today's
// GPUs, and compute-sanitizer does not report it: only the code shows it.
std::string partial_shuffle_mask_problem(const MachineCode& ptx);

}  // namespace warp_reduction::testing
