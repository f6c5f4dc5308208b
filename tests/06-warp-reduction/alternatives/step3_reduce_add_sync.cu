// ALTERNATIVE 06.3 step3_warp_shuffle.cu
// cuda-samples' warpReduceSum: ints take one __reduce_add_sync (redux.sync, sm_80 and newer),
// which gives every lane the warp's total; floats and doubles (and ints before sm_80) shuffle.
// @region
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  constexpr bool kOneInstruction = std::is_same_v<T, int>;
#else
  constexpr bool kOneInstruction = false;  // redux.sync arrived with sm_80
#endif
  if constexpr (kOneInstruction) {
    value = __reduce_add_sync(kFullMask, value);
  } else {
    for (int offset = 16; offset != 0; offset >>= 1) {
      value += __shfl_down_sync(kFullMask, value, offset);
    }
  }
// @region
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();  // the warp totals are stored before the first warp reads them
  if (threadIdx.x < 32) {
    const T mine = threadIdx.x < BLOCK / 32 ? warp_sums[threadIdx.x] : T(0);
    value = warp_sum(mine);  // all 32 lanes of warp 0 take part: the full mask holds
  }
