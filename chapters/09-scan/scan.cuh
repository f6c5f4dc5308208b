// Chapter 09, scan: the inclusive prefix sum, output[i] = input[0] + ... + input[i], from one
// block in shared memory to one pass over the data at the vendor's speed. This header is the API
// that the exercise and the solution (and the known mistakes planted into it) implement, and the
// host-side pieces they share. Plain C++ apart from the CUDA runtime: the host tests include it.
//
// Every step scans n elements already on the GPU, int or float, into an output array of n
// elements. Ints are added as unsigned 32-bit numbers (the same bits): a sum past 2^31 - 1 wraps
// around modulo 2^32, as CUB's does, and is defined (a signed overflow would not be).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "course/watchdog.hpp"
#include "scan_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace scan {

// The largest n any step takes: 2^32 elements (16 GiB of ints). Every index is 64-bit, and the
// steps' grids (one block per tile) stay far below the 2^31 - 1 blocks a grid holds.
inline constexpr long long kMaxCount = 1LL << 32;

// Step 1: threads per block; Kogge-Stone scans one element per thread, Brent-Kung two.
inline constexpr int kStep1Threads = 512;
// Steps 2-4: a tile is what one block scans at a time: kTileThreads threads with
// kItemsPerThread consecutive elements each, read and written as 16-byte vectors.
inline constexpr int kTileThreads = 128;
inline constexpr int kItemsPerThread = 24;
inline constexpr int kTileItems = kTileThreads * kItemsPerThread;  // 3072
// Step 3: at most this many blocks, so that one tile scan covers their block sums.
inline constexpr int kMaxReduceBlocks = kTileItems;

// The look-back state of step 4: a tile counter, then one 64-bit status word per tile. Both
// must read 0 ("nothing published, no tile taken") when a launch starts.
struct LookbackState {
  unsigned* counter = nullptr;               // the next tile number to hand out
  unsigned long long* status = nullptr;      // status[t]: tile t's flag and value
  std::size_t bytes = 0;                     // counter and status words together, contiguous
};

// Memory a scan reuses from call to call, so that timing leaves allocation out: the block or
// tile sums of each level of the hierarchical steps, step 3's block sums, step 4's look-back
// state; and how many kernels (and memsets) the last call launched. Tests poison the sums
// before each call (unwritten sums then read as NaN or -1).
class Workspace {
 public:
  // Starts a call: resets the launch count; poisons every sum buffer when poisoning is on.
  void begin_call();
  // Room for `count` 4-byte values in the sums of level `level` (0, 1, ...), 256-byte aligned.
  void* sums(int level, std::size_t count);
  // Step 4's counter and `tiles` status words. Zero when first allocated; after that, whatever
  // the last call left there.
  LookbackState lookback(std::size_t tiles);
  void count_launch() { ++launches_; }
  int launches() const { return launches_; }
  void poison_before_each_run(bool enabled) { poison_ = enabled; }

 private:
  std::vector<course::DeviceBuffer<std::uint32_t>> sums_;
  course::DeviceBuffer<unsigned long long> lookback_;
  int launches_ = 0;
  bool poison_ = false;
};

// Argument checks shared by every implementation; each throws std::invalid_argument naming the
// step and the argument, and saying what to pass instead:
//   n: negative, or above kMaxCount;
//   input, output: null with n > 0; not aligned to the element (4 bytes); for the steps that
//   read and write 16-byte vectors (vectors = true: steps 2-4), not aligned to 16 bytes.
void check_arguments(const char* step, const void* input, const void* output, long long n,
                     bool vectors);

// ---- The deadlock watchdog (step 4) ------------------------------------------------------------
// A block of step 4 waits for another block's status word. A wait that can never end (a tile
// waiting on a block that is not running, a status never published) would freeze the GPU and
// the terminal; instead the ready-made wait gives up after kWatchdogSeconds, writes who waited
// for what into page-locked host memory, and stops the kernel with a trap (course/watchdog.hpp:
// the budget, the report, arm_watchdog() before a launch). The CUDA context is then lost: the
// test prints the report and ends the program.
using course::arm_watchdog;
using course::kWatchdogSeconds;
using course::Watchdog;
// "" when no wait gave up since the last arm_watchdog(); otherwise what waited for what.
std::string watchdog_report();

