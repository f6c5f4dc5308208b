#include "sum_of_squares_checks.hpp"

#include <algorithm>
#include <sstream>

#include "course/compare.hpp"
#include "course/device_buffer.hpp"
#include "course/guarded_buffer.hpp"
#include "course/errors.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"

namespace sum_of_squares::testing {

namespace {

std::string source_of(Implementation implementation, const std::string& file) {
  return std::string(implementation == Implementation::solution ? "solutions" : "exercises") +
         "/01-sum-of-squares/" + file;
}

// A one-line explanation of a wrong sum, when the difference has a telling shape.
std::string diagnose_sum(const std::vector<int>& input, std::uint64_t expected,
                         std::uint64_t got) {
  const std::uint64_t missing = expected - got;  // modulo 2^64
  if ((missing & 0xFFFFFFFFull) == 0) {
    return "the sum is off by a multiple of 2^32: a 32-bit overflow (an int accumulator, or "
           "x * x computed in int before widening)";
  }
  std::uint64_t tail = 0;
  for (std::size_t k = 1; k <= input.size() && k <= 4096; ++k) {
    tail += cpu_square(input[input.size() - k]);
    if (tail == missing) {
      return "exactly the last " + std::to_string(k) + " element(s) are missing: the work does "
             "not reach the end of the input (a loop bound or a rounded-down chunk size?)";
    }
  }
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (cpu_square(input[i]) == missing) {
      return "exactly one element's square is missing (index " + std::to_string(i) +
             " fits): an off-by-one in a loop bound?";
    }
  }
  return "";
}

}  // namespace

void PrintTo(Implementation implementation, std::ostream* out) {
  *out << (implementation == Implementation::solution ? "solution" : "exercise");
}

std::vector<unsigned long long> contiguous_chunk_partials(const std::vector<int>& input,
                                                          int threads) {
  std::vector<unsigned long long> partials(threads, 0);
  const std::size_t chunk = (input.size() + threads - 1) / threads;
  for (std::size_t i = 0; i < input.size(); ++i) partials[i / chunk] += cpu_square(input[i]);
  return partials;
}

std::vector<unsigned long long> grid_stride_partials(const std::vector<int>& input, int blocks,
                                                     int threads) {
  const std::size_t grid_threads = static_cast<std::size_t>(blocks) * threads;
  std::vector<unsigned long long> partials(grid_threads, 0);
  for (std::size_t i = 0; i < input.size(); ++i) partials[i % grid_threads] += cpu_square(input[i]);
  return partials;
}

std::vector<unsigned long long> interleaved_partials(const std::vector<int>& input, int threads) {
  return grid_stride_partials(input, 1, threads);
}

std::vector<unsigned long long> per_block_partials(const std::vector<int>& input, int blocks,
                                                   int threads) {
  const std::vector<unsigned long long> per_thread = grid_stride_partials(input, blocks, threads);
  std::vector<unsigned long long> partials(blocks, 0);
  for (std::size_t g = 0; g < per_thread.size(); ++g) partials[g / threads] += per_thread[g];
  return partials;
}

StepUnderTest sum_step(Implementation impl, int step, int blocks, int threads) {
  const bool sol = impl == Implementation::solution;
  const std::string launch =
      "<<<" + std::to_string(blocks) + ", " + std::to_string(threads) + ">>>";
  switch (step) {
    case 1:
      return {"step1_one_thread<<<1, 1>>>", source_of(impl, "step1_one_thread.cu"),
              [sol](const int* in, std::size_t n, Workspace& ws) {
                return sol ? solution::step1_one_thread(in, n, ws)
                           : exercise::step1_one_thread(in, n, ws);
              },
              [](const std::vector<int>& in) {
                return std::vector<unsigned long long>{cpu_sum_of_squares(in)};
              }};
    case 2:
      return {"step2_contiguous_chunks<<<1, " + std::to_string(threads) + ">>>",
              source_of(impl, "step2_contiguous_chunks.cu"),
              [sol, threads](const int* in, std::size_t n, Workspace& ws) {
                return sol ? solution::step2_contiguous_chunks(in, n, threads, ws)
                           : exercise::step2_contiguous_chunks(in, n, threads, ws);
              },
              [threads](const std::vector<int>& in) {
                return contiguous_chunk_partials(in, threads);
              }};
    case 3:
      return {"step3_interleaved<<<1, " + std::to_string(threads) + ">>>",
              source_of(impl, "step3_interleaved.cu"),
              [sol, threads](const int* in, std::size_t n, Workspace& ws) {
                return sol ? solution::step3_interleaved(in, n, threads, ws)
                           : exercise::step3_interleaved(in, n, threads, ws);
              },
              [threads](const std::vector<int>& in) { return interleaved_partials(in, threads); }};
    case 4:
      return {"step4_grid_stride" + launch, source_of(impl, "step4_grid_stride.cu"),
              [sol, blocks, threads](const int* in, std::size_t n, Workspace& ws) {
                return sol ? solution::step4_grid_stride(in, n, blocks, threads, ws)
                           : exercise::step4_grid_stride(in, n, blocks, threads, ws);
              },
              [blocks, threads](const std::vector<int>& in) {
                return grid_stride_partials(in, blocks, threads);
              }};
    case 5:
      return {"step5_block_reduction" + launch, source_of(impl, "step5_block_reduction.cu"),
              [sol, blocks, threads](const int* in, std::size_t n, Workspace& ws) {
                return sol ? solution::step5_block_reduction(in, n, blocks, threads, ws)
                           : exercise::step5_block_reduction(in, n, blocks, threads, ws);
              },
              [blocks, threads](const std::vector<int>& in) {
                return per_block_partials(in, blocks, threads);
              }};
    default:
      throw std::invalid_argument("sum_step: steps are 1 to 5");
  }
}

