// Device pieces of chapter 08, steps 4-6 (Hopper), ready-made: the PTX of the Tensor Memory
// Accelerator (TMA), of the shared-memory barriers (mbarrier) and of wgmma, each wrapped once and
// commented, and the ring of stages that steps 4-6 fill. Step 4 writes the ring's two sides (who
// waits on which barrier with which parity, when bytes are expected) and feeds step 3's mma.sync
// warps from it; step 5 replaces those warps with wgmma; step 6 keeps the ring going from tile to
// tile. The host side (the tensor maps, the watchdog's report) is tensor_core_gemm_hopper.cu
// (declared at the end of this file).
//
// Two targets: the TMA and the mbarriers (TENSOR_CORE_GEMM_TMA) need compute capability 9.0 or
// newer and are compiled into any build for it (sm_90, sm_100, sm_120: Hopper and Blackwell; the
// ring's 193 KiB of shared memory per block fit on 9.0 and 10.0, not on 12.0's 99 KiB);
// wgmma and setmaxnreg (TENSOR_CORE_GEMM_HOPPER) exist only in the architecture-specific target
// sm_90a, which runs on compute capability 9.0 and no other: meson.build compiles steps 5 and 6
// for it in addition to gpu_arch. Elsewhere each piece compiles to nothing.
#pragma once

#include <cuda.h>  // CUtensorMap
#include <cuda_fp16.h>

#include <cstdint>

#include "course/hopper.cuh"
#include "tensor_core_gemm.cuh"  // kRingStages, kRingSharedBytes
#include "tensor_core_gemm_device.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TENSOR_CORE_GEMM_TMA 1
#endif
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TENSOR_CORE_GEMM_HOPPER 1
#endif

namespace tensor_core_gemm::hopper {

// The Hopper wrappers that chapter 11 shares (course/hopper.cuh) under this namespace's names.
using namespace course::hopper;

// ---- The ring of steps 4-6 --------------------------------------------------------------------
// The block tile of tensor_core_gemm_device.cuh (BM x BN, slices of BK) through a ring of
// kStages shared-memory stages. A stage is A's BM x BK box, then B's slice as BN / B_BOX_COLUMNS
// boxes of BK x 64 side by side, each as the TMA writes it: rows of 128 bytes, 128-byte swizzle
// (the pattern of step 3's tiles). Steps 5 and 6: one producer warpgroup and kConsumers consumer
// warpgroups, each multiplying CONSUMER_M rows of the tile.
inline constexpr int kStages = kRingStages;  // tensor_core_gemm.cuh
inline constexpr int kConsumers = 2;                     // warpgroups of 128 threads
inline constexpr int kThreads = (1 + kConsumers) * 128;  // 384: steps 5 and 6 (step 4: 256)
inline constexpr int CONSUMER_M = BM / kConsumers;       // 64: wgmma's m
inline constexpr int A_STAGE_BYTES = A_STAGE * 2;        // 16 KiB
inline constexpr int B_STAGE_BYTES = B_STAGE * 2;        // 32 KiB, 4 boxes of 64 x 64
inline constexpr int kStageBytes = A_STAGE_BYTES + B_STAGE_BYTES;
static_assert(kStageBytes == kStep3StageBytes, "the stage that kRingSharedBytes counts");
// Consumer warps per block, in steps 4-6 alike (step 4's 8 warps, steps 5-6's 2 warpgroups): the
// arrivals that complete a phase of `empty`.
inline constexpr unsigned kConsumerWarps = 8;
static_assert(kConsumerWarps == kTileWarps && kConsumerWarps == kConsumers * 4, "8 either way");

// ---- Deadlock watchdog ------------------------------------------------------------------------
// A barrier whose phase never completes (bytes expected that never come, an arrive that never
// happens, a wait on the wrong parity) would freeze the GPU and the terminal. Every wait below
// gives up after the watchdog's budget instead (course/watchdog.hpp): it records the stage and
// parity it waited for and stops the kernel with a trap; the test then prints the report ("the
// kernel did not finish within 4 s: ...").
using course::Watchdog;

// ---- mbarrier -------------------------------------------------------------------------------
// barrier_init, fence_barrier_init, arrive_and_expect_bytes, arrive and phase_completed are
// course/hopper.cuh's (chapter 11 uses them too), commented there; the wait with the watchdog is
// this chapter's.

// Waits for the phase of parity `parity` of `barrier` (the ring's stage `stage`, for the
// report), at most the watchdog's budget; then reports and traps.
__device__ __forceinline__ void wait(std::uint64_t* barrier, int parity, int stage,
                                     const Watchdog& watchdog) {
  if (phase_completed(barrier, parity)) return;
  const long long start = clock64();
  while (!phase_completed(barrier, parity)) {
    if (course::watchdog_expired(watchdog, start)) {
      course::watchdog_give_up(watchdog, stage, parity);  // the report's what[0] and what[1]
    }
  }
}

// ---- TMA: the Tensor Memory Accelerator -------------------------------------------------------
// cp.async.bulk.tensor.2d: one thread asks the TMA to copy the box at element coordinates
// (x = column, y = row) of the matrix that `map` describes (tensor_core_gemm_hopper.cu makes
// the maps: box size, 128-byte swizzle, zeros outside the matrix) into shared memory at
// `destination` (1024-byte aligned), and to count the box's bytes on `barrier` when they land.
__device__ __forceinline__ void tma_load_2d(void* destination, const CUtensorMap* map,
                                            std::uint64_t* barrier, int x, int y) {
#if defined(TENSOR_CORE_GEMM_TMA)
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(shared_address(destination)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(shared_address(barrier)), "r"(x), "r"(y)
      : "memory");
#endif
}

// ---- The ring ---------------------------------------------------------------------------------
// Where the stages and their barriers are: `full[s]` completes a phase when the producer has
// arrived and the TMA has written stage s; `empty[s]` when every consumer warp has arrived, done
// with it.
struct Ring {
  unsigned char* stages;  // 1024-byte aligned: kStages x kStageBytes
  std::uint64_t* full;
  std::uint64_t* empty;
  __device__ __half* a_stage(int s) const {
    return reinterpret_cast<__half*>(stages + s * kStageBytes);
  }
  __device__ __half* b_stage(int s) const {
    return reinterpret_cast<__half*>(stages + s * kStageBytes + A_STAGE_BYTES);
  }
};

// The ring in a block's dynamic shared memory (kRingSharedBytes: its start rounded up to 1024
// bytes, since a 128-byte-swizzled box repeats every 8 rows of 128 bytes), with the kStages
// barriers of `full` and of `empty`. Thread 0 initialises them (`full`: one arrival, the
// producer's, plus the bytes; `empty`: one per consumer warp); every thread must then pass a
// __syncthreads() before it uses them.
__device__ __forceinline__ Ring make_ring(unsigned char* dynamic_shared, std::uint64_t* full,
                                          std::uint64_t* empty) {
  const Ring ring{dynamic_shared + (1024 - shared_address(dynamic_shared) % 1024) % 1024, full,
                  empty};
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      barrier_init(&full[s], 1);
      barrier_init(&empty[s], kConsumerWarps);
    }
    fence_barrier_init();
  }
  return ring;
}

