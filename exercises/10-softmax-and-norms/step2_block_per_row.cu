// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.2
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 2: one block per row, fused: the row is read once, into registers, and the max, the sum
// and the normalization all work on those registers. Changed from step 1: one launch instead of
// three, 2 words of traffic per element instead of 4 (the copy's 2), so up to twice as fast.
// The block's max and sum are chapter 06's reductions: a butterfly of shuffles inside each warp,
// one value per warp in shared memory, a barrier, and every thread combines the warps' values.
// Each thread holds kItems values, columns threadIdx.x + i * blockDim.x (coalesced 4-byte loads);
// a row holds at most 1024 threads x 32 values.
#include <climits>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"

namespace softmax_and_norms::exercise {

// op(...) of `value` over the 32 lanes of the warp, in every lane. Every lane of the warp calls
// it. `op` is associative and commutative (Max, Sum, and the merges of steps 4 and 5; the merges
// only up to rounding, so after them the lanes may hold results a last bit apart: step 6).
template <typename T, typename Op>
__device__ T warp_reduce(T value, Op op) {
  // TODO (step 2): combine the 32 lanes' values so that every lane ends with the result: in
  //       rounds with lane distances 16, 8, 4, 2, 1, each lane combines its value with the value
  //       of the lane that far away (shuffle_xor reads another lane's register).
  return value;
}

// op(...) of `value` over the whole block, in every thread. Every thread of the block calls it;
// blockDim.x is a multiple of 32. It ends with a barrier, so that it may be called again at once.
template <typename T, typename Op>
__device__ T block_reduce(T value, Op op) {
  __shared__ T warp_results[kMaxWarps];
  T result = value;
  // TODO (step 2): reduce within each warp, leave one value per warp in warp_results, and give
  //       every thread the combination of all the warps' values. No thread may read
  //       warp_results before every warp has written its value, and no warp may write it again
  //       (in the next call) before every thread has read it.
  return result;
}

// The softmax of a row held in registers by a group of threads: the whole block (kWholeBlock) or
// one warp. Each thread holds N of the row's values in x (-inf where a slot holds no column) and
// gets their softmax in place. Every thread of the group calls it.
template <bool kWholeBlock, int N>
__device__ void softmax_in_registers(float (&x)[N]) {
  // TODO (step 2): the row's max over the group (this thread's values first, then a reduction
  //       across the group: block_reduce, or warp_reduce for a warp), what to subtract from it
  //       (shift_for: a fully masked row has a max of -inf), then each value replaced by the exp
  //       of its difference with that, the group's sum of those, and each value multiplied by
  //       scale_for(the sum).
}

namespace {

template <int kItems>
__global__ void __launch_bounds__(1024) block_per_row_kernel(const float* input, float* output,
                                                             long long rows, int cols) {
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* in = input + r * cols;
    float* out = output + r * cols;
    float x[kItems];
    // TODO (step 2): read this thread's columns of row r once (threadIdx.x, then blockDim.x
    //       further each time; -inf where the column is past the row), take their softmax across
    //       the block in registers, and write the columns that exist.
  }
}

}  // namespace

void step2_block_per_row(const float* input, float* output, long long rows, long long cols,
                         Workspace& workspace) {
  check_softmax_arguments("step2_block_per_row", input, output, rows, cols, kMaxOnChipCols,
                          false);
  workspace.begin_call();
  // 256 threads while 32 values each hold the row, 1024 beyond; as few values per thread as do.
  const int threads = cols > 256 * 32 ? 1024 : 256;
  const long long items = course::ceil_div(cols, static_cast<long long>(threads));
  const auto grid = static_cast<unsigned>(rows < INT_MAX ? rows : INT_MAX);
  launch_with_at_least<4, 8, 16, 32>(items, [&](auto kItems) {
    block_per_row_kernel<decltype(kItems)::value>
        <<<grid, threads>>>(input, output, rows, static_cast<int>(cols));
  });
  COURSE_CHECK_LAUNCH("block_per_row_kernel");
  workspace.count_launch();
}

}  // namespace softmax_and_norms::exercise
