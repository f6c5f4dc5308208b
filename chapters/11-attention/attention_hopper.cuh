// Chapter 11's Hopper pieces for steps 4 and 5, ready-made: the PTX of the shared-memory barriers
// (mbarrier), of the Tensor Memory Accelerator (TMA) and of wgmma, each wrapped once and
// commented (chapter 08, steps 4-6, teaches them on a GEMM), and the host's TMA descriptions of
// Q, K and V (attention_hopper.cu).
//
// Two targets: the TMA and the mbarriers (ATTENTION_TMA) exist from compute capability 9.0 on;
// wgmma and setmaxnreg (ATTENTION_HOPPER) only in the architecture-specific target sm_90a, which
// runs on compute capability 9.0 and no other. meson.build compiles steps 4 and 5 (and this
// chapter's own sources) for sm_90a in addition to gpu_arch; elsewhere each piece compiles to
// nothing, and the steps refuse to run (require_gpu_for_step).
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_fp16.h>

#include <cstdint>

#include "attention.cuh"
#include "attention_device.cuh"  // shared_address (and it includes this file at its end)
#include "course/hopper.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define ATTENTION_TMA 1
#endif
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ATTENTION_HOPPER 1
#endif

namespace attention {

// ---- Host side (attention_hopper.cu) ------------------------------------------------------------
// How the TMA sees one of Q, K and V: a 4-dimensional array [batch][tokens][heads][head_dim] of
// FP16, copied in boxes of 64 dimensions (128 bytes, the swizzle's span) x 1 head x kStep4Rows
// tokens x 1 sequence into 128-byte-swizzled shared memory. A box that reaches past a sequence's
// last token is filled with zeros there (the next sequence's first tokens are another batch
// index, outside the box's array), and still counts all its bytes on the barrier.
CUtensorMap make_head_map(const __half* array, const Shape& shape);
struct HeadMaps {
  CUtensorMap q, k, v;
};
HeadMaps make_head_maps(const __half* q, const __half* k, const __half* v, const Shape& shape);

// A tile of R rows (tokens) of D halves in shared memory as the TMA writes it: D / 64 boxes of
// R rows of 128 bytes (64 dimensions) each, 128-byte swizzled, box after box.
inline constexpr int kBoxRowBytes = 128;
template <int R, int D>
struct BoxedTile {
  static constexpr int kBoxBytes = R * kBoxRowBytes;
  static constexpr int kBytes = (D / 64) * kBoxBytes;
};

namespace hopper {

// The Hopper wrappers that chapter 08 shares (course/hopper.cuh, commented there): the mbarriers
// (barrier_init, fence_barrier_init, arrive_and_expect_bytes, arrive), the wgmma descriptor and
// group fences (matrix_descriptor, wgmma_fence, wgmma_commit, wgmma_wait), and setmaxnreg
// (release_registers, claim_registers).
using namespace course::hopper;

// ---- mbarrier: waiting for a phase --------------------------------------------------------------
// A phase completes when `count` threads have arrived and every byte announced has landed; each
// completion flips the barrier's parity, and a fresh barrier counts as having completed a phase
// of parity 1 (course/hopper.cuh).

// Waits until the phase of parity `parity` of `barrier` has completed. A wait that can never end
// (bytes announced that never come, an arrival that never happens, the wrong parity) spins until
// the tests' bounded wait (course::synchronize_or_stop) stops the program with the file to edit.
__device__ __forceinline__ void wait(std::uint64_t* barrier, int parity) {
#if defined(ATTENTION_TMA)
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "waiting:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra waiting;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
#endif
}

// ---- TMA: the Tensor Memory Accelerator ---------------------------------------------------------
// cp.async.bulk.tensor.4d: one thread asks the TMA to copy the box at element coordinates
// (dimension, head, token, sequence) of the array that `map` describes (make_head_map) into
// shared memory at `destination` (1024-byte aligned), and to count the box's bytes on `barrier`
// when they land.
__device__ __forceinline__ void tma_load_box(void* destination, const CUtensorMap* map,
                                             std::uint64_t* barrier, int dimension, int head,
                                             int token, int sequence) {
#if defined(ATTENTION_TMA)
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(shared_address(destination)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(shared_address(barrier)), "r"(dimension),
      "r"(head), "r"(token), "r"(sequence)
      : "memory");
#endif
}

// ---- wgmma: warpgroup matrix multiply-accumulate ----------------------------------------------
// A warpgroup (4 consecutive warps, 128 threads) issues each wgmma together. It reads B (and A,
// when A is not in registers) from shared memory through 64-bit matrix descriptors
// (matrix_descriptor: the address, two distances, the 128-byte swizzle of the TMA's boxes). Q and
// K hold each token's dimensions contiguously: K-major for S = Q K^T, stride 1024 bytes from one
// 8-row group to the next, leading distance unused (16). V's rows are keys, the k of O += P V,
// with its dimensions (n) contiguous: MN-major, leading distance from one 64-dimension box to the
// next, stride 1024 bytes from one group of 8 keys to the next.

// Keeps the compiler from moving accesses of accumulators across the asynchronous wgmma: call it
// on them after wgmma_wait.
template <int J>
__device__ __forceinline__ void keep_in_registers(float (&d)[J][4]) {
#pragma unroll
  for (int j = 0; j < J; ++j) {
#pragma unroll
    for (int e = 0; e < 4; ++e) asm volatile("" : "+f"(d[j][e])::"memory");
  }
}

// bar.sync / bar.arrive on a named barrier (1-15; __syncthreads() is barrier 0) that completes
// when `threads` threads (a multiple of 32) have arrived: sync arrives and waits, arrive only
// arrives. Step 5's two consumer warpgroups take turns with them.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// The accumulator layout of both products below: a warpgroup's 64 x N result, FP32. Warp w
// (0-3 in the warpgroup) holds rows 16 w .. 16 w + 15, and within them d[j][e] of lane
// l = 4 g + t is row 16 w + g + 8 (e / 2), column 8 j + 2 t + e % 2: mma.sync's m16n8 C layout
// (attention_device.cuh), repeated for the N / 8 groups of 8 columns. A warp's part is therefore
// exactly step 2's Scores<1, N> and WarpRows<D, 1>::o, and step 2's mask_scores, online_softmax
// and store_rows work on it unchanged.

// S = (accumulate ? S : 0) + A B for 64 query rows and 128 keys, k = 16 dimensions:
// wgmma.m64n128k16.f32.f16.f16 with A (64 x 16, K-major) and B (16 x 128 given as K's 128 rows
// of 16 dimensions: K-major, not transposed) both from shared memory. The operands after the
// descriptors, in PTX's order: scale-d (the predicate from `accumulate`: false overwrites d),
// imm-scale-a = imm-scale-b = 1 (not negated), imm-trans-a = imm-trans-b = 0 (both K-major).
__device__ __forceinline__ void wgmma_scores(float (&d)[16][4], std::uint64_t a_descriptor,
                                             std::uint64_t b_descriptor, int accumulate) {
#if defined(ATTENTION_HOPPER)
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]),
        "+f"(d[1][0]), "+f"(d[1][1]), "+f"(d[1][2]), "+f"(d[1][3]),
        "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]),
        "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]),
        "+f"(d[4][0]), "+f"(d[4][1]), "+f"(d[4][2]), "+f"(d[4][3]),
        "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]),
        "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]),
        "+f"(d[7][0]), "+f"(d[7][1]), "+f"(d[7][2]), "+f"(d[7][3]),
        "+f"(d[8][0]), "+f"(d[8][1]), "+f"(d[8][2]), "+f"(d[8][3]),
        "+f"(d[9][0]), "+f"(d[9][1]), "+f"(d[9][2]), "+f"(d[9][3]),
        "+f"(d[10][0]), "+f"(d[10][1]), "+f"(d[10][2]), "+f"(d[10][3]),
        "+f"(d[11][0]), "+f"(d[11][1]), "+f"(d[11][2]), "+f"(d[11][3]),
        "+f"(d[12][0]), "+f"(d[12][1]), "+f"(d[12][2]), "+f"(d[12][3]),
        "+f"(d[13][0]), "+f"(d[13][1]), "+f"(d[13][2]), "+f"(d[13][3]),
        "+f"(d[14][0]), "+f"(d[14][1]), "+f"(d[14][2]), "+f"(d[14][3]),
        "+f"(d[15][0]), "+f"(d[15][1]), "+f"(d[15][2]), "+f"(d[15][3])
      : "l"(a_descriptor), "l"(b_descriptor), "r"(accumulate));
