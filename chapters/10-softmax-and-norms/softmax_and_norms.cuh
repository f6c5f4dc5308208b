// Chapter 10, softmax and norms: the row-wise kernels of every model, at the memory's speed.
// This header is the API that the exercise and the solution (and the known mistakes planted into
// it) implement, and the host-side pieces they share. Plain C++ apart from the CUDA runtime and
// the FP16 and BF16 types: the host tests include it.
//
// Every function works on a row-major matrix of `rows` x `cols` elements already on the GPU and
// writes a matrix of the same shape; input and output may be the same array (every element is
// read before it is written, by the thread that writes it).
//   softmax (steps 1-4, FP32):  y[r][c] = exp(x[r][c] - max_r) / sum_c' exp(x[r][c'] - max_r)
//   LayerNorm (step 5, FP16 or BF16):  y[r][c] = (x[r][c] - mean_r) / sqrt(var_r + eps)
//                                                * gamma[c] + beta[c]
//   RMSNorm (step 5, FP16 or BF16):    y[r][c] = x[r][c] / sqrt(mean_c'(x[r][c']^2) + eps)
//                                                * gamma[c]
// A row that is entirely -inf (every position masked) has no probability to distribute: its
// softmax is 0 in every column, as in PyTorch's scaled_dot_product_attention and FlashAttention
// (README, "A row with nothing in it").
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "softmax_and_norms_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace softmax_and_norms {

// The most rows and columns any step takes (a row's elements are counted in 32-bit integers; a
// matrix's in 64-bit ones).
inline constexpr long long kMaxRows = (1LL << 31) - 1;
inline constexpr long long kMaxCols = 1LL << 30;
// Steps 2, 3 and 5 hold a whole row on chip, in registers: at most 1024 threads x 32 values.
// Longer rows are step 4's (or step 1's) to do.
inline constexpr long long kMaxOnChipCols = 32768;

// Step 3: rows up to this many columns get one warp each (up to 8 float4 vectors per lane);
// longer ones one block each, with 8 vectors per thread.
inline constexpr int kWarpRowMaxCols = 1024;
// Step 4: each block of the first pass reduces this many columns of a row to one (max, sum)
// pair, with this many threads; a row of n columns has ceil(n / kChunkCols) pairs.
inline constexpr int kChunkCols = 16384;
inline constexpr int kStep4Threads = 256;
// Step 6: a row is cut into slices, one block each, and the blocks of a row form one thread block
// cluster (compute capability 9.0). Rows longer than 8 slices of kClusterSliceCols columns whose
// length is a multiple of 4: clusters of 8 blocks. Other rows: as many blocks as keep a slice at
// most kClusterSliceCols columns (2 at least), at most kMaxClusterBlocks (16: beyond the portable
// 8, which H100 and H200 allow; 8 elsewhere, with longer slices). Rows up to kMaxClusterCols
// columns stay on chip.
inline constexpr int kClusterSliceCols = 8192;
inline constexpr int kMaxClusterBlocks = 16;
inline constexpr long long kMaxClusterCols = 262144;

// Memory a step reuses from call to call, so that timing leaves allocation out: step 1's row
// maxima and sums, step 4's (max, sum) pairs; and how many kernels the last call launched. Tests
// poison it before each call (an unwritten value then reads as NaN).
class Workspace {
 public:
  // Starts a call: resets the launch count; poisons every buffer when poisoning is on.
  void begin_call();
  // Room for `bytes` in buffer `slot` (0, 1, ...), 256-byte aligned; kept for the next call.
  void* scratch(int slot, std::size_t bytes);
  void count_launch() { ++launches_; }
  int launches() const { return launches_; }
  void poison_before_each_run(bool enabled) { poison_ = enabled; }

 private:
  std::vector<course::DeviceBuffer<unsigned char>> buffers_;
  int launches_ = 0;
  bool poison_ = false;
};

// ---- Argument checks ----------------------------------------------------------------------------
// Each throws std::invalid_argument naming the step and the argument, and saying what to pass:
//   rows, cols: below 1, or above kMaxRows, kMaxCols (or `max_cols` for the steps that hold the
//   row on chip); input, output (gamma, beta): null, or not aligned to their element; for the
//   steps that read and write 16-byte vectors (`vectors`), not aligned to 16 bytes.
void check_softmax_arguments(const char* step, const float* input, const float* output,
                             long long rows, long long cols, long long max_cols, bool vectors);
