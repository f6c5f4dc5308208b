// Exercise file: replace every TODO below with your code. Check it with
//   ./course test 06.4
// (or: meson test -C build --suite 06-warp-reduction:exercise --print-errorlogs)
// (generated from solutions/06-warp-reduction/ by python3 -m tools.sync_exercises)
// Step 4: 16-byte loads, several in flight.
// Changed from step 3: each thread reads its elements as int4 / float4 / double2 vectors, one
// 16-byte load instruction where step 3 issued four (two for doubles), and issues
// kVectorsInFlight of them before it adds any. Fewer instructions per byte, and more bytes in
// flight per thread: a DRAM load takes hundreds of nanoseconds (chapter 01's step 0 measures
// yours: 346 ns on an H200), so the GPU must keep bandwidth x latency bytes of loads
// outstanding to stream at full bandwidth, megabytes on a large GPU (Little's law, chapter 01).
// A vector load must start on a 16-byte boundary. The input may not (a pointer into the middle
// of an array, `input + 1`): the `head` elements before the first boundary, and the tail after
// the last whole vector, are added one at a time by the first threads of the grid.
#include "warp_reduction.cuh"
#include "warp_reduction_device.cuh"

namespace warp_reduction::exercise {

namespace {

template <typename T, unsigned BLOCK>
__global__ void vector_loads_kernel(const T* input, T* block_sums, std::size_t n,
                                    std::size_t head) {
  using Vector = typename Vector16<T>::type;  // int4, float4 or double2
  constexpr int kWidth = Vector16<T>::width;  // elements per vector
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * BLOCK + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * BLOCK;
  T sum = T(0);
  // TODO: (1) the whole vectors: `vectors` of them start at input + head (a 16-byte boundary);
  //           the tail, fewer than kWidth elements, starts right after the last one.
  //       (2) threads below `head` add input[thread]; threads below the tail's length add the
  //           tail's element `thread`.
  //       (3) a grid-stride loop over the vectors (stride `threads`) that loads
  //           kVectorsInFlight vectors, `threads` apart, into an array before adding any of
  //           them (component_sum adds a vector's elements); then the remaining vectors one
  //           at a time. No vector may reach past n.
  const T total = ready_made::block_sum<T, BLOCK>(sum);  // step 3's shuffles
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

}  // namespace

template <typename T>
T step4_vector_loads(const T* input, std::size_t n, int block_size, Workspace<T>& workspace) {
  check_arguments("step4_vector_loads", input, n, block_size);
  return with_block_size(block_size, [&](auto block) {
    constexpr unsigned BLOCK = decltype(block)::value;
    constexpr std::size_t kPerBlock = BLOCK * Vector16<T>::width * kVectorsInFlight;
    const auto kernel = vector_loads_kernel<T, BLOCK>;
    return reduce_in_passes(
        input, n, workspace,
        [&](std::size_t count) {
          return grid_stride_blocks(reinterpret_cast<const void*>(kernel), BLOCK, count, kPerBlock,
                                    kVectorThreadsPerMultiprocessor);
        },
        [&](const T* in, T* out, std::size_t count, std::size_t blocks) {
          kernel<<<static_cast<unsigned>(blocks), BLOCK>>>(in, out, count, unaligned_head(in, count));
          COURSE_CHECK_LAUNCH("vector_loads_kernel");
        });
  });
}

WARP_REDUCTION_INSTANTIATE(step4_vector_loads)

}  // namespace warp_reduction::exercise