#endif
}

// O += P V for 64 query rows, k = 16 keys, n = D dimensions: wgmma.m64nDk16.f32.f16.f16 with A
// from registers and B from shared memory. A register fragment: each warp holds its 16 rows x
// 16 keys in mma.sync's A layout, a[0] = row g, keys 2t, 2t + 1; a[1] = row g + 8; a[2], a[3]:
// keys + 8 (two FP16 per register, the lower key in bits 0-15). B: V's 16 rows of D dimensions,
// rows along k with n contiguous (MN-major), hence imm-trans-b = 1. The operands after the
// descriptor: scale-d = 1 (d += A B), imm-scale-a = imm-scale-b = 1, imm-trans-b = 1.
__device__ __forceinline__ void wgmma_pv(float (&d)[16][4], const std::uint32_t (&a)[4],
                                         std::uint64_t b_descriptor) {
#if defined(ATTENTION_HOPPER)
  asm volatile(
      "{\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
      "}\n"
      : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]),
        "+f"(d[1][0]), "+f"(d[1][1]), "+f"(d[1][2]), "+f"(d[1][3]),
        "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]),
        "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]),
        "+f"(d[4][0]), "+f"(d[4][1]), "+f"(d[4][2]), "+f"(d[4][3]),
        "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]),
        "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]),
        "+f"(d[7][0]), "+f"(d[7][1]), "+f"(d[7][2]), "+f"(d[7][3]),
        "+f"(d[8][0]), "+f"(d[8][1]), "+f"(d[8][2]), "+f"(d[8][3]),
        "+f"(d[9][0]), "+f"(d[9][1]), "+f"(d[9][2]), "+f"(d[9][3]),
        "+f"(d[10][0]), "+f"(d[10][1]), "+f"(d[10][2]), "+f"(d[10][3]),
        "+f"(d[11][0]), "+f"(d[11][1]), "+f"(d[11][2]), "+f"(d[11][3]),
        "+f"(d[12][0]), "+f"(d[12][1]), "+f"(d[12][2]), "+f"(d[12][3]),
        "+f"(d[13][0]), "+f"(d[13][1]), "+f"(d[13][2]), "+f"(d[13][3]),
        "+f"(d[14][0]), "+f"(d[14][1]), "+f"(d[14][2]), "+f"(d[14][3]),
        "+f"(d[15][0]), "+f"(d[15][1]), "+f"(d[15][2]), "+f"(d[15][3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_descriptor));
