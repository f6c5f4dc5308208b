// What the chapter-06 tests check: one checker that runs a step on a guarded input (NaN or
// 0x5EADBEEF around it), compares with the CPU and says what went wrong; and the memory-order
// check of the one-launch kernels, read off their machine code.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "course/machine_code.hpp"
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
// course::summation_error_bound() at summation_depth(). The message names the step, the file,
// n, the offset, the block size and the type, the expected and actual sums, and a diagnosis
// when the difference has a telling shape.
template <typename T>
::testing::AssertionResult matches_cpu(const StepUnderTest& step, ReduceFn<T> reduce,
                                       std::size_t n, std::size_t offset, int block_size);

// The machine code (SASS, or PTX) of the kernels in this test program whose mangled name
// contains every one of `name_parts`, read with cuobjdump; `why_not` says why when cuobjdump is
// missing. The reader is course-common's (course/machine_code.hpp), shared by every chapter.
using course::machine_code_of;
using course::MachineCode;
using course::ptx_of;

// "" when the kernel stores a block total and only then takes its ticket (the first atomic) in a
// way that makes the store visible to every block first; otherwise what is missing, in the
// learner's terms. Accepted: a GPU- or system-wide fence between the store and the ticket (in
// the SASS, a MEMBAR.SC.GPU or MEMBAR.ALL.GPU, or .SYS, as __threadfence() and
// cuda::atomic_thread_fence give), or a ticket taken with release semantics at device scope
// (cuda::atomic_ref<unsigned, cuda::thread_scope_device>::fetch_add(1, memory_order_acq_rel):
// in the PTX atom.add.acq_rel.gpu, which ptxas turns into a MEMBAR.ALL.GPU before the ATOM).
// Rejected: no fence (a relaxed atomicAdd right after the store), or a block-scope one
// (__threadfence_block(), thread_scope_block: MEMBAR.*.CTA), which orders nothing for the other
// blocks. `ptx` (optional) is the same kernel's PTX, which shows the atomic's semantics.
std::string ticket_ordering_problem(const MachineCode& sass, const MachineCode* ptx = nullptr);

// ptx_of (above, from course/machine_code.hpp) gives the PTX (the compiler's portable assembly,
// which keeps each shuffle's member mask) of the kernels, read with cuobjdump -ptx.

// "" when every warp exchange in the kernel names the whole warp: each shfl.sync (from
// __shfl_*_sync or cg's shuffles) and each redux.sync (from __reduce_add_sync, or cg::reduce on
// ints) with member mask 0xffffffff; otherwise which mask it uses and why that is wrong. A
// partial mask gives the right sums on today's GPUs, and compute-sanitizer does not report it:
// only the code shows it. A kernel with neither instruction: "no warp shuffle" (TODO open?).
std::string partial_shuffle_mask_problem(const MachineCode& ptx);

// The same over every instantiation of a kernel (one per element type and block size): a
// partial mask in any of them first, before any "no warp shuffle" verdict, so that a learner
// whose int version has no shuffle still hears about the float version's mask. `kernel` names
// the instantiation the problem was found in; both are "" when all of them are right.
struct KernelProblem {
  std::string kernel;
  std::string problem;
};
KernelProblem shuffle_mask_problem(const std::vector<MachineCode>& instantiations);

}  // namespace warp_reduction::testing
