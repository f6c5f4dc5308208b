// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 08.3
// (or: meson test -C build --suite 08-tensor-core-gemm:exercise --print-errorlogs)
// (generated from solutions/08-tensor-core-gemm/ by python3 -m tools.sync_exercises)
// Step 3: a multistage cp.async pipeline into XOR-swizzled shared tiles.
// Changed from step 2, four things:
//  - a bigger block: 128 x 256 of C with 8 warps of 64 x 64 (step 2: 128 x 128 with 4): each
//    value of A the block brings from global memory now feeds 256 columns instead of 128;
//  - a ring of kStages shared-memory stages of 64 along k, filled by cp.async (chapter 07's
//    step 5 had two): while the warps multiply slice t, slices t+1 .. t+kStages-1 are on their
//    way, so the tensor cores rarely wait for memory, and a barrier comes once per 64 of k.
//    kStages is 4 where a block may have 192 KiB of shared memory, fewer elsewhere
//    (step3_stages() in tensor_core_gemm.cuh): the kernel is compiled for 2, 3 and 4;
//  - two sets of fragments: the ldmatrix of the next k16 step are issued before the mma.sync
//    of this one, and the barrier comes before a slice's last step, whose fragments are
//    already in registers: the warps never wait for shared memory or for each other with
//    nothing queued on the tensor cores;
//  - swizzled tiles instead of step 2's padded rows: each 16-byte piece of a tile row is stored
//    at a position permuted (an XOR) by its row number, so that the eight rows that one
//    ldmatrix matrix reads still fall in eight different 16-byte bank groups (unswizzled and
//    unpadded, rows 128 or 512 bytes apart would all hit the same one: 8 passes instead of 1),
//    with no shared memory spent on padding. On rows of 128 bytes it is also the pattern that
//    the TMA writes (step 4) and wgmma reads (step 5). The same swizzle must be used to store
//    (cp.async) and to load (ldmatrix).
#include <cstdint>

#include "course/errors.hpp"
#include "course/math.hpp"
#include "tensor_core_gemm.cuh"
#include "tensor_core_gemm_accumulator_store.cuh"
#include "tensor_core_gemm_device.cuh"

namespace tensor_core_gemm::exercise {

namespace {

// The block tile (BM, BN, BK), the warps' tiles and Fragments: tensor_core_gemm_device.cuh.
constexpr int kThreads = kTileWarps * 32;  // 256
static_assert((A_STAGE + B_STAGE) * 2 == kStep3StageBytes, "48 KiB per stage");

// Where the 16-byte piece `piece` of a tile row `row` goes, in halves from the tile's start.
// A's rows are BK = 64 halves = 128 bytes (8 pieces): one 128-byte bank line each.
// B's rows are BN = 256 halves = 512 bytes (32 pieces), stored as four blocks of 64 columns side
// by side (B_BOX_COLUMNS, tensor_core_gemm_device.cuh): piece p of a row is piece p % 8 of that
// row in block p / 8, and a row of a block is one bank line. (Step 4's TMA writes B so.)
__device__ __forceinline__ int a_offset(int row, int piece) {
  int swizzled = piece;
  // TODO: XOR the piece number with bits of the row, so that the 8 consecutive rows that one
  //       ldmatrix matrix reads, at the same piece, land in 8 different 16-byte slots of the
  //       128-byte bank line (and the pieces of a row stay a permutation of 0..7).
  return row * BK + swizzled * 8;
}
__device__ __forceinline__ int b_offset(int row, int piece) {
  int swizzled = piece;
  // TODO: the same for B's rows of 32 pieces (keep each 8-piece bank line a permutation).
  return (swizzled / 8) * (BK * B_BOX_COLUMNS) + row * B_BOX_COLUMNS + (swizzled % 8) * 8;
}

// The copies of one slice (A's 128 x 64 and B's 64 x 256 at the slice's 64 values of k) into
// one stage: each thread starts 4 pieces of A and 8 of B, 16 bytes each, and a piece outside
// the matrices becomes zeros (source_bytes 0, reading nothing). Which pieces are this thread's
// and where they go in a stage never change, so they are worked out once, in the constructor:
// a slice then costs a few integer instructions per piece. Element offsets are 32-bit because
// every matrix has fewer than 2^31 elements (check_arguments); unsigned, so that the offset of
// a piece outside (never used) cannot overflow.
class SliceCopies {
 public:
  // A thread's pieces: of A, rows tid / 8 + 32 r (r = 0..3) of the block, columns
  // (tid % 8) * 8 of the slice; of B, rows tid / 32 + 8 r (r = 0..7) of the slice, columns
  // (tid % 32) * 8 of the block. A warp copies whole rows: four of A, one of B per r.
  __device__ SliceCopies(const __half* A, const __half* B, int m, int k, int n, int ldb,
                         int block_row, int block_col)
      : A_(A), B_(B), k_(k), ldb_(ldb) {
    const int t = threadIdx.x;
    const int a_row = block_row + t / 8, b_col = block_col + (t % 32) * 8;
    a_rows_left_ = m - a_row;
    a_col_ = (t % 8) * 8;
    a_offset_ = static_cast<unsigned>(min(a_row, m - 1)) * k + a_col_;
    b_row_ = t / 32;
    b_col_inside_ = b_col < n;
    b_offset_ = static_cast<unsigned>(b_row_) * ldb + (b_col_inside_ ? b_col : 0);
    a_destination_ = a_offset(t / 8, t % 8);
    b_destination_ = b_offset(t / 32, t % 32);
  }

