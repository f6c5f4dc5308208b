// Chapter 11, attention: FlashAttention's forward pass, from three library calls to one fused
// kernel on the tensor cores. This header is the API that the exercise and the solution (and the
// known mistakes planted into it) implement, and the host-side pieces they share. Plain C++ apart
// from the CUDA runtime and the FP16 type: the host tests include it.
//
// Every step computes, for each batch b, head h and query row i,
//   O[b][i][h][:] = sum_j softmax_j(Q[b][i][h][:] . K[b][j][h][:] / sqrt(head_dim)) V[b][j][h][:]
// Q, K, V and O are [batch][tokens][heads][head_dim] arrays of FP16 on the GPU (the layout that
// FlashAttention and cuDNN take: one token's heads side by side); the products accumulate in
// FP32, the softmax is FP32, O is rounded to FP16 once. Causal: row i sees keys 0..i only (the
// queries and keys are the same tokens). No row is ever empty: key 0 is always seen.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention_steps.hpp"  // kSteps, kStepCount: generated from steps.json
#include "course/device_buffer.hpp"
#include "course/errors.hpp"

namespace attention {

// The head dimensions the steps are built for (their tiles are templates on it).
inline constexpr int kHeadDims[] = {64, 128};
// The longest sequence a step takes. Step 1 also holds one head's tokens x tokens scores (FP32)
// and probabilities (FP16) at once: 6 bytes per pair, 6 GiB at 32K tokens.
inline constexpr long long kMaxTokens = 1LL << 20;
inline constexpr long long kMaxUnfusedTokens = 32768;
// Batch and heads become the grid's z and y dimensions (at most 65535 each).
inline constexpr long long kMaxBatch = 65535;
inline constexpr long long kMaxHeads = 65535;
// Step 1 computes the scores of this many bytes' worth of heads per pair of GEMMs (at least one
// head): the N x N matrices of every head at once would need 6 N^2 heads bytes.
inline constexpr std::size_t kUnfusedBudgetBytes = std::size_t{1} << 30;

// Steps 2 and 3: a block takes 16 x RowTiles x Warps query rows of one (batch, head) and walks
// the keys in tiles of kTileKeys. Step 2: 4 warps of 16 rows (64 per block); step 3: 4 warps of
// 32 rows (two 16-row tiles per warp share every K and V fragment; 128 per block), its K and V
// tiles in kStep3Stages buffers.
inline constexpr int kTileKeys = 64;
inline constexpr int kStep2Warps = 4;
inline constexpr int kStep2RowTiles = 1;
inline constexpr int kStep3Warps = 4;
inline constexpr int kStep3RowTiles = 2;
inline constexpr int kStep3Stages = 2;
// Step 4 (Hopper): a block takes kStep4Rows query rows, 64 per consumer warpgroup, and walks the
// keys in tiles of kStep4Keys, its K and V tiles in kStep4Stages stages that the TMA fills.
inline constexpr int kStep4Rows = 128;
inline constexpr int kStep4Keys = 128;
inline constexpr int kStep4Stages = 2;

// Memory a step reuses from call to call, so that timing leaves allocation out: step 1's scores
// and probabilities, and its cuBLAS handle. Tests poison the buffers before each call (a value
// never written then reads as NaN).
class Workspace {
 public:
  Workspace();
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  // Starts a call: poisons every buffer when poisoning is on.
  void begin_call();
  // Room for `bytes` in buffer `slot` (0, 1, ...), 256-byte aligned; kept for the next call.
  void* scratch(int slot, std::size_t bytes);
  // The cuBLAS handle (a cublasHandle_t), created on first use; step 1 uses it.
  void* blas();
  void poison_before_each_run(bool enabled) { poison_ = enabled; }

