// Hopper's PTX that more than one chapter uses (chapter 08, steps 4-6; chapter 10, step 6;
// chapter 11, steps 4-5), each wrapped once and commented: the shared-memory barriers (mbarrier),
// the TMA's plain bulk copy, the asynchronous store into another block of the cluster, the wgmma
// matrix descriptor and the wgmma group fences, and setmaxnreg. The chapters add what is theirs
// (their TMA copies, their wgmma shapes, their waits) in namespaces that take these in with
// `using namespace course::hopper`. nvcc only.
//
// Two targets: the mbarriers with byte counts (COURSE_HOPPER_TMA) need compute capability 9.0 or
// newer; wgmma and setmaxnreg (COURSE_HOPPER_WGMMA) exist only in the architecture-specific
// target sm_90a, which runs on compute capability 9.0 and no other. Elsewhere each wrapper
// compiles to nothing, and the steps that need them refuse to run.
#pragma once

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define COURSE_HOPPER_TMA 1
#endif
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define COURSE_HOPPER_WGMMA 1
#endif

namespace course::hopper {

namespace detail {
// A shared-memory pointer as the 32-bit shared-window address PTX wants.
__device__ __forceinline__ std::uint32_t window_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}
}  // namespace detail

// ---- mbarrier: a barrier in shared memory that counts arrivals AND bytes ----------------------
// A phase completes when `count` threads have arrived and every byte announced with
// arrive_and_expect_bytes() has been written by the TMA. Each completion flips the barrier's
// phase parity (0, 1, 0, ...); a waiter names the parity of the phase it waits for. A barrier
// that was just initialised counts as having completed a phase of parity 1, so the first wait on
// parity 1 passes at once (a stage that starts empty).

// mbarrier.init: `count` arrivals per phase. Once, by one thread, before anyone uses it; then
// fence_barrier_init() and __syncthreads().
__device__ __forceinline__ void barrier_init(std::uint64_t* barrier, unsigned count) {
#if defined(COURSE_HOPPER_TMA)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(
                   detail::window_address(barrier)),
               "r"(count)
               : "memory");
#endif
}

// Makes the initialised barriers visible to the TMA (the "async proxy"), which completes them.
__device__ __forceinline__ void fence_barrier_init() {
#if defined(COURSE_HOPPER_TMA)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// mbarrier.arrive.expect_tx: this thread arrives, and the current phase will also wait for
// `bytes` more bytes of TMA copies (which name this barrier) to land.
__device__ __forceinline__ void arrive_and_expect_bytes(std::uint64_t* barrier, unsigned bytes) {
#if defined(COURSE_HOPPER_TMA)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   detail::window_address(barrier)),
               "r"(bytes)
               : "memory");
#endif
}

// mbarrier.arrive: this thread arrives (one of the `count` of the phase).
__device__ __forceinline__ void arrive(std::uint64_t* barrier) {
#if defined(COURSE_HOPPER_TMA)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(
                   detail::window_address(barrier))
               : "memory");
#endif
}

// cp.async.bulk (the TMA without a tensor map): `bytes` contiguous bytes from global memory into
// this block's shared memory, counted on `barrier` as they land (announce them first with
// arrive_and_expect_bytes). Both addresses 16-byte aligned, `bytes` a multiple of 16. One thread
// issues it; nothing passes through registers.
__device__ __forceinline__ void copy_bulk_to_shared(void* destination, const void* source,
                                                    unsigned bytes, std::uint64_t* barrier) {
#if defined(COURSE_HOPPER_TMA)
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
      ::"r"(detail::window_address(destination)), "l"(source), "r"(bytes),
      "r"(detail::window_address(barrier))
      : "memory");
#endif
}

