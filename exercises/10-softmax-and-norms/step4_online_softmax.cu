// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 10.4
// (or: meson test -C build --suite 10-softmax-and-norms:exercise --print-errorlogs)
// (generated from solutions/10-softmax-and-norms/ by python3 -m tools.sync_exercises)
// Step 4: online softmax (Milakov and Gimelshein, 2018), for rows of any length.
// Changed from steps 2-3: the row no longer has to fit on chip. A running pair (m, s), the max of
// the values seen so far and the sum of exp(value - m) over them, takes the values one vector at
// a time: when a new value raises the max from m to m', the sum is rescaled to the new max,
// s * exp(m - m'), before the new terms are added. Two pairs merge by the same rule, so a row is
// cut into chunks of kChunkCols columns, one block each:
//   pass 1 (partial_kernel): each block reduces its chunk to one pair, written to the workspace;
//   pass 2 (normalize_kernel): each block merges its row's pairs into the row's (max, sum), reads
//   its chunk again and writes exp(x - max) / sum.
// Traffic: the row is read twice and written once, 3 words per element where a copy moves 2: at
// most 2/3 of the copy's rate (step 1 reads it three times; steps 2-3 once, but only up to 32768
// columns). Each thread keeps kUnroll vectors in flight per round.
#include <climits>

#include "softmax_and_norms.cuh"
#include "softmax_and_norms_device.cuh"
#include "softmax_and_norms_ready_made.cuh"

namespace softmax_and_norms::exercise {

// The pair p = (max, sum) after four more values x[0 .. 4) (-inf where a column is masked or past
// the row): the max of all values seen, and the sum of exp(value - that max) over them.
__device__ inline Partial online_update(Partial p, const float* x) {
  Partial updated = p;
  // TODO (step 4): the new max takes the four values in. The old sum was taken relative to the
  //       old max: bring it to the new one before the new terms (relative to the new max) are
  //       added. While the new max is still -inf (nothing but masked values so far) the pair
  //       must stay as it is: a difference of two -inf is NaN.
  return updated;
}

// The pair of the values of a and b together.
__device__ inline Partial merge_partials(Partial a, Partial b) {
  Partial merged = a;
  // TODO (step 4): the max of both, and both sums taken relative to that max before they are
  //       added. Two pairs with nothing in them (max -inf) merge to a pair with nothing in it.
  return merged;
}

namespace {

constexpr int kUnroll = 4;  // vectors each thread loads before it uses them
constexpr int kChunkVectors = kChunkCols / kWidth<float>;

struct MergePartials {
  __device__ Partial operator()(Partial a, Partial b) const { return merge_partials(a, b); }
};

// Block b of the grid-stride loop: row b / chunks, chunk b % chunks; its vectors [first, end).
struct Chunk {
  long long row;
  int first, end;
};
__device__ Chunk chunk_of(long long b, int chunks, int cols) {
  const int chunk = static_cast<int>(b % chunks);
  const int first = chunk * kChunkVectors;
  return {b / chunks, first, min(first + kChunkVectors, vectors_of<float>(cols))};
}

// Loads the vectors k, k + kStep4Threads, ... (kUnroll of them) that lie in [k, end); the others
// read as -inf (vector `past` is past the end of the row).
__device__ void load_round(RowOf<const float> in, int k, int end, int past,
                           float (&x)[kUnroll][4]) {
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const int v = k + u * kStep4Threads;
    ready_made::load_vector(in, v < end ? v : past, -INFINITY, x[u]);
  }
}

// Pass 1: partials[b] = the (max, sum) pair of chunk b.
__global__ void __launch_bounds__(kStep4Threads) partial_kernel(const float* input,
                                                                long long rows, int cols,
                                                                int chunks, Partial* partials) {
  const long long blocks = rows * chunks;
  const int past = vectors_of<float>(cols);
  for (long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    const Chunk chunk = chunk_of(b, chunks, cols);
    const RowOf<const float> in = row_of(input, chunk.row, cols);
    Partial p = {-INFINITY, 0.0f};
    for (int k = chunk.first + threadIdx.x; k < chunk.end; k += kUnroll * kStep4Threads) {
      float x[kUnroll][4];
      load_round(in, k, chunk.end, past, x);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) p = online_update(p, x[u]);
    }
    p = ready_made::block_reduce(p, MergePartials{});
    if (threadIdx.x == 0) partials[b] = p;
  }
}

// Pass 2: the row's pair from all its chunks' pairs, then y = exp(x - max) / sum over chunk b.
__global__ void __launch_bounds__(kStep4Threads) normalize_kernel(const float* input,
                                                                  float* output, long long rows,
                                                                  int cols, int chunks,
                                                                  const Partial* partials) {
  const long long blocks = rows * chunks;
  const int past = vectors_of<float>(cols);
  for (long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    const Chunk chunk = chunk_of(b, chunks, cols);
    const RowOf<const float> in = row_of(input, chunk.row, cols);
    const RowOf<float> out = row_of(output, chunk.row, cols);
    Partial row = {-INFINITY, 0.0f};
    for (int c = threadIdx.x; c < chunks; c += kStep4Threads) {
      row = merge_partials(row, partials[chunk.row * chunks + c]);
    }
    row = ready_made::block_reduce(row, MergePartials{});
    const float shift = shift_for(row.max), scale = scale_for(row.sum);
    for (int k = chunk.first + threadIdx.x; k < chunk.end; k += kUnroll * kStep4Threads) {
      float x[kUnroll][4];
      load_round(in, k, chunk.end, past, x);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
        for (int j = 0; j < 4; ++j) x[u][j] = __expf(x[u][j] - shift) * scale;
        const int v = k + u * kStep4Threads;
        if (v < chunk.end) ready_made::store_vector(out, v, x[u]);
      }
    }
  }
}

}  // namespace

void step4_online_softmax(const float* input, float* output, long long rows, long long cols,
                          Workspace& workspace) {
  check_softmax_arguments("step4_online_softmax", input, output, rows, cols, kMaxCols, true);
  workspace.begin_call();
  const int n = static_cast<int>(cols);
  const int chunks = static_cast<int>(course::ceil_div(cols, static_cast<long long>(kChunkCols)));
  auto* partials = static_cast<Partial*>(workspace.scratch(0, rows * chunks * sizeof(Partial)));
  const long long blocks = rows * chunks;
  const auto grid = static_cast<unsigned>(blocks < INT_MAX ? blocks : INT_MAX);
  partial_kernel<<<grid, kStep4Threads>>>(input, rows, n, chunks, partials);
  COURSE_CHECK_LAUNCH("partial_kernel");
  workspace.count_launch();
  normalize_kernel<<<grid, kStep4Threads>>>(input, output, rows, n, chunks, partials);
  COURSE_CHECK_LAUNCH("normalize_kernel");
  workspace.count_launch();
}

}  // namespace softmax_and_norms::exercise
