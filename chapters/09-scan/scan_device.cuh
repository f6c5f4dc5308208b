// Chapter 09's device code that no step asks the learner to write: the element type the kernels
// add in, moving a tile between global memory and registers with 16-byte vectors, a block sum,
// the host loop of the hierarchical scans and its add-back kernel, and step 4's status words and
// bounded wait. Compiled by nvcc only (the .cu files include it; the host tests do not).
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "scan.cuh"

namespace scan {

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kWarps = kTileThreads / 32;
static_assert(kItemsPerThread % 4 == 0, "a thread's items are whole 16-byte vectors");
static_assert(kTileThreads % 32 == 0 && kWarps <= 32, "whole warps, at most 32 of them");

// The kernels add ints as unsigned ints: the same bits, and a sum that wraps modulo 2^32 instead
// of a signed overflow (undefined behaviour, which the compiler may assume never happens).
template <typename T>
struct Arithmetic {
  using type = T;
};
template <>
struct Arithmetic<int> {
  using type = unsigned;
};
template <typename T>
using Word = typename Arithmetic<T>::type;

// A pointer to T as one to its Word: int* -> unsigned*, float* -> float*.
template <typename T>
Word<T>* as_words(T* p) {
  return reinterpret_cast<Word<T>*>(p);
}
template <typename T>
const Word<T>* as_words(const T* p) {
  return reinterpret_cast<const Word<T>*>(p);
}

// The 16-byte vector of four 4-byte values.
template <typename T>
struct Vector4;
template <>
struct Vector4<unsigned> {
  using type = uint4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

// ---- A tile between global memory and registers -----------------------------------------------
// Thread t of a block holds elements [t * kItemsPerThread, (t + 1) * kItemsPerThread) of the
// tile ("blocked": each thread scans consecutive elements). Global memory is read and written
// "striped" instead, vector v of the tile by thread v % kTileThreads, so that a warp's 32
// vectors are 512 consecutive bytes (coalesced). Shared memory turns one into the other. Its
// index is padded by one vector after every kPadPeriod elements, so that neither the striped
// vectors nor each thread's own vectors fall into the same banks (the 8 lanes of a 16-byte
// access each hit a different group of 4 banks: for 24 items per thread, 96 bytes apart, one
// pad per thread's 96 elements does it).
inline constexpr int kPadPeriod = 4 * kItemsPerThread;
__device__ __forceinline__ int padded(int element) { return element + (element / kPadPeriod) * 4; }
inline constexpr int kPaddedTileItems = kTileItems + kTileItems / kPadPeriod * 4;

template <typename T>
struct TileStorage {
  alignas(16) T items[kPaddedTileItems];
};

// Loads `valid` (1 to kTileItems) elements from `tile` into each thread's `items` (blocked);
// items past `valid` are 0, the identity of the sum. Every thread of the block must call it.
// The tile's data is read once: loads that evict first (__ldcs), leaving L2 to the status words.
template <typename T>
__device__ void load_tile(const T* tile, int valid, T (&items)[kItemsPerThread],
                          TileStorage<T>& storage) {
  using V = typename Vector4<T>::type;
  if (valid == kTileItems) {
#pragma unroll
    for (int k = 0; k < kItemsPerThread / 4; ++k) {
      const int v = k * kTileThreads + threadIdx.x;
      *reinterpret_cast<V*>(&storage.items[padded(4 * v)]) =
          __ldcs(reinterpret_cast<const V*>(tile) + v);
    }
  } else {
#pragma unroll
    for (int k = 0; k < kItemsPerThread; ++k) {
      const int e = k * kTileThreads + threadIdx.x;
      storage.items[padded(e)] = e < valid ? __ldcs(tile + e) : T(0);
    }
  }
  __syncthreads();  // the whole tile is in shared memory before any thread reads its part
#pragma unroll
  for (int q = 0; q < kItemsPerThread / 4; ++q) {
    const V v = *reinterpret_cast<const V*>(
        &storage.items[padded(threadIdx.x * kItemsPerThread + 4 * q)]);
    items[4 * q] = v.x;
    items[4 * q + 1] = v.y;
    items[4 * q + 2] = v.z;
    items[4 * q + 3] = v.w;
  }
  __syncthreads();  // every thread has its items: the storage may be reused
}

// Stores each thread's `items` (blocked) to the first `valid` elements of `tile`, striped, with
// stores that evict first (__stcs): the output is not read again. Every thread must call it.
template <typename T>
__device__ void store_tile(T* tile, int valid, const T (&items)[kItemsPerThread],
                           TileStorage<T>& storage) {
  using V = typename Vector4<T>::type;
#pragma unroll
  for (int q = 0; q < kItemsPerThread / 4; ++q) {
    V v;
    v.x = items[4 * q];
    v.y = items[4 * q + 1];
    v.z = items[4 * q + 2];
    v.w = items[4 * q + 3];
    *reinterpret_cast<V*>(&storage.items[padded(threadIdx.x * kItemsPerThread + 4 * q)]) = v;
  }
  __syncthreads();  // the whole tile is in shared memory before any thread writes a stripe
  if (valid == kTileItems) {
#pragma unroll
    for (int k = 0; k < kItemsPerThread / 4; ++k) {
      const int v = k * kTileThreads + threadIdx.x;
      __stcs(reinterpret_cast<V*>(tile) + v,
             *reinterpret_cast<const V*>(&storage.items[padded(4 * v)]));
    }
  } else {
#pragma unroll
    for (int k = 0; k < kItemsPerThread; ++k) {
      const int e = k * kTileThreads + threadIdx.x;
      if (e < valid) __stcs(tile + e, storage.items[padded(e)]);
    }
  }
  __syncthreads();  // the storage may be reused
}

// The sum of this thread's part of a tile read striped (no shared memory: a sum needs no
// order): `valid` elements from `tile`, 16-byte vectors when the tile is whole.
template <typename T>
__device__ T striped_sum(const T* tile, int valid) {
  using V = typename Vector4<T>::type;
  T sum = T(0);
  if (valid == kTileItems) {
    V loaded[kItemsPerThread / 4];
#pragma unroll
    for (int k = 0; k < kItemsPerThread / 4; ++k) {
      loaded[k] = __ldcs(reinterpret_cast<const V*>(tile) + k * kTileThreads + threadIdx.x);
    }
#pragma unroll
    for (int k = 0; k < kItemsPerThread / 4; ++k) {
      sum += (loaded[k].x + loaded[k].y) + (loaded[k].z + loaded[k].w);
    }
  } else {
    for (int e = threadIdx.x; e < valid; e += kTileThreads) sum += __ldcs(tile + e);
  }
  return sum;
}

// The block's total of `value` (one per thread), in every thread: chapter 06's shuffles. Every
// thread of the block must call it; it ends with a barrier, so it may be called in a loop.
template <typename T>
__device__ T block_sum(T value) {
  __shared__ T warp_totals[kWarps];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullMask, value, offset);
  }
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = value;
  __syncthreads();
  T total = T(0);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) total += warp_totals[w];
  __syncthreads();  // read by all before a next call overwrites them
  return total;
}

