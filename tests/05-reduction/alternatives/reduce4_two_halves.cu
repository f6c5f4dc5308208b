// ALTERNATIVE 05.4 reduce4_first_add_during_load.cu
// The block's slice as two halves of blockDim.x elements: `low` in the first, `high` the same
// place in the second; each missing element counts as 0 and the two are added in one store.
// @region
  const std::size_t slice = 2 * static_cast<std::size_t>(blockDim.x) * blockIdx.x;
  const std::size_t low = slice + tid, high = low + blockDim.x;
  const T first = low < n ? input[low] : T(0);
  const T second = high < n ? input[high] : T(0);
  sdata[tid] = first + second;
