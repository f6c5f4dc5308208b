// ALTERNATIVE 09.3 step3_reduce_then_scan.cu
// Pass 1 without vectors: each thread walks the block's whole range with a block-sized stride
// (coalesced, one element at a time), so the tiles need no tail case; pass 2 counts its tiles by
// index rather than by address, and keeps the prefix of the next tile instead of this one's.
// @region
  T sum = T(0);
  for (std::size_t i = first + threadIdx.x; i < end; i += kTileThreads) sum += input[i];
  const T total = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
// @region
  const std::size_t tiles = (end - first + kTileItems - 1) / kTileItems;
  T next = T(0);
  if (blockIdx.x != 0) next = scanned[blockIdx.x - 1];
  for (std::size_t k = 0; k < tiles; ++k) {
    const std::size_t start = first + k * kTileItems;
    const int valid = static_cast<int>(end - start < kTileItems ? end - start : kTileItems);
    load_tile(input + start, valid, items, storage);
    const T prefix = next;
    next += ready_made::block_scan(items);
    for (int j = 0; j < kItemsPerThread; ++j) items[j] += prefix;
    store_tile(output + start, valid, items, storage);
  }
