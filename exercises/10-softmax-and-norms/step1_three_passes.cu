// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.1
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 1: softmax in three passes, one kernel each: the row's max, the sum of exp(x - max), and
// the normalization exp(x - max) / sum. Subtracting the max makes every exponent <= 0, so no
// exp overflows whatever the inputs (exp(89) is already past FLT_MAX), and the largest term is
// exactly 1, so the sum is at least 1. One block per row; each thread walks the row with a
// stride of the block size (neighbouring threads read neighbouring columns: coalesced), and the
// block combines its threads' results with the block reduction of step 2 (ready-made here).
// Traffic: the row is read three times and written once, 4 words per element where a copy
// moves 2: at most half the copy's rate.
#include <climits>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::exercise {

namespace {

constexpr int kStep1Threads = 256;

// Pass 1: row_max[r] = the largest value of row r.
__global__ void __launch_bounds__(kStep1Threads) row_max_kernel(const float* input,
                                                                long long rows, int cols,
                                                                float* row_max) {
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* x = input + r * cols;
    float max = -INFINITY;
    // TODO (step 1): the largest of this thread's values of row r: the columns threadIdx.x,
    //       threadIdx.x + blockDim.x, ... up to the end of the row, so that neighbouring threads
    //       read neighbouring columns.
    max = ready_made::block_reduce(max, Max{});
    if (threadIdx.x == 0) row_max[r] = max;
  }
}

// Pass 2: row_sum[r] = the sum over row r of exp(x - its max).
__global__ void __launch_bounds__(kStep1Threads) row_sum_kernel(const float* input,
                                                                long long rows, int cols,
                                                                const float* row_max,
                                                                float* row_sum) {
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* x = input + r * cols;
    const float shift = shift_for(row_max[r]);  // the max; 0 for a row that is all -inf
    float sum = 0.0f;
    // TODO (step 1): the sum of exp(value - shift) over this thread's values of row r (the same
    //       columns as in pass 1). Every exponent is then at most 0: no term can overflow.
    sum = ready_made::block_reduce(sum, Sum{});
    if (threadIdx.x == 0) row_sum[r] = sum;
  }
}

// Pass 3: y = exp(x - max) / sum, every element read a third time.
__global__ void __launch_bounds__(kStep1Threads) normalize_kernel(const float* input,
                                                                  float* output, long long rows,
                                                                  int cols,
                                                                  const float* row_max,
                                                                  const float* row_sum) {
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* x = input + r * cols;
    float* y = output + r * cols;
    const float shift = shift_for(row_max[r]);
    const float scale = scale_for(row_sum[r]);  // 1 / sum; 0 for a row that is all -inf
    // TODO (step 1): write every output of row r that this thread owns: exp(value - shift),
    //       multiplied by scale (a multiplication is cheaper than a division per element).
  }
}

}  // namespace

void step1_three_passes(const float* input, float* output, long long rows, long long cols,
                        Workspace& workspace) {
  check_softmax_arguments("step1_three_passes", input, output, rows, cols, kMaxCols, false);
  workspace.begin_call();
  auto* row_max = static_cast<float*>(workspace.scratch(0, rows * sizeof(float)));
  auto* row_sum = static_cast<float*>(workspace.scratch(1, rows * sizeof(float)));
  const auto grid = static_cast<unsigned>(rows < INT_MAX ? rows : INT_MAX);
  const int n = static_cast<int>(cols);
  row_max_kernel<<<grid, kStep1Threads>>>(input, rows, n, row_max);
  COURSE_CHECK_LAUNCH("row_max_kernel");
  row_sum_kernel<<<grid, kStep1Threads>>>(input, rows, n, row_max, row_sum);
  COURSE_CHECK_LAUNCH("row_sum_kernel");
  normalize_kernel<<<grid, kStep1Threads>>>(input, output, rows, n, row_max, row_sum);
  COURSE_CHECK_LAUNCH("normalize_kernel");
  for (int launch = 0; launch < 3; ++launch) workspace.count_launch();
}

}  // namespace softmax_and_norms::exercise