// ---- The hierarchical scan (steps 1 and 2) ------------------------------------------------------
// Adds the scanned sums back: element i of `data` (whose tile is i / tile_items) gets the sum of
// every earlier tile, scanned_sums[tile - 1]; tile 0 has nothing before it. Each thread adds to
// four consecutive elements (vectors when `vectors` is true and the four exist).
template <typename T>
__global__ void add_tile_prefixes_kernel(T* data, std::size_t n, const T* scanned_sums,
                                         std::size_t tile_items, bool vectors) {
  using V = typename Vector4<T>::type;
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (first >= n) return;
  const std::size_t tile = first / tile_items;  // tile_items is a multiple of 4
  if (tile == 0) return;
  const T prefix = scanned_sums[tile - 1];
  if (vectors && first + 4 <= n) {
    V v = *reinterpret_cast<V*>(data + first);
    v.x += prefix;
    v.y += prefix;
    v.z += prefix;
    v.w += prefix;
    *reinterpret_cast<V*>(data + first) = v;
  } else {
    for (std::size_t i = first; i < n && i < first + 4; ++i) data[i] += prefix;
  }
}

// The scan in levels: launch_tiles(in, out, count, sums) scans each tile of `tile_items`
// elements of `in` into `out` and writes tile t's total to sums[t]; when there is more than one
// tile, the sums are scanned the same way (in place, one level down) and added back. About 4n
// words of traffic: each level reads and writes the data, and the add-back reads and writes it
// again. n = 0 launches nothing.
template <typename T, typename LaunchTiles>
void scan_in_levels(const T* input, T* output, std::size_t n, std::size_t tile_items,
                    Workspace& workspace, int level, bool vectors, LaunchTiles&& launch_tiles) {
  if (n == 0) return;
  const std::size_t tiles = course::ceil_div(n, tile_items);
  T* sums = static_cast<T*>(workspace.sums(level, tiles));
  launch_tiles(input, output, n, sums);
  workspace.count_launch();
  if (tiles == 1) return;
  scan_in_levels(static_cast<const T*>(sums), sums, tiles, tile_items, workspace, level + 1,
                 vectors, launch_tiles);
  constexpr int kThreads = 256;
  const std::size_t blocks = course::ceil_div(course::ceil_div(n, std::size_t{4}), kThreads);
  add_tile_prefixes_kernel<T><<<static_cast<unsigned>(blocks), kThreads>>>(output, n, sums,
                                                                          tile_items, vectors);
  COURSE_CHECK_LAUNCH("add_tile_prefixes_kernel");
  workspace.count_launch();
}

