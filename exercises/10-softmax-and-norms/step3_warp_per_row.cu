// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.3
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 3: one warp per row for short rows, and 16-byte loads for every row.
// Changed from step 2: a row of up to kWarpRowMaxCols (1024) columns belongs to one warp. Its max
// and sum are warp reductions: shuffles only, no shared memory, no barrier, and a block of 128
// threads works on 4 rows at once, so a short row no longer leaves most of a block idle at its
// barriers. Longer rows keep one block each. And every thread now reads and writes 16-byte
// vectors (4 floats): a quarter of the load and store instructions of step 2, for the same
// bytes. Vector k of a row is its columns 4k ... 4k + 3; thread `index` of a group of `stride`
// threads holds vectors index, index + stride, ... (each warp-wide access: 512 consecutive bytes).
#include <climits>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::exercise {

// Vector k of `row` as floats into x[0 .. W) (W = kWidth<T>: 4 floats or 8 halves); `fill` where
// the vector's column is past the end of the row. A thread may ask for any k >= 0.
template <typename T>
__device__ void load_vector(RowOf<const T> row, int k, float fill, float* x) {
#pragma unroll
  for (int j = 0; j < kWidth<T>; ++j) x[j] = fill;
  // TODO (step 3): one 16-byte load where it is allowed: the row starts on a 16-byte boundary
  //       and the whole vector lies inside the row. Otherwise (a partial last vector, or a row
  //       that starts between two boundaries) read the vector's columns that exist one by one.
  //       Never read a column past the end of the row.
}

// y[0 .. W) into vector k of `row`, converted to T; only the columns that exist are written.
template <typename T>
__device__ void store_vector(RowOf<T> row, int k, const float* y) {
  // TODO (step 3): the mirror of load_vector: one 16-byte store for a whole vector of a row on
  //       a 16-byte boundary, else the existing columns one by one.
}

namespace {

constexpr int kWarpsPerBlock = 4;  // rows per block, in the warp-per-row kernel
constexpr int kBlockRowSlots = 8;  // vectors per thread, in the block-per-row kernel

// A row per group of threads: per warp (kWholeBlock false; kWarpsPerBlock rows per block), or
// per block. Each thread holds kSlots vectors of its row in registers. At most kMaxThreads
// threads per block: up to 256, a thread may have all the registers it wants; 1024 leave it 64.
template <int kSlots, bool kWholeBlock, int kMaxThreads>
__global__ void __launch_bounds__(kMaxThreads) rows_in_registers_kernel(const float* input,
                                                                        float* output,
                                                                        long long rows, int cols) {
  constexpr int W = kWidth<float>;
  const int index = kWholeBlock ? threadIdx.x : threadIdx.x % 32;  // this thread in its group
  const int stride = kWholeBlock ? blockDim.x : 32;                // the group's threads
  const int groups = kWholeBlock ? 1 : blockDim.x / 32;            // rows at once per block
  const long long step = static_cast<long long>(gridDim.x) * groups;
  for (long long r = static_cast<long long>(blockIdx.x) * groups + threadIdx.x / stride;
       r < rows; r += step) {
    const RowOf<const float> in = row_of(input, r, cols);
    const RowOf<float> out = row_of(output, r, cols);
    float x[kSlots * W];
    // TODO (step 3): load this thread's vectors of the row (slot s: vector s * stride + index;
    //       -inf where a column is past the row), take the softmax across the group (the
    //       ready-made one of step 2, kWholeBlock telling it which group), and store the vectors.
  }
}

}  // namespace

void step3_warp_per_row(const float* input, float* output, long long rows, long long cols,
                        Workspace& workspace) {
  check_softmax_arguments("step3_warp_per_row", input, output, rows, cols, kMaxOnChipCols, true);
  workspace.begin_call();
  const int n = static_cast<int>(cols);
  const int vectors = vectors_of<float>(n);
  if (cols <= kWarpRowMaxCols) {
    // A warp per row: as few vectors per lane as hold the row (at most 8: 1024 columns).
    const auto grid = static_cast<unsigned>(course::ceil_div(rows, kWarpsPerBlock));
    launch_with_at_least<1, 2, 4, 8>(course::ceil_div(vectors, 32), [&](auto kSlots) {
      rows_in_registers_kernel<decltype(kSlots)::value, false, kWarpsPerBlock * 32>
          <<<grid, kWarpsPerBlock * 32>>>(input, output, rows, n);
    });
  } else {
    // A block per row, 8 vectors per thread, as many whole warps as that takes (at most 1024
    // threads: 32768 columns).
    const int threads = static_cast<int>(course::ceil_div(vectors, kBlockRowSlots * 32) * 32);
    const auto grid = static_cast<unsigned>(rows < INT_MAX ? rows : INT_MAX);
    if (threads <= 256) {
      rows_in_registers_kernel<kBlockRowSlots, true, 256><<<grid, threads>>>(input, output, rows,
                                                                            n);
    } else {
      rows_in_registers_kernel<kBlockRowSlots, true, 1024><<<grid, threads>>>(input, output, rows,
                                                                             n);
    }
  }
  COURSE_CHECK_LAUNCH("rows_in_registers_kernel");
  workspace.count_launch();
}

}  // namespace softmax_and_norms::exercise