 private:
  std::vector<course::DeviceBuffer<unsigned char>> buffers_;
  void* blas_ = nullptr;
  bool poison_ = false;
};

// One call's shape.
struct Shape {
  int batch = 0, heads = 0, tokens = 0, head_dim = 0;
  bool causal = false;
  long long elements() const {  // of each of Q, K, V and O
    return static_cast<long long>(batch) * tokens * heads * head_dim;
  }
};

// The argument checks every implementation makes first. Throws std::invalid_argument naming the
// step and the argument and saying what to pass: head_dim not 64 or 128; batch, heads or tokens
// below 1 or above the limits above (step 1: kMaxUnfusedTokens); a null pointer; a pointer not
// aligned to 16 bytes (the steps move 16-byte pieces); O overlapping Q, K or V.
void check_arguments(const char* step, const __half* q, const __half* k, const __half* v,
                     const __half* o, const Shape& shape, long long max_tokens);

// ---- Steps that need a newer GPU ----------------------------------------------------------------
// Steps 2 and 3 use mma.sync.m16n8k16 and cp.async, which exist from compute capability 8.0 on,
// and their code must be built for 8.0 or newer. Steps 4 and 5 use wgmma and setmaxnreg, which
// exist only in sm_90a code: compute capability 9.0 exactly. "" when step `step` runs here;
// otherwise why not ("step 2 needs compute capability 8.0 or newer (mma.sync.m16n8k16,
// cp.async); this GPU, NVIDIA T4, is 7.5"). Tests and benchmark rows SKIP with this text.
std::string why_step_cannot_run(int step);
// True when the GPU could run the step but this build's code cannot (a build for an older
// architecture, e.g. -Dgpu_arch=sm_75 on an 8.0 GPU): a build to redo, not a GPU to change.
bool step_needs_a_rebuild(int step);
// Throws course::StepNeedsAnotherGpu with why_step_cannot_run's text where the step cannot run.
using course::StepNeedsAnotherGpu;
void require_gpu_for_step(int step);
// True when the current GPU runs this build's sm_90a code (attention_hopper.cu asks it).
bool sm90a_code_runs();

// FLOPs of one call, the convention of FlashAttention's papers: 4 batch heads N^2 d (the two
// products), half of it when causal.
double flops(const Shape& shape);

// ---- The CPU reference (double precision), and the data the tests and the benchmark use ---------
// n seeded values uniform in [-scale, scale) (course::random_floats), each rounded to the nearest
// FP16 and kept as a float, so that the GPU and the CPU reference see the very same numbers; and
// such values as FP16, for the GPU.
std::vector<float> fp16_values(std::size_t n, double scale, std::uint64_t seed);
std::vector<__half> to_fp16(const std::vector<float>& values);

// The largest difference from the reference that a value of O may have when |V| <= 1: 2^-9
// (README, "The error bound", says why).
double error_bound();

// O for query rows `rows` of head (b, h), from the FP16 inputs as floats: out[r * head_dim + c].
std::vector<double> cpu_attention_rows(const std::vector<float>& q, const std::vector<float>& k,
                                       const std::vector<float>& v, const Shape& shape, int b,
                                       int h, const std::vector<int>& rows);

// ---- The steps ----------------------------------------------------------------------------------
using AttentionFn = void (*)(const __half* q, const __half* k, const __half* v, __half* o,
                             const Shape& shape, Workspace& workspace);

struct StepFunction {
  int number;             // the step (kSteps[number - kFirstStep] has its file)
  const char* name;       // e.g. "step2_flash_mma"
  long long max_tokens;   // the longest sequence it takes
};
inline constexpr StepFunction kStepFunctions[] = {
    {1, "step1_unfused", kMaxUnfusedTokens},
    {2, "step2_flash_mma", kMaxTokens},
    {3, "step3_pipelined", kMaxTokens},
    {4, "step4_wgmma", kMaxTokens},
    {5, "step5_pingpong", kMaxTokens},
};
inline constexpr int kStepFunctionCount = sizeof(kStepFunctions) / sizeof(kStepFunctions[0]);
static_assert(kStepFunctionCount == kStepCount && kStepFunctions[0].number == kFirstStep,
              "one function per step of steps.json, in order");

#define ATTENTION_DECLARE_STEPS                                                              \
  void step1_unfused(const __half* q, const __half* k, const __half* v, __half* o,          \
                     const Shape& shape, Workspace& ws);                                    \
  void step2_flash_mma(const __half* q, const __half* k, const __half* v, __half* o,        \
                       const Shape& shape, Workspace& ws);                                  \
  void step3_pipelined(const __half* q, const __half* k, const __half* v, __half* o,        \
                       const Shape& shape, Workspace& ws);                                  \
  void step4_wgmma(const __half* q, const __half* k, const __half* v, __half* o,            \
                   const Shape& shape, Workspace& ws);                                      \
  void step5_pingpong(const __half* q, const __half* k, const __half* v, __half* o,         \
                      const Shape& shape, Workspace& ws);

namespace solution {
ATTENTION_DECLARE_STEPS
}  // namespace solution

namespace exercise {
ATTENTION_DECLARE_STEPS
}  // namespace exercise

#define ATTENTION_STEPS(ns) \
  ns::step1_unfused, ns::step2_flash_mma, ns::step3_pipelined, ns::step4_wgmma, \
      ns::step5_pingpong

inline AttentionFn solution_step(int index) {
  constexpr AttentionFn steps[] = {ATTENTION_STEPS(solution)};
  static_assert(sizeof(steps) / sizeof(steps[0]) == kStepFunctionCount, "one per step");
  return steps[index];
}
inline AttentionFn exercise_step(int index) {
  constexpr AttentionFn steps[] = {ATTENTION_STEPS(exercise)};
  return steps[index];
}

}  // namespace attention