// ---- wgmma: warpgroup matrix multiply-accumulate from shared memory ---------------------------
// matrix_descriptor, wgmma_fence, wgmma_commit and wgmma_wait are course/hopper.cuh's, commented
// there. This chapter's two tiles are both in 128-byte swizzle atoms as the TMA writes them: A is
// K-major (stride_bytes = 1024 from one 8-row group to the next along m; steps 5 and 6 pass 16
// for the unused leading_bytes), B is N-major (leading_bytes from one 64-column atom to the next
// along n, stride_bytes = 1024 from one 8-row group of k to the next).

// Keeps the compiler from moving accesses of the accumulators across the asynchronous wgmma.
__device__ __forceinline__ void keep_in_registers(float (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16: d (64 x 256, FP32, 128 registers per
// thread) += A (64 x 16 from shared memory, K-major) x B (16 x 256 from shared memory, N-major:
// B's rows are k), issued by the whole warpgroup (4 warps). Asynchronous: it returns before the
// product is done; wgmma_commit() closes a group of them, wgmma_wait<N>() waits for all but N
// groups. Until then neither d nor the shared tiles may be touched. d[4 j + e] of warp w,
// lane l (g = l / 4, t = l % 4) is C(16 w + g + 8 (e / 2), 8 j + 2 t + e % 2): mma.sync's C
// fragment, repeated for the 32 groups of 8 columns. The five operands after the descriptors
// are, in PTX's order: scale-d = 1 (a predicate, true: d += A x B; false would overwrite d),
// imm-scale-a = imm-scale-b = 1 (A and B not negated), imm-trans-a = 0 (A as stored: K-major),
// imm-trans-b = 1 (B transposed: its rows are k, MN-major, which the B descriptor's leading
// distance then describes).
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a_descriptor,
                                                 std::uint64_t b_descriptor) {
#if defined(TENSOR_CORE_GEMM_HOPPER)
  asm volatile(
      "{\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, 1, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a_descriptor), "l"(b_descriptor));
#endif
}

// setmaxnreg (release_registers, claim_registers): course/hopper.cuh's.

}  // namespace tensor_core_gemm::hopper

// The ready-made copies of steps 4-6's device functions (tensor_core_gemm_ready_made.cuh,
// generated from the solutions) call these pieces by their names, as the steps do.
namespace tensor_core_gemm::ready_made {
using namespace hopper;
}  // namespace tensor_core_gemm::ready_made

namespace tensor_core_gemm {

// ---- Host side (tensor_core_gemm_hopper.cu), for the launchers of steps 4-6 ------------------
// A TMA description of the row-major rows x columns matrix of halves at `matrix` (rows `ld`
// halves apart, ld % 8 == 0, `matrix` 16-byte aligned), copied in boxes of box_rows x
// box_columns (box_columns * 2 bytes <= 128, the swizzle's span) into 128-byte-swizzled shared
// memory. Boxes that reach past the matrix are filled with zeros.
CUtensorMap make_tensor_map(const __half* matrix, int rows, int columns, int ld, int box_rows,
                            int box_columns);

// The maps of the ring's operands, for the launchers of steps 4-6: A's in boxes of BM x BK, B's
// in boxes of BK x B_BOX_COLUMNS (B first copied into rows of a multiple of 8 halves when n is
// not one: b_with_rows_of_multiple_of_8 in tensor_core_gemm.cuh).
struct OperandMaps {
  CUtensorMap a, b;
};
OperandMaps make_operand_maps(const __half* A, const __half* B, int m, int k, int n);

// Clears the watchdog's report and returns the budget and report address for a launch.
using course::arm_watchdog;

}  // namespace tensor_core_gemm