  // Starts the copies of slice `slice` (k from slice * BK) into a stage. A slice past the end
  // of k is all zeros: every iteration of the ring then runs the same instructions, which the
  // compiler can interleave with the mma.sync around them.
  __device__ __forceinline__ void start(int slice, __half* a_stage, __half* b_stage) const {
    const int k0 = slice * BK;
    const bool a_cols_inside = k0 + a_col_ < k_;
#pragma unroll
    for (int r = 0; r < 4; ++r) {  // 32 rows further: the same swizzle (it uses row % 8)
      const bool inside = a_cols_inside && 32 * r < a_rows_left_;
      copy_16_bytes_async(a_stage + a_destination_ + r * 32 * BK,
                          A_ + (inside ? a_offset_ + k0 + r * 32u * k_ : 0u), inside ? 16 : 0);
    }
    const int rows_left = k_ - k0 - b_row_;
#pragma unroll
    for (int r = 0; r < 8; ++r) {  // 8 rows further: the same swizzle
      const bool inside = b_col_inside_ && 8 * r < rows_left;
      copy_16_bytes_async(b_stage + b_destination_ + r * 8 * B_BOX_COLUMNS,
                          B_ + (inside ? b_offset_ + (k0 + 8u * r) * ldb_ : 0u),
                          inside ? 16 : 0);
    }
  }

 private:
  const __half* A_;
  const __half* B_;
  int k_, ldb_;
  int a_rows_left_, a_col_, b_row_;
  bool b_col_inside_;
  unsigned a_offset_, b_offset_;      // of this thread's first piece in slice 0
  int a_destination_, b_destination_;  // of its first pieces in a stage, in halves
};

// Loads the warp's fragments for k16 step `kk` (0, 16, 32 or 48) of a stage with ldmatrix.
__device__ __forceinline__ void load_fragments(Fragments& f, const __half* a_tile,
                                               const __half* b_tile, int warp_row, int warp_col,
                                               int kk) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < TILES_M; ++i) {
    // TODO: the lane's row address for ldmatrix, as in step 2, through the swizzle.
  }
#pragma unroll
  for (int j = 0; j < TILES_N; j += 2) {
    std::uint32_t r[4];
    // TODO: the same for B.
    f.b[j][0] = r[0];
    f.b[j][1] = r[1];
    f.b[j + 1][0] = r[2];
    f.b[j + 1][1] = r[3];
  }
}