// beta may be null only when `has_beta` is false (RMSNorm); epsilon must be positive and finite.
void check_norm_arguments(const char* step, const __half* input, const __half* output,
                          const __half* gamma, const __half* beta, bool has_beta, long long rows,
                          long long cols, float epsilon);
void check_norm_arguments(const char* step, const __nv_bfloat16* input,
                          const __nv_bfloat16* output, const __nv_bfloat16* gamma,
                          const __nv_bfloat16* beta, bool has_beta, long long rows, long long cols,
                          float epsilon);

// ---- Steps that need a newer GPU ----------------------------------------------------------------
// Step 6 launches thread block clusters, which exist from compute capability 9.0 on, and its
// code must be built for 9.0 or newer. "" when step `step` runs here; otherwise why not ("step 6
// needs compute capability 9.0 or newer (thread block clusters); this GPU, NVIDIA T4, is 7.5").
// Tests and benchmark rows SKIP with this text.
std::string why_step_cannot_run(int step);
// True when the GPU could run the step but this build's code cannot (a build for an older
// architecture, e.g. -Dgpu_arch=sm_75 on a 9.0 GPU): a build to redo, not a GPU to change.
bool step_needs_a_rebuild(int step);
// Throws course::StepNeedsAnotherGpu with why_step_cannot_run's text on a GPU (or from a build)
// that cannot run the step.
using course::StepNeedsAnotherGpu;
void require_gpu_for_step(int step);

// Waits for the GPU's work to finish, at most course::kHangSeconds (course/watchdog.hpp). Past
// that it prints what the step's code must do for its kernel to end (a cluster barrier that
// some thread never reaches waits forever, and no GPU code can give it up), names `file` to
// edit, and ends the program: the kernel cannot be stopped otherwise.
void synchronize_or_stop(const std::string& step, const std::string& file);

// ---- The CPU references (double precision) ------------------------------------------------------
// Softmax of each row, with the course's policy for a row that is entirely -inf (all 0).
std::vector<double> cpu_softmax(const std::vector<float>& input, long long rows, long long cols);

// LayerNorm (beta non-empty) or RMSNorm (beta empty) of each row, from the FP16 or BF16 values as
// floats. Also returns, per row, the quantities the tests' error bound scales with: the row's mean
// (0 for RMSNorm) and 1 / sqrt(var + eps) (or 1 / sqrt(mean square + eps)).
struct NormReference {
  std::vector<double> output;
  std::vector<double> shift;  // per row: what is subtracted (the mean; 0 for RMSNorm)
  std::vector<double> scale;  // per row: what the difference is multiplied by
};
NormReference cpu_norm(const std::vector<float>& input, const std::vector<float>& gamma,
                       const std::vector<float>& beta, long long rows, long long cols,
                       double epsilon);

// ---- The steps ----------------------------------------------------------------------------------
using SoftmaxFn = void (*)(const float* input, float* output, long long rows, long long cols,
                           Workspace& workspace);
// The norms take T = __half (FP16) or __nv_bfloat16 (BF16): one overload each.
template <typename T>
using LayerNormFn = void (*)(const T* input, T* output, const T* gamma, const T* beta,
                             long long rows, long long cols, float epsilon);
template <typename T>
using RmsNormFn = void (*)(const T* input, T* output, const T* gamma, long long rows,
                           long long cols, float epsilon);

