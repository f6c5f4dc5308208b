// Chapter 06, warp-level reduction: from the classic kernels 6 and 7 (complete unrolling, many
// elements per thread) to warp shuffles, 16-byte loads and a single launch, at and beyond CUB. This
// header is the API that the exercise and the solution (and the known mistakes planted into it)
// implement, and the host-side pieces they share. Plain C++ apart from the CUDA runtime.
//
// Every step computes the sum of n elements (int, float or double) already on the GPU and
// returns it on the host. Steps 1-4 reduce in passes (a kernel per pass, the host launches the
// next one); steps 5 and 6 need a single launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"
#include "course/math.hpp"
#include "warp_reduction_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace warp_reduction {

// The block sizes the kernels are compiled for: the block size is a template parameter from
// step 1 on, and the shuffle steps need whole warps (at most 32 of them per block).
inline constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

// Memory a reduction reuses from call to call, so that timing leaves allocation out: two
// ping-pong buffers of block sums, the one-launch steps' result slot and ticket counter, and
// how many kernels the last call launched. The buffers are guarded (course/guarded_buffer.hpp):
// a kernel that writes past its block sums is reported by the tests.
template <typename T>
class Workspace {
 public:
  // Starts a call that writes up to `block_sums` sums: makes room, resets the launch count,
  // and poisons the sums and the result when poisoning is on (tests: unwritten sums then read
  // as NaN or -1).
  void begin_call(std::size_t block_sums);
  T* block_sums(int which) { return sums_[which].data(); }
  T* result() { return result_.data(); }
  // Zero between calls: the one-launch kernels' last block puts it back to 0.
  unsigned* ticket() { return ticket_.data(); }
  void count_launch() { ++launches_; }
  int launches() const { return launches_; }
  void poison_before_each_run(bool enabled) { poison_ = enabled; }
  // Benchmarks: the step leaves its sum on the GPU and returns T(0), so that a timed call holds
  // the launches alone, as CUB's DeviceReduce does; copy_last_sum() reads it afterwards.
  void leave_sum_on_device(bool enabled) { leave_on_device_ = enabled; }
  // Ends a call whose sum is at `device_sum` (null: n = 0, the sum is 0): copies it to the host
  // and returns it, unless leave_sum_on_device is on.
  T finish_call(const T* device_sum);
  // The last call's sum, copied to the host now.
  T copy_last_sum() const;
  // "" when no kernel wrote outside the block sums or the result, else what it wrote where.
  std::string margin_report() const;

 private:
  course::GuardedBuffer<T> sums_[2];
  course::GuardedBuffer<T> result_;
  course::GuardedBuffer<unsigned> ticket_;
  int launches_ = 0;
  bool poison_ = false;
  bool leave_on_device_ = false;
  const T* last_sum_ = nullptr;
};

// Argument checks shared by every implementation; each throws std::invalid_argument naming the
// step and saying what to pass instead.
//   input: null with n > 0, or not aligned to its element type;
//   block_size: not one of kBlockSizes.
void check_arguments(const char* step, const void* input, std::size_t n, std::size_t alignment,
                     int block_size);
template <typename T>
void check_arguments(const char* step, const T* input, std::size_t n, int block_size) {
  check_arguments(step, input, n, alignof(T), block_size);
}
// Step 1 covers a fixed number of elements per block: larger inputs would need more than the
// 2^31 - 1 blocks a grid holds.
void check_grid(const char* step, std::size_t n, std::size_t elements_per_block);

// Blocks for a grid-stride kernel: enough for every block to get `elements_per_block`, and at
// most as many as the GPU runs at once (blocks per multiprocessor, from the occupancy API, times
// the multiprocessors), so that each thread loops over many elements. A pass over no more values
// than that (the block sums of an earlier pass), or over two rounds of one block, gets one
// block: two passes for any n, one for tiny inputs. `threads_per_multiprocessor` > 0 caps the
// resident threads below what the occupancy API allows (steps 4-6). `kernel` is the __global__
// function (cached per kernel, block size and cap).
unsigned grid_stride_blocks(const void* kernel, int block_size, std::size_t n,
                            std::size_t elements_per_block, int threads_per_multiprocessor = 0);

// Elements before the first 16-byte boundary of `input` (at most n): the vectorized steps add
// them one by one, then read 16-byte vectors from there on.
template <typename T>
std::size_t unaligned_head(const T* input, std::size_t n) {
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(input) % 16;
  const std::size_t head = misalignment == 0 ? 0 : (16 - misalignment) / sizeof(T);
  return head < n ? head : n;
}

// Calls launch(std::integral_constant<unsigned, B>{}) with B equal to `block_size`, so that a
// launcher can instantiate its kernel for a compile-time block size. block_size must have
// passed check_arguments().
template <typename Launch>
decltype(auto) with_block_size(int block_size, Launch&& launch) {
  switch (block_size) {
    case 64: return launch(std::integral_constant<unsigned, 64>{});
    case 128: return launch(std::integral_constant<unsigned, 128>{});
    case 256: return launch(std::integral_constant<unsigned, 256>{});
    case 512: return launch(std::integral_constant<unsigned, 512>{});
    default: return launch(std::integral_constant<unsigned, 1024>{});
  }
}