template <int kStages>
__global__ void __launch_bounds__(kThreads)
    multistage_swizzle_kernel(const __half* A, const __half* B, float* C, int m, int k, int n,
                              int ldb) {
  extern __shared__ __align__(128) __half shared[];
  __half* a_stages = shared;                      // kStages x A_STAGE
  __half* b_stages = shared + kStages * A_STAGE;  // kStages x B_STAGE
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
  const int warp = threadIdx.x / 32;
  const int warp_row = (warp / (BN / WARP_N)) * WARP_M;
  const int warp_col = (warp % (BN / WARP_N)) * WARP_N;
  const int slices = course::ceil_div(k, BK);
  constexpr int STEPS = BK / MMA_K;  // k16 steps per slice
  static_assert(STEPS % 2 == 0, "a slice's last step uses f[1], so the next slice starts in f[0]");
  const SliceCopies copies(A, B, m, k, n, ldb, block_row, block_col);
  float acc[TILES_M][TILES_N][4] = {};

  // TODO: the prologue: get the first slices on their way (copies.start), in as many groups as
  //       the loop expects to find in flight (the README's "cp.async groups"), and make slice 0
  //       ready for every warp to read.

  // Two sets of fragments: while the mma.sync of one k16 step run, the next step's are loaded.
  Fragments f[2];
  load_fragments(f[0], a_stages, b_stages, warp_row, warp_col, 0);
  int stage = 0;                 // the stage slice t is read from
  int free_stage = kStages - 1;  // the stage no warp reads: where the next copies go
  for (int t = 0; t < slices; ++t) {
#pragma unroll
    for (int step = 0; step < STEPS; ++step) {
      if (step == 0) {
        // TODO: keep the ring full: start the copies of the slice that is due now, into
        //       free_stage, as one group.
        free_stage = free_stage + 1 == kStages ? 0 : free_stage + 1;
      }
      if (step + 1 < STEPS) {
        load_fragments(f[(step + 1) % 2], a_stages + stage * A_STAGE, b_stages + stage * B_STAGE,
                       warp_row, warp_col, (step + 1) * MMA_K);
      } else {
        // The next step is slice t + 1's first. This step's fragments are already loaded, so
        // its mma.sync keep the tensor cores busy while the warps meet at the barrier.
        // TODO: make slice t + 1's stage ready for every warp to read (and with it, say that
        //       no warp reads slice t's stage any more).
        stage = stage + 1 == kStages ? 0 : stage + 1;
        if (t + 1 < slices) {
          load_fragments(f[0], a_stages + stage * A_STAGE, b_stages + stage * B_STAGE, warp_row,
                         warp_col, 0);
        }
      }
      multiply_fragments(acc, f[step % 2]);
    }
  }
  wait_for_async_copies<0>();  // no copy may still be in flight when the block exits

  store_accumulators(C, m, n, block_row + warp_row, block_col + warp_col, acc);
}

using Kernel = void (*)(const __half*, const __half*, float*, int, int, int, int);

// The kernel with as deep a ring as `stages` (step3_stages(): what this GPU's shared memory
// holds).
Kernel kernel_with(int stages) {
  switch (stages) {
    case 4: return multistage_swizzle_kernel<4>;
    case 3: return multistage_swizzle_kernel<3>;
    default: return multistage_swizzle_kernel<2>;
  }
}

}  // namespace

void step3_multistage_swizzle(const __half* A, const __half* B, float* C, int m, int k, int n) {
  check_arguments("step3_multistage_swizzle", A, B, C, m, k, n);
  require_gpu_for_step(3);
  int ldb = n;
  const __half* b = b_with_rows_of_multiple_of_8(B, k, n, &ldb);
  const int stages = step3_stages();
  const Kernel kernel = kernel_with(stages);
  const int shared_bytes = stages * kStep3StageBytes;  // dynamic shared memory
  // More than 48 KiB of shared memory per block must be asked for (once per process is enough,
  // but it is cheap).
  COURSE_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  const dim3 grid(course::ceil_div(n, BN), course::ceil_div(m, BM));
  kernel<<<grid, kThreads, shared_bytes>>>(A, b, C, m, k, n, ldb);
  COURSE_CHECK(cudaGetLastError());
}

KernelResources step3_resources() {
  return resources_of(reinterpret_cast<const void*>(kernel_with(step3_stages())));
}

}  // namespace tensor_core_gemm::exercise