// ---- The CPU reference ---------------------------------------------------------------------------
// Ints: the exact inclusive scan modulo 2^32 (unsigned arithmetic, as the GPU's).
std::vector<int> cpu_scan(const std::vector<int>& input, std::size_t n);
// Floats: the scan in double, and the running sum of magnitudes sum_{j <= i} |x_j| that the
// bound scales with. The double sum's own error (at most i 2^-53 times that magnitude) is
// counted as one more rounding in scan_depth().
void cpu_scan(const std::vector<float>& input, std::size_t n, std::vector<double>& scan,
              std::vector<double>& magnitude);
// How many roundings element i's result may go through in any step of this chapter (the depth
// of its summation; README "Floats: the bound"): within its tile, at most kItemsPerThread serial
// adds, two warp scans of 5 levels and a tile prefix, so 64 covers every step's tile; then one
// add per earlier tile of at least 256 elements (the longest chain: a look-back or a carried
// prefix adds the tiles' totals one after another); never more than i + 1 adds in all.
std::size_t scan_depth(std::size_t i);

// ---- The steps ------------------------------------------------------------------------------------
template <typename T>
using ScanFn = void (*)(const T* input, T* output, long long n, Workspace& workspace);

// The functions the steps write, in step order: step 1 two (Kogge-Stone, Brent-Kung).
struct StepFunction {
  int number;        // the step (kSteps[number - kFirstStep] has its file)
  const char* name;  // e.g. "step3_reduce_then_scan"
};
inline constexpr StepFunction kStepFunctions[] = {
    {1, "step1_kogge_stone"},      {1, "step1_brent_kung"},
    {2, "step2_register_scan"},    {3, "step3_reduce_then_scan"},
    {4, "step4_decoupled_lookback"},
};
inline constexpr int kStepFunctionCount = sizeof(kStepFunctions) / sizeof(kStepFunctions[0]);
static_assert(kStepFunctions[0].number == kFirstStep &&
                  kStepFunctions[kStepFunctionCount - 1].number == kFirstStep + kStepCount - 1,
              "kStepFunctions covers the steps of steps.json, in order");
// The file a learner edits for one of them, in exercises/09-scan/.
constexpr const char* file_of(const StepFunction& function) {
  return kSteps[function.number - kFirstStep].file;
}

#define SCAN_DECLARE_STEPS                                                                 \
  template <typename T>                                                                    \
  void step1_kogge_stone(const T* input, T* output, long long n, Workspace& ws);           \
  template <typename T>                                                                    \
  void step1_brent_kung(const T* input, T* output, long long n, Workspace& ws);           \
  template <typename T>                                                                    \
  void step2_register_scan(const T* input, T* output, long long n, Workspace& ws);        \
  template <typename T>                                                                    \
  void step3_reduce_then_scan(const T* input, T* output, long long n, Workspace& ws);     \
  template <typename T>                                                                    \
  void step4_decoupled_lookback(const T* input, T* output, long long n, Workspace& ws);

// Each step's file instantiates its functions for the element types the course uses.
#define SCAN_INSTANTIATE(step)                                                 \
  template void step<int>(const int*, int*, long long, Workspace&);            \
  template void step<float>(const float*, float*, long long, Workspace&);

namespace solution {
SCAN_DECLARE_STEPS
}  // namespace solution

namespace exercise {
SCAN_DECLARE_STEPS
}  // namespace exercise

// kStepFunctions in namespace `ns`, in that order, for element type T.
#define SCAN_STEP_FUNCTIONS(ns)                                                    \
  ns::step1_kogge_stone<T>, ns::step1_brent_kung<T>, ns::step2_register_scan<T>, \
      ns::step3_reduce_then_scan<T>, ns::step4_decoupled_lookback<T>

template <typename T>
ScanFn<T> solution_step(int index) {
  constexpr ScanFn<T> steps[] = {SCAN_STEP_FUNCTIONS(solution)};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepFunctionCount, "one per kStepFunctions");
  return steps[index];
}
template <typename T>
ScanFn<T> exercise_step(int index) {
  constexpr ScanFn<T> steps[] = {SCAN_STEP_FUNCTIONS(exercise)};
  return steps[index];
}

}  // namespace scan
