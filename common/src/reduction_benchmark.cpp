#include "course/reduction_benchmark.hpp"

#include <vector>

#include "course/random.hpp"
#include "course/rounding.hpp"

namespace course::bench {

template <typename T>
const ReductionInput<T>& random_sum_input(std::size_t n, std::size_t depth) {
  return cached_input<T>(n, [depth](std::size_t count) {
    const std::vector<double> values = random_doubles(count, -1.0, 1.0, count);
    const std::vector<T> host(values.begin(), values.end());
    long double sum = 0, magnitude = 0;
    for (const T x : host) {
      sum += x;
      magnitude += std::fabs(static_cast<long double>(x));
    }
    return ReductionInput<T>{DeviceBuffer<T>(host), sum,
                             summation_error_bound<T>(magnitude, depth)};
  });
}
template const ReductionInput<float>& random_sum_input<float>(std::size_t, std::size_t);
template const ReductionInput<double>& random_sum_input<double>(std::size_t, std::size_t);

Reducer Reducer::implementation(bool is_solution, const std::string& step,
                                const std::string& chapter) {
  const std::string who = is_solution ? "solution" : "exercise";
  return {who + " " + step, "meson test -C build --suite " + chapter + ":" + who};
}

std::string Reducer::wrong() const {
  return tests.empty() ? what + " gave a wrong sum"
                       : what + " gives a wrong sum; its tests say why: " + tests;
}

std::string Reducer::wrong_when_timed() const {
  return what + " gave a wrong sum in the timed runs";
}

void register_row(const std::string& name, benchmark::IterationCount samples, int repetitions,
                  std::function<void(benchmark::State&)> run) {
  sampled(benchmark::RegisterBenchmark(name.c_str(), std::move(run)), samples)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond)
      ->Repetitions(repetitions)
      ->DisplayAggregatesOnly(true);
}

void register_implementation_row(bool is_solution, bool exercise_passed, const std::string& name,
                                 benchmark::IterationCount samples, int repetitions,
                                 std::function<void(benchmark::State&)> run) {
  const bool timed = is_solution || exercise_passed;
  register_row((is_solution ? "Solution/" : "Exercise/") + name, timed ? samples : 1,
               timed ? repetitions : 1, std::move(run));
}

bool probe_exercise(const std::function<bool()>& probe) {
  return profiling() || probe();  // see profiling()
}

}  // namespace course::bench