#endif
}

__device__ __forceinline__ void wgmma_pv(float (&d)[8][4], const std::uint32_t (&a)[4],
                                         std::uint64_t b_descriptor) {
#if defined(ATTENTION_HOPPER)
  asm volatile(
      "{\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
      "}\n"
      : "+f"(d[0][0]), "+f"(d[0][1]), "+f"(d[0][2]), "+f"(d[0][3]),
        "+f"(d[1][0]), "+f"(d[1][1]), "+f"(d[1][2]), "+f"(d[1][3]),
        "+f"(d[2][0]), "+f"(d[2][1]), "+f"(d[2][2]), "+f"(d[2][3]),
        "+f"(d[3][0]), "+f"(d[3][1]), "+f"(d[3][2]), "+f"(d[3][3]),
        "+f"(d[4][0]), "+f"(d[4][1]), "+f"(d[4][2]), "+f"(d[4][3]),
        "+f"(d[5][0]), "+f"(d[5][1]), "+f"(d[5][2]), "+f"(d[5][3]),
        "+f"(d[6][0]), "+f"(d[6][1]), "+f"(d[6][2]), "+f"(d[6][3]),
        "+f"(d[7][0]), "+f"(d[7][1]), "+f"(d[7][2]), "+f"(d[7][3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_descriptor));
#endif
}

}  // namespace hopper

