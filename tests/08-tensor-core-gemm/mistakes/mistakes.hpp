// Known-wrong variants of chapter 08's steps. Each is its step's solution with one mistake
// planted, generated into planted/ by tools/plant_mistakes.py --write from the "plant" of the
// mistake in chapters/08-tensor-core-gemm/steps.json (the same edit that the learner's run is
// checked against). test_mistakes.cpp checks that each is rejected: by the numbers (the
// matrices sit between NaN guard zones), by compute-sanitizer, or by the watchdog of steps 4 and 5.
#pragma once

#include <cuda_fp16.h>

#define TENSOR_CORE_GEMM_DECLARE_MISTAKE(name, step)                                     \
  namespace tensor_core_gemm::mistakes::name {                                            \
  void step(const __half* A, const __half* B, float* C, int m, int k, int n);              \
  }

// Step 2: lane l points ldmatrix at A's tile row l % 16 + 1: every A fragment is one row down.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(ldmatrix_row_off_by_one, step2_mma_ldmatrix)
// Step 2: B's two registers per fragment exchanged: k 0-7 and k 8-15 of every B tile swap.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(fragment_registers_swapped, step2_mma_ldmatrix)
// Step 3: ldmatrix of a stage with neither the cp.async wait nor the barrier before it: the
// warps may read a stage whose copies have not landed, while fast warps refill the stage that
// slow warps still read.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(ldmatrix_before_wait, step3_multistage_swizzle)
// Step 3: A's pieces stored swizzled, read by ldmatrix without the swizzle.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(swizzle_on_store_only, step3_multistage_swizzle)
// Step 3: A's copies always read 16 bytes, also past m rows and k columns: reads outside A.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(tail_without_zero_fill, step3_multistage_swizzle)
// Step 4: the consumers release a stage (and store d) without wgmma_wait: the wgmma may still be
// reading the stage that the producer refills, and d is not final.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(wgmma_without_wait, step4_wgmma_tma)
// Step 4: the consumers always wait for parity 0: on the second lap of the ring (and every other
// lap after it) the wait passes on the previous lap's phase, before the TMA has written the stage.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(mbarrier_parity_not_flipped, step4_wgmma_tma)
// Step 4: the producer announces 16 bytes more than its copies bring: the `full` phase never
// completes, and the consumers would wait forever (the watchdog stops them).
TENSOR_CORE_GEMM_DECLARE_MISTAKE(mbarrier_wrong_byte_count, step4_wgmma_tma)
// Step 5: the last group of tile rows counted as kGroupRows rows even when fewer are left: its
// tiles land on rows past C (stored nowhere) while tiles of its real rows are never computed.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(tile_group_past_last_row, step5_persistent_tiles)
// Step 5: wgmma_wait<1>, but each slice's own stage given back (as the shipped exercise does):
// the producer may refill a stage while the group left running still reads it.
TENSOR_CORE_GEMM_DECLARE_MISTAKE(stage_given_back_while_read, step5_persistent_tiles)

#undef TENSOR_CORE_GEMM_DECLARE_MISTAKE