// ---- Step 4: status words and the bounded wait ----------------------------------------------------
// A tile's status word holds its flag (low 32 bits) and its value's bits (high 32 bits): one
// 64-bit word, so that a reader who sees a flag sees the value written with it.
using StatusWord = unsigned long long;
inline constexpr unsigned kNothingYet = 0;       // what a reset status word reads
inline constexpr unsigned kAggregateReady = 1;   // value: the tile's own total
inline constexpr unsigned kPrefixReady = 2;      // value: the sum of every tile up to this one

template <typename T>
__device__ __forceinline__ StatusWord pack_status(unsigned flag, T value) {
  static_assert(sizeof(T) == 4, "a status word holds a 4-byte value");
  unsigned bits;
  memcpy(&bits, &value, 4);
  return (static_cast<StatusWord>(bits) << 32) | flag;
}
__device__ __forceinline__ unsigned status_flag(StatusWord word) {
  return static_cast<unsigned>(word);
}
template <typename T>
__device__ __forceinline__ T status_value(StatusWord word) {
  const unsigned bits = static_cast<unsigned>(word >> 32);
  T value;
  memcpy(&value, &bits, 4);
  return value;
}

// Gives up when a wait that began at `started` (clock64()) has taken more than the watchdog's
// budget: records who waited for what in the report (the first to give up) and traps, which
// ends the kernel with an error instead of a hang.
__device__ __forceinline__ void give_up_if_too_long(long long started, unsigned tile,
                                                    unsigned waited_for,
                                                    const Watchdog& watchdog) {
  if (course::watchdog_expired(watchdog, started)) {
    course::watchdog_give_up(watchdog, tile, waited_for);  // the report's what[0] and what[1]
  }
}

// When a lane sleeps (__nanosleep) instead of reading a status word. In the first window (the 32
// tiles just before the caller's) it sleeps before its first read, about as long as a store takes
// to reach L2: those tiles started with the caller and have only just published, so reading at
// once mostly finds aggregates, or nothing, and a longer look-back. After an empty read it sleeps
// again before the next: fewer reads keep L2 free for the words that are ready and for the data.
// A small grid runs in one wave with nobody to wait for long, and never sleeps. (CUB's tuning for
// 4-byte sums on sm_90 uses these times; on an H200 they make step 4 about 15% faster at 2^28.)
inline constexpr unsigned kFirstReadDelayNs = 1245;
inline constexpr unsigned kRetryNs = 648;
inline constexpr unsigned kSleepFromTiles = 500;
inline constexpr unsigned kWindow = 32;  // tiles whose words one warp reads at once

// Waits until tile `waited_for`'s status word holds something (its flag is not kNothingYet) and
// returns it. Each read is a strong (relaxed, GPU-scope) 64-bit load: never hoisted out of the
// loop, never a stale copy from this SM's L1, and the flag and the value of one store together.
// Bounded by the watchdog (`tile`: the caller's tile, for the report).
__device__ __forceinline__ StatusWord wait_for_status(StatusWord* status, unsigned tile,
                                                      unsigned waited_for,
                                                      const Watchdog& watchdog) {
  const bool sleeps = gridDim.x >= kSleepFromTiles;
  if (sleeps && tile - waited_for <= kWindow) __nanosleep(kFirstReadDelayNs);
  cuda::atomic_ref<StatusWord, cuda::thread_scope_device> word(status[waited_for]);
  StatusWord seen = word.load(cuda::memory_order_relaxed);
  if (status_flag(seen) != kNothingYet) return seen;
  const long long started = clock64();
  while (status_flag(seen) == kNothingYet) {
    give_up_if_too_long(started, tile, waited_for, watchdog);
    if (sleeps) __nanosleep(kRetryNs);
    seen = word.load(cuda::memory_order_relaxed);
  }
  return seen;
}

}  // namespace scan