std::vector<StepUnderTest> sum_steps(Implementation impl) {
  // Odd configurations on purpose: thread counts that are not multiples of 32 (steps 2-4) and
  // grids whose thread count divides none of the test sizes.
  return {sum_step(impl, 1, 1, 1), sum_step(impl, 2, 1, 250), sum_step(impl, 3, 1, 250),
          sum_step(impl, 4, 7, 96), sum_step(impl, 5, 13, 128)};
}

::testing::AssertionResult matches_cpu(const StepUnderTest& step, const std::vector<int>& input) {
  // Between margins of 0x5EADBEEF: a read past either end changes the sum.
  const course::GuardedBuffer<int> device_input(input);
  Workspace workspace;
  workspace.poison_before_each_run(true);
  const Result result = step.run(device_input.data(), input.size(), workspace);
  COURSE_CHECK(cudaDeviceSynchronize());
  const std::uint64_t expected = cpu_sum_of_squares(input);
  const std::string margins = workspace.margin_report();
  if (result.sum == expected && margins.empty()) return ::testing::AssertionSuccess();

  const std::vector<unsigned long long> got_partials(
      workspace.last_partials(), workspace.last_partials() + workspace.last_partial_count());
  const course::ComparisonReport partials =
      course::compare_exact(step.textbook_partials(input), got_partials);

  std::ostringstream message;
  message << step.name << " on n = " << input.size() << ": sum is " << result.sum
          << ", the CPU says " << expected << ".\n  Edit: " << step.source_file;
  std::string diagnosis;
  const std::uint64_t guard_square = cpu_square(course::kGuardInt);
  if (!margins.empty()) {
    diagnosis = "the kernel " + margins;
  } else if (partials.unwritten == partials.checked && partials.checked > 0) {
    diagnosis = "the kernel wrote none of its partial sums: is the TODO still open?";
  } else if (partials.unwritten > 0) {
    diagnosis = std::to_string(partials.unwritten) + " of " + std::to_string(partials.checked) +
                " partial sums were never written: does every thread (or thread 0 of every "
                "block) store its result?";
  } else if (const std::uint64_t extra = result.sum - expected;
             extra % guard_square == 0 && extra / guard_square <= 1024) {
    diagnosis = "the sum is too large by exactly " + std::to_string(extra / guard_square) +
                " times the square of 0x5EADBEEF, the value the test puts around the input: "
                "the kernel read that many elements past its end";
  } else {
    diagnosis = diagnose_sum(input, expected, result.sum);
  }
  if (diagnosis.empty() && std::all_of(got_partials.begin(), got_partials.end(),
                                       [](unsigned long long p) { return p == 0; })) {
    diagnosis = "every partial sum was written, and every one is 0: what the threads added "
                "never reached partials[] (with this launch configuration: " + step.name + ")";
  }
  if (diagnosis.empty()) {
    Workspace again;
    const Result second = step.run(device_input.data(), input.size(), again);
    if (second.sum != result.sum) {
      diagnosis = "a second run gave another sum (" + std::to_string(second.sum) +
                  "): a race, such as a missing __syncthreads()";
    }
  }
  if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
  message << "\n  Partial sums against the lesson's assignment of elements to threads: "
          << partials.text();
  return ::testing::AssertionFailure() << message.str();
}

std::vector<int> test_input(std::size_t n, std::uint64_t seed) {
  return course::random_ints(n, -(1 << 20), 1 << 20, seed);
}

const std::vector<std::size_t>& test_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    // Under compute-sanitizer (the step's sanitizer cases) a few small sizes, quick there too.
    if (course::under_sanitizer()) return std::vector<std::size_t>{0, 1, 33, 1025};
    return std::vector<std::size_t>{0, 1, 2, 31, 32, 33, 1023, 1025, (1u << 20) + 7,
                                    (1u << 25) + 3};
  }();
  return sizes;
}

}  // namespace sum_of_squares::testing