// st.async: two floats into the shared memory of block `rank` of this thread's cluster, at the
// place that `slot` has in this block's shared memory; when their 8 bytes land, they count on
// the mbarrier at the place that `barrier` has in that block (as a TMA copy's bytes do, so that
// block announces them with arrive_and_expect_bytes, before or after they land). The thread does
// not wait: the receiver knows the values are there when its barrier's phase completes. The
// cluster must have two blocks or more (compute-sanitizer's memcheck rejects it in a cluster of
// one: "Cluster needs to have at least 2 blocks").
__device__ __forceinline__ void store_pair_to_block(const void* slot, const std::uint64_t* barrier,
                                                    unsigned rank, float first, float second) {
#if defined(COURSE_HOPPER_TMA)
  std::uint32_t remote_slot = 0, remote_barrier = 0;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n"
               : "=r"(remote_slot)
               : "r"(detail::window_address(slot)), "r"(rank));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n"
               : "=r"(remote_barrier)
               : "r"(detail::window_address(barrier)), "r"(rank));
  asm volatile(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];\n"
      ::"r"(remote_slot), "f"(first), "f"(second), "r"(remote_barrier)
      : "memory");
#endif
}

// mbarrier.try_wait.parity: true once the phase with parity `parity` has completed (it may also
// wait a little, in hardware, before it answers false).
__device__ __forceinline__ bool phase_completed(std::uint64_t* barrier, int parity) {
  std::uint32_t done = 1;
#if defined(COURSE_HOPPER_TMA)
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(detail::window_address(barrier)), "r"(parity)
      : "memory");
#endif
  return done != 0;
}

// ---- wgmma: warpgroup matrix multiply-accumulate ------------------------------------------------
// A shared-memory matrix descriptor (64 bits) tells wgmma where a tile is and how it is laid
// out: the start address, two distances in bytes, and the swizzle. The chapters' tiles are all
// in "128-byte swizzle" atoms as the TMA writes them: 8 rows of 128 bytes (1024 bytes), the
// 16-byte pieces of row r XORed with r % 8. `leading_bytes` and `stride_bytes` are the
// distances between atoms:
//  - K-major (each row's k values contiguous): stride_bytes = 1024 from one 8-row group to the
//    next along m (or n); leading_bytes is not used with this swizzle (pass 16);
//  - MN-major (rows along k, m or n contiguous): leading_bytes from one 64-column atom to the
//    next along m or n, stride_bytes = 1024 from one 8-row group of k to the next.
__device__ __forceinline__ std::uint64_t matrix_descriptor(const void* tile,
                                                           unsigned leading_bytes,
                                                           unsigned stride_bytes) {
  const std::uint64_t address = detail::window_address(tile);
  return ((address & 0x3FFFF) >> 4)                                  // bits 0-13: address / 16
         | (static_cast<std::uint64_t>((leading_bytes >> 4) & 0x3FFF) << 16)  // bits 16-29
         | (static_cast<std::uint64_t>((stride_bytes >> 4) & 0x3FFF) << 32)   // bits 32-45
         | (std::uint64_t{1} << 62);                                 // bits 62-63: 128-byte swizzle
}

// wgmma.fence: orders this warpgroup's earlier register accesses (to the accumulators, and to
// A fragments in registers) before the wgmma that follow: required before the first wgmma of a
// batch whenever other instructions touched those registers since. It does not order shared
// memory: tiles written with ordinary stores would need fence.proxy.async before wgmma reads
// them; the TMA's tiles are made visible by the mbarrier wait that sees their bytes.
__device__ __forceinline__ void wgmma_fence() {
#if defined(COURSE_HOPPER_WGMMA)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

// wgmma.commit_group: the wgmma issued since the last commit form one group.
__device__ __forceinline__ void wgmma_commit() {
#if defined(COURSE_HOPPER_WGMMA)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

// wgmma.wait_group PENDING: waits until at most PENDING of this warpgroup's groups are
// unfinished (groups finish in the order they were committed). Only then may their accumulators
// be read, or the shared tiles they read be overwritten.
template <int PENDING>
__device__ __forceinline__ void wgmma_wait() {
#if defined(COURSE_HOPPER_WGMMA)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}

// setmaxnreg: a warpgroup gives registers back (DEC) or takes more (INC), so that consumers that
// hold large accumulators get the registers a producer does not need. Every warp of the
// warpgroup must execute it with the same count.
template <int REGISTERS>
__device__ __forceinline__ void release_registers() {
#if defined(COURSE_HOPPER_WGMMA)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
#endif
}
template <int REGISTERS>
__device__ __forceinline__ void claim_registers() {
#if defined(COURSE_HOPPER_WGMMA)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
#endif
}

}  // namespace course::hopper