// P as the A operand of wgmma_pv: for each 16 of the tile's N keys, the four registers of a
// warp's A fragment (two FP16 per register).
template <int N>
using Probabilities = std::uint32_t[N / 16][4];

// ---- Steps 4 and 5: the block's shared memory ------------------------------------------------
// The Q tile (kStep4Rows rows), then kStep4Stages K tiles and kStep4Stages V tiles (kStep4Keys
// rows each), all BoxedTile, 1024-byte aligned (a 128-byte-swizzled box repeats every 8 rows of
// 128 bytes); and the barriers: Q landed; per stage K landed and V landed (`full`: the
// producer's arrival and the TMA's bytes), and K and V given back (`empty`: one arrival per
// consumer warp). K and V are given back apart: K is done with once the scores are.
struct TileBarriers {
  std::uint64_t q_full;
  std::uint64_t k_full[kStep4Stages];
  std::uint64_t v_full[kStep4Stages];
  std::uint64_t k_empty[kStep4Stages];
  std::uint64_t v_empty[kStep4Stages];
};
template <int D>
struct TileRing {
  using QTile = BoxedTile<kStep4Rows, D>;
  using KVTile = BoxedTile<kStep4Keys, D>;
  // Dynamic shared memory a block asks for: the tiles and up to 1023 bytes to align them.
  static constexpr int kSharedBytes = QTile::kBytes + 2 * kStep4Stages * KVTile::kBytes + 1024;
  unsigned char* q;
  TileBarriers* barriers;
  __device__ unsigned char* k(int stage) const {
    return q + QTile::kBytes + stage * KVTile::kBytes;
  }
  __device__ unsigned char* v(int stage) const {
    return q + QTile::kBytes + (kStep4Stages + stage) * KVTile::kBytes;
  }
};
// The ring in a block's dynamic shared memory, its barriers initialised by thread 0 for
// `consumer_warps` arrivals on each `empty`; every thread must pass a __syncthreads() before using
// it.
template <int D>
__device__ __forceinline__ TileRing<D> make_tile_ring(unsigned char* dynamic_shared,
                                                      TileBarriers* barriers,
                                                      unsigned consumer_warps) {
  const TileRing<D> ring{dynamic_shared + (1024 - shared_address(dynamic_shared) % 1024) % 1024,
                         barriers};
  if (threadIdx.x == 0) {
    hopper::barrier_init(&barriers->q_full, 1);
    for (int s = 0; s < kStep4Stages; ++s) {
      hopper::barrier_init(&barriers->k_full[s], 1);
      hopper::barrier_init(&barriers->v_full[s], 1);
      hopper::barrier_init(&barriers->k_empty[s], consumer_warps);
      hopper::barrier_init(&barriers->v_empty[s], consumer_warps);
    }
    hopper::fence_barrier_init();
  }
  return ring;
}

// The ready-made copies of the steps' device functions (attention_ready_made.cuh, generated from
// the solutions) call these pieces by their names, as steps 4 and 5 do.
namespace ready_made {
using namespace hopper;
}  // namespace ready_made

}  // namespace attention
