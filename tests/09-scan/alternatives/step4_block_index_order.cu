// ALTERNATIVE 09.4 step4_decoupled_lookback.cu
// CUB's form: the tile is blockIdx.x, no counter. Correct as long as the GPU starts blocks in
// increasing blockIdx.x, which NVIDIA's GPUs do today but CUDA does not promise (CUB relies on
// it too); the counter is still reset, unused. The look-back publishes with release stores
// (stronger than needed) and keeps the window's lowest tile instead of its highest.
// @region
  if (threadIdx.x == 0) tile_number = blockIdx.x;
  __syncthreads();
// @region
  if (threadIdx.x < 32) {
    cuda::atomic_ref<StatusWord, cuda::thread_scope_device> mine_status(status[tile]);
    const int lane = static_cast<int>(threadIdx.x);
    T exclusive = T(0);
    if (tile != 0) {
      if (lane == 0) mine_status.store(pack_status(kAggregateReady, aggregate),
                                       cuda::memory_order_release);
      long long lowest = static_cast<long long>(tile) - 32;  // the window: lowest .. lowest + 31
      for (;;) {
        const long long index = lowest + 31 - lane;             // lane 0: the nearest tile
        StatusWord word = pack_status(kPrefixReady, T(0));
        if (index >= 0) word = wait_for_status(status, tile, static_cast<unsigned>(index), watchdog);
        const unsigned done = __ballot_sync(kFullMask, status_flag(word) == kPrefixReady);
        const int stop = done == 0 ? 32 : __ffs(done);          // lanes below `stop` count
        T part = lane < stop ? status_value<T>(word) : T(0);
        for (int offset = 1; offset < 32; offset *= 2) part += __shfl_down_sync(kFullMask, part, offset);
        exclusive += __shfl_sync(kFullMask, part, 0);
        if (done != 0) break;
        lowest -= 32;
      }
    }
    if (lane == 0) {
      mine_status.store(pack_status(kPrefixReady, exclusive + aggregate), cuda::memory_order_release);
      tile_prefix = exclusive;
    }
  }
  __syncthreads();
// @region
  COURSE_CHECK(cudaMemsetAsync(state.counter, 0, state.bytes));
