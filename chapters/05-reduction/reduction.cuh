// Chapter 05, parallel reduction: the five classic kernels (after Mark Harris, "Optimizing Parallel
// Reduction in CUDA"), each fixing the previous one's problem. This header is the API that the
// exercise and the solution (and the known mistakes planted into it) implement, and the multi-pass
// host loop they share. Plain C++ apart from the templates' use of the CUDA runtime.
//
// One PASS reduces n elements to one sum per block. The host launches passes on the block sums
// until one value remains: blocks cannot wait for each other inside a kernel, so the kernel
// boundary is the global barrier.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "course/device_buffer.hpp"
#include "course/guarded_buffer.hpp"
#include "course/errors.hpp"
#include "course/math.hpp"
#include "reduction_steps.hpp"  // kSteps, kStepCount: generated from steps.json

namespace reduction {

// A pass: block b of a grid of ceil_div(n, block_size * elements_per_thread) blocks writes the
// sum of its slice of `input` to block_sums[b]. block_size threads per block, run time value.
template <typename T>
using PassFn = void (*)(const T* input, T* block_sums, std::size_t n, int block_size);

// Elements each thread adds while it loads: 2 from kernel 4 on ("first add during load").
constexpr int elements_per_thread(int kernel) { return kernel >= 4 ? 2 : 1; }

// Powers of two from 64 to 1024: the trees halve the block, and kernel 5's last warp reads
// sdata[tid + 32], so at least 64 threads. Otherwise std::invalid_argument.
void check_block_size(const char* function, int block_size);
void check_input(const char* function, const void* input, std::size_t n);
// A grid holds at most 2^31 - 1 blocks in x: larger inputs are rejected, never truncated.
void check_grid(const char* function, std::size_t n, int block_size, int elements_per_thread);

// The exact sum of a float/double input (long double: 64-bit mantissa, exact for the course's
// int inputs), and how far a GPU sum may be from it: every element goes through at most
// L = summation_depth(n) = 2 ceil(log2 n) + 4 additions (one during load, one per tree level,
// one per level of the host's passes), so the classic bound gamma_L * sum |x_i| applies
// (course::summation_error_bound, course/rounding.hpp). Integers: 0 (exact).
template <typename T>
long double cpu_sum(const std::vector<T>& input);
std::size_t summation_depth(std::size_t n);
template <typename T>
double rounding_error_bound(const std::vector<T>& input);

// Two ping-pong buffers of block sums, reused from call to call (timing leaves allocation out).
// Guarded (course/guarded_buffer.hpp): the tests see a kernel that writes past its block sums.
template <typename T>
struct Workspace {
  course::GuardedBuffer<T> first, second;

  void reserve(std::size_t count) {
    if (first.size() < count) first = course::GuardedBuffer<T>(count);
    if (second.size() < count) second = course::GuardedBuffer<T>(count);
  }
  // "" when no kernel wrote outside the block sums, else what it wrote where.
  std::string margin_report() const {
    std::string text = first.check_margins().text("the block sums");
    if (text.empty()) text = second.check_margins().text("the block sums");
    return text;
  }
};

// The whole reduction: passes until one value is left, then that value copied to the host.
// n = 0 gives 0, the identity of the sum.
template <typename T>
T reduce(PassFn<T> pass, int elements_per_thread, const T* input, std::size_t n, int block_size,
         Workspace<T>& workspace) {
  check_input("reduction::reduce", input, n);
  check_block_size("reduction::reduce", block_size);
  check_grid("reduction::reduce", n, block_size, elements_per_thread);
  if (n == 0) return T(0);
  const std::size_t per_block = static_cast<std::size_t>(block_size) * elements_per_thread;
  const std::size_t first_sums = course::ceil_div(n, per_block);
  workspace.reserve(first_sums);
  const T* in = input;
  T* out = workspace.first.data();
  std::size_t count = n;
  while (count > 1) {
    pass(in, out, count, block_size);
    count = course::ceil_div(count, per_block);
    in = out;
    out = out == workspace.first.data() ? workspace.second.data() : workspace.first.data();
  }
  T result{};
  COURSE_CHECK(cudaMemcpy(&result, in, sizeof(T), cudaMemcpyDeviceToHost));
  return result;
}

#define REDUCTION_DECLARE_PASSES                                                    \
  template <typename T>                                                             \
  void reduce1_pass(const T* input, T* block_sums, std::size_t n, int block_size); \
  template <typename T>                                                             \
  void reduce2_pass(const T* input, T* block_sums, std::size_t n, int block_size); \
  template <typename T>                                                             \
  void reduce3_pass(const T* input, T* block_sums, std::size_t n, int block_size); \
  template <typename T>                                                             \
  void reduce4_pass(const T* input, T* block_sums, std::size_t n, int block_size); \
  template <typename T>                                                             \
  void reduce5_pass(const T* input, T* block_sums, std::size_t n, int block_size);

// Each kernel file instantiates its pass for the element types the course uses.
#define REDUCTION_INSTANTIATE_PASS(pass)                                        \
  template void pass<int>(const int*, int*, std::size_t, int);                  \
  template void pass<float>(const float*, float*, std::size_t, int);            \
  template void pass<double>(const double*, double*, std::size_t, int);

namespace solution {
REDUCTION_DECLARE_PASSES
}  // namespace solution

namespace exercise {
REDUCTION_DECLARE_PASSES
}  // namespace exercise

// The pass of kernel `number` (1-5) of an implementation, for element type T.
template <typename T>
PassFn<T> solution_pass(int number) {
  constexpr PassFn<T> passes[] = {solution::reduce1_pass<T>, solution::reduce2_pass<T>,
                                  solution::reduce3_pass<T>, solution::reduce4_pass<T>,
                                  solution::reduce5_pass<T>};
  return passes[number - 1];
}
template <typename T>
PassFn<T> exercise_pass(int number) {
  constexpr PassFn<T> passes[] = {exercise::reduce1_pass<T>, exercise::reduce2_pass<T>,
                                  exercise::reduce3_pass<T>, exercise::reduce4_pass<T>,
                                  exercise::reduce5_pass<T>};
  return passes[number - 1];
}

}  // namespace reduction
