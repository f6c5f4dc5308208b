// What the chapter-09 tests check: one checker that runs a step on seeded random input, with
// a poisoned output, compares every element with the CPU's scan and says what went wrong; the
// watchdog's stop turned into a message; and the look-back kernel's status-word accesses, read
// off its PTX.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "course/machine_code.hpp"
#include "scan.cuh"

namespace scan::testing {

// Test inputs, seeded by n and `seed`: ints anywhere in [-2^30, 2^30] (so that the prefix sums
// wrap around 2^32 again and again: the unsigned arithmetic is tested at every size), floats in
// [-1, 1) with mixed signs.
template <typename T>
const std::vector<T>& test_input(std::size_t n, std::uint64_t seed = 0);

struct StepUnderTest {
  std::string name;         // e.g. "step3_reduce_then_scan"
  std::string source_file;  // the file to edit
  bool solution = true;
};

// The exit code of a test program whose kernel a watchdog stopped.
inline constexpr int kWatchdogExit = 3;

// Runs `run` and synchronizes. When step 4's watchdog stopped the kernel, prints "the kernel did
// not finish within 4 s: ..." with what usually causes it and the file to edit, and ends the
// program (its CUDA context is gone) with kWatchdogExit. Other CUDA errors throw.
void run_and_wait(const StepUnderTest& step, const std::function<void()>& run);

// Scans test_input<T>(n, seed) with `scan` into an output of `capacity` >= n elements (poisoned
// before the run; the elements past n must stay poisoned), and compares: ints exactly, floats
// within gamma_L sum_{j <= i} |x_j| for element i (L = scan_depth(i)). The input sits between
// guard margins, so reads past it show. The message names the step, the file, n and the type,
// the first mismatches and a diagnosis where one is clear.
template <typename T>
::testing::AssertionResult matches_cpu(const StepUnderTest& step, ScanFn<T> scan, std::size_t n,
                                       Workspace& workspace, std::uint64_t seed = 0);

// The same for every n of `sizes` with one input buffer (of the largest n) and one output
// buffer, poisoned before each n: fast enough to try every n up to a few tiles. Stops at the
// first n that fails.
::testing::AssertionResult matches_cpu_for_every_size(const StepUnderTest& step,
                                                      ScanFn<int> scan,
                                                      const std::vector<std::size_t>& sizes);

// The free device memory, in bytes (cudaMemGetInfo).
std::size_t free_device_bytes();

// ---- Step 4's status words, read off the PTX -------------------------------------------------------
using course::MachineCode;
using course::ptx_of;

// "" when every access of the kernel to global memory outside the tile data is strong at GPU
// scope, or ordered as a message passing pattern needs, and the kernel publishes a status word;
// otherwise what is wrong, in the learner's terms. The tile data is read and written by the
// ready-made load_tile and store_tile with .cs (evict-first) accesses, which are left out. The
// rest (status words, the tile counter) must be:
//   - strong: ld/st .relaxed, .acquire or .release at .gpu or .sys scope, .volatile, atom, red;
//   - or a weak store followed later by a GPU-scope release (st.release, atom or red with
//     .release or .acq_rel, fence.acq_rel.gpu, fence.sc.gpu, membar.gl): value, then flag;
//   - or a weak load preceded by a GPU-scope acquire (ld.acquire, atom .acquire or .acq_rel,
//     fence.acq_rel.gpu, fence.sc.gpu, membar.gl): flag, then value.
// A weak load may be hoisted out of a spin loop or served from a stale L1 line; two weak stores
// may become visible in either order. Neither shows in a run, so the PTX must.
std::string status_access_problem(const MachineCode& ptx);

}  // namespace scan::testing