// The functions the steps write: steps 1-4 and 6 a softmax each, step 5 two norms.
struct StepFunction {
  int number;          // the step (kSteps[number - kFirstStep] has its file)
  const char* name;    // e.g. "step3_warp_per_row"
  long long max_cols;  // the longest row it takes
};
inline constexpr StepFunction kSoftmaxSteps[] = {
    {1, "step1_three_passes", kMaxCols},
    {2, "step2_block_per_row", kMaxOnChipCols},
    {3, "step3_warp_per_row", kMaxOnChipCols},
    {4, "step4_online_softmax", kMaxCols},
    {6, "step6_cluster_softmax", kMaxClusterCols},
};
inline constexpr int kSoftmaxStepCount = sizeof(kSoftmaxSteps) / sizeof(kSoftmaxSteps[0]);
inline constexpr StepFunction kNormSteps[] = {
    {5, "step5_layer_norm", kMaxOnChipCols},
    {5, "step5_rms_norm", kMaxOnChipCols},
};
inline constexpr int kNormStepCount = sizeof(kNormSteps) / sizeof(kNormSteps[0]);
static_assert(kSoftmaxSteps[0].number == kFirstStep && kNormSteps[0].number == 5 &&
                  kSoftmaxSteps[kSoftmaxStepCount - 1].number == kFirstStep + kStepCount - 1,
              "kSoftmaxSteps and kNormSteps cover the steps of steps.json: softmax 1-4, the "
              "norms 5, softmax across a cluster 6");
// The file a learner edits for one of them, in exercises/10-softmax-and-norms/.
constexpr const char* file_of(const StepFunction& function) {
  return kSteps[function.number - kFirstStep].file;
}

#define SOFTMAX_AND_NORMS_DECLARE_STEPS                                                        \
  void step1_three_passes(const float* input, float* output, long long rows, long long cols,  \
                          Workspace& ws);                                                     \
  void step2_block_per_row(const float* input, float* output, long long rows, long long cols, \
                           Workspace& ws);                                                    \
  void step3_warp_per_row(const float* input, float* output, long long rows, long long cols,  \
                          Workspace& ws);                                                     \
  void step4_online_softmax(const float* input, float* output, long long rows, long long cols,\
                            Workspace& ws);                                                   \
  void step5_layer_norm(const __half* input, __half* output, const __half* gamma,             \
                        const __half* beta, long long rows, long long cols, float epsilon);   \
  void step5_rms_norm(const __half* input, __half* output, const __half* gamma,               \
                      long long rows, long long cols, float epsilon);                         \
  void step5_layer_norm(const __nv_bfloat16* input, __nv_bfloat16* output,                    \
                        const __nv_bfloat16* gamma, const __nv_bfloat16* beta, long long rows,\
                        long long cols, float epsilon);                                       \
  void step5_rms_norm(const __nv_bfloat16* input, __nv_bfloat16* output,                      \
                      const __nv_bfloat16* gamma, long long rows, long long cols,             \
                      float epsilon);                                                         \
  void step6_cluster_softmax(const float* input, float* output, long long rows,               \
                             long long cols, Workspace& ws);

namespace solution {
SOFTMAX_AND_NORMS_DECLARE_STEPS
}  // namespace solution

namespace exercise {
SOFTMAX_AND_NORMS_DECLARE_STEPS
}  // namespace exercise

// kSoftmaxSteps in namespace `ns`, in that order.
#define SOFTMAX_AND_NORMS_SOFTMAX_STEPS(ns)                                                   \
  ns::step1_three_passes, ns::step2_block_per_row, ns::step3_warp_per_row,                    \
      ns::step4_online_softmax, ns::step6_cluster_softmax

inline SoftmaxFn solution_softmax(int index) {
  constexpr SoftmaxFn steps[] = {SOFTMAX_AND_NORMS_SOFTMAX_STEPS(solution)};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kSoftmaxStepCount, "one per kSoftmaxSteps");
  return steps[index];
}
inline SoftmaxFn exercise_softmax(int index) {
  constexpr SoftmaxFn steps[] = {SOFTMAX_AND_NORMS_SOFTMAX_STEPS(exercise)};
  return steps[index];
}

// Step 5's norms for elements of type T (__half or __nv_bfloat16), of the solution or of the
// exercise: the function type picks the overload.
template <typename T>
LayerNormFn<T> layer_norm_of(bool solution) {
  if (solution) return solution::step5_layer_norm;
  return exercise::step5_layer_norm;
}
template <typename T>
RmsNormFn<T> rms_norm_of(bool solution) {
  if (solution) return solution::step5_rms_norm;
  return exercise::step5_rms_norm;
}

}  // namespace softmax_and_norms