// Steps 1-4: passes until one value is left. blocks_for(count) is the grid of a pass over
// `count` values; launch(in, out, count, blocks) launches it, one sum per block into `out`.
// The kernel boundary is the only barrier between blocks, so each pass is a launch.
// n = 0 gives 0, the identity of the sum, without a launch.
template <typename T, typename BlocksFor, typename Launch>
T reduce_in_passes(const T* input, std::size_t n, Workspace<T>& workspace, BlocksFor&& blocks_for,
                   Launch&& launch) {
  if (n == 0) return workspace.finish_call(nullptr);
  workspace.begin_call(blocks_for(n));
  const T* in = input;
  int out = 0;
  std::size_t count = n;
  while (count > 1) {
    const std::size_t blocks = blocks_for(count);
    launch(in, workspace.block_sums(out), count, blocks);
    workspace.count_launch();
    in = workspace.block_sums(out);
    out = 1 - out;
    count = blocks;
  }
  return workspace.finish_call(in);
}

// The exact sum (long double: a 64-bit mantissa, exact for the course's int inputs) and the
// magnitude sum |x_i| that the rounding bound scales with.
template <typename T>
long double cpu_sum(const T* values, std::size_t n);
template <typename T>
long double cpu_magnitude(const T* values, std::size_t n);

// How many additions any one element can go through in these steps (the depth of the
// summation), for n elements, the block size and this GPU's multiprocessor count: a
// grid-stride thread adds up to n / (threads of the grid) elements one after another, then a
// tree of log2(block) levels, then the same again over the block sums, plus the head, the tail
// and the vector's components. Every step's grid has at least min(blocks needed, SMs) blocks.
// The allowed rounding error is course::summation_error_bound<T>(cpu_magnitude, this depth)
// (course/rounding.hpp): gamma_L * sum |x_i|, 0 for integers.
std::size_t summation_depth(std::size_t n, int block_size, int multiprocessors);

template <typename T>
using ReduceFn = T (*)(const T* input, std::size_t n, int block_size, Workspace<T>& workspace);

// The functions the steps write, in step order: each step one, step 6 two library forms.
struct StepFunction {
  int number;        // the step (kSteps[number - kFirstStep] has its file)
  const char* name;  // e.g. "step3_warp_shuffle"
  bool one_launch;   // steps 5 and 6: no host loop
};
inline constexpr StepFunction kStepFunctions[] = {
    {1, "step1_complete_unroll", false},    {2, "step2_grid_stride", false},
    {3, "step3_warp_shuffle", false},       {4, "step4_vector_loads", false},
    {5, "step5_one_launch", true},          {6, "step6_cooperative_groups", true},
    {6, "step6_cub_block_reduce", true},
};
inline constexpr int kStepFunctionCount = sizeof(kStepFunctions) / sizeof(kStepFunctions[0]);
static_assert(kStepFunctions[0].number == kFirstStep &&
                  kStepFunctions[kStepFunctionCount - 1].number == kFirstStep + kStepCount - 1,
              "kStepFunctions covers the steps of steps.json, in order");
// The file a learner edits for one of them, in exercises/06-warp-reduction/.
constexpr const char* file_of(const StepFunction& function) {
  return kSteps[function.number - kFirstStep].file;
}

#define WARP_REDUCTION_DECLARE_STEPS                                                             \
  template <typename T>                                                                          \
  T step1_complete_unroll(const T* input, std::size_t n, int block_size, Workspace<T>& ws);     \
  template <typename T>                                                                          \
  T step2_grid_stride(const T* input, std::size_t n, int block_size, Workspace<T>& ws);         \
  template <typename T>                                                                          \
  T step3_warp_shuffle(const T* input, std::size_t n, int block_size, Workspace<T>& ws);        \
  template <typename T>                                                                          \
  T step4_vector_loads(const T* input, std::size_t n, int block_size, Workspace<T>& ws);        \
  template <typename T>                                                                          \
  T step5_one_launch(const T* input, std::size_t n, int block_size, Workspace<T>& ws);          \
  template <typename T>                                                                          \
  T step6_cooperative_groups(const T* input, std::size_t n, int block_size, Workspace<T>& ws);  \
  template <typename T>                                                                          \
  T step6_cub_block_reduce(const T* input, std::size_t n, int block_size, Workspace<T>& ws);

// Each step's file instantiates its function for the element types the course uses.
#define WARP_REDUCTION_INSTANTIATE(step)                                       \
  template int step<int>(const int*, std::size_t, int, Workspace<int>&);       \
  template float step<float>(const float*, std::size_t, int, Workspace<float>&); \
  template double step<double>(const double*, std::size_t, int, Workspace<double>&);

namespace solution {
WARP_REDUCTION_DECLARE_STEPS
}  // namespace solution

namespace exercise {
WARP_REDUCTION_DECLARE_STEPS
}  // namespace exercise

// kStepFunctions in namespace `ns`, in that order, for element type T.
#define WARP_REDUCTION_STEP_FUNCTIONS(ns)                                            \
  ns::step1_complete_unroll<T>, ns::step2_grid_stride<T>, ns::step3_warp_shuffle<T>, \
      ns::step4_vector_loads<T>, ns::step5_one_launch<T>,                            \
      ns::step6_cooperative_groups<T>, ns::step6_cub_block_reduce<T>

// kStepFunctions[index] in an implementation, for element type T.
template <typename T>
ReduceFn<T> solution_step(int index) {
  constexpr ReduceFn<T> steps[] = {WARP_REDUCTION_STEP_FUNCTIONS(solution)};
  return steps[index];
}
template <typename T>
ReduceFn<T> exercise_step(int index) {
  constexpr ReduceFn<T> steps[] = {WARP_REDUCTION_STEP_FUNCTIONS(exercise)};
  return steps[index];
}

}  // namespace warp_reduction
