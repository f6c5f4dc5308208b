#include "softmax_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "course/compare.hpp"
#include "course/guarded_buffer.hpp"
#include "course/random.hpp"
#include "course/rounding.hpp"
#include "course/testing.hpp"

namespace softmax_and_norms::testing {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr double kFloatUlp = 0x1.0p-23;  // the spacing of floats in [1, 2): 2^-23

std::uint64_t seed_of(long long rows, long long cols, int kind) {
  return static_cast<std::uint64_t>(rows) * 1000003u + static_cast<std::uint64_t>(cols) * 7919u +
         static_cast<std::uint64_t>(kind) + 1;
}

void run_and_wait(const StepUnderTest& step, const std::function<void()>& run) {
  run();
  synchronize_or_stop(step.name, step.source_file);
}

std::string where(const StepUnderTest& step, long long rows, long long cols, const char* what) {
  std::ostringstream out;
  out << step.name << ", " << rows << " x " << cols << " (" << what << ")";
  return out.str();
}

// The first row that differs, if all its written elements are the expected ones times one
// factor: the row's sum (or its scale) is wrong, not the individual exponentials.
std::string diagnose_row_factor(const std::vector<double>& expected, const std::vector<float>& got,
                                long long rows, long long cols, double bound) {
  for (long long r = 0; r < rows; ++r) {
    double factor = 0;
    bool constant = true, differs = false;
    for (long long c = 0; c < cols && constant; ++c) {
      const double e = expected[r * cols + c], g = got[r * cols + c];
      if (!std::isfinite(g)) return "";
      if (std::fabs(g - e) > bound * e + kSoftmaxAbsoluteBound) differs = true;
      if (e < 1e-6) continue;
      if (factor == 0) factor = g / e;
      constant = std::fabs(g / e - factor) <= 1e-3 * factor;
    }
    if (!differs) continue;
    if (constant && factor != 0) {
      std::ostringstream out;
      out << "row " << r << " is the right shape but " << factor
          << " times too large: its sum of exponentials is wrong. Online: was the running sum "
             "multiplied by exp(old max - new max) when the max grew, and were the partial sums "
             "brought to a common max before they were added?";
      return out.str();
    }
    return "";
  }
  return "";
}

std::string diagnose_softmax(const std::vector<float>& input, const std::vector<double>& expected,
                             const std::vector<float>& got, long long rows, long long cols,
                             const course::ComparisonReport& report) {
  const std::size_t n = input.size();
  bool copied = true;
  for (std::size_t i = 0; i < n && copied; ++i) {
    copied = std::memcmp(&input[i], &got[i], sizeof(float)) == 0;
  }
  if (copied) return "the output is the input: nothing was computed (is a TODO still open?)";
  // A fully masked row (all -inf) must give 0, not NaN.
  for (long long r = 0; r < rows; ++r) {
    const float* x = input.data() + r * cols;
    if (std::all_of(x, x + cols, [](float v) { return v == -kInf; })) {
      const float* y = got.data() + r * cols;
      if (std::any_of(y, y + cols, [](float v) { return std::isnan(v); })) {
        return "row " + std::to_string(r) + " is entirely -inf and gave NaN: the course's "
               "policy is 0 for such a row (shift_for and scale_for exist for it: README, 'A "
               "row with nothing in it')";
      }
    }
  }
  float largest = 0;
  for (const float v : input) {
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  }
  if (report.non_finite > report.unwritten) {
    if (largest > 88.0f) {
      return "NaN or Inf where the inputs reach " + std::to_string(static_cast<int>(largest)) +
             ": exp of anything above 88.7 overflows a float. Is the row's max subtracted from "
             "every value before exp?";
    }
    return "NaN or Inf: a difference of two -inf (exp(-inf - (-inf)) is NaN: a max that is "
           "still -inf must not be subtracted), or a read outside the input (the test surrounds "
           "it with NaN)?";
  }
  return diagnose_row_factor(expected, got, rows, cols, softmax_relative_bound());
}

}  // namespace

const char* name_of(Values kind) {
  switch (kind) {
    case Values::random: return "random values in [-8, 8)";
    case Values::large: return "values up to 1e4 in magnitude";
    case Values::masked: return "-inf entries, a fully masked row, a masked prefix";
    case Values::ascending: return "rows in increasing order: the max comes last";
  }
  return "";
}

std::vector<float> softmax_input(Values kind, long long rows, long long cols) {
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const std::uint64_t seed = seed_of(rows, cols, static_cast<int>(kind));
  switch (kind) {
    case Values::random:
      return course::random_floats(n, -8.0f, 8.0f, seed);
    case Values::large:
      return course::random_floats(n, -1e4f, 1e4f, seed);
    case Values::masked: {
      std::vector<float> x = course::random_floats(n, -8.0f, 8.0f, seed);
      const std::vector<int> pick = course::random_ints(n, 0, 2, seed + 1);
      for (std::size_t i = 0; i < n; ++i) {
        if (pick[i] == 0) x[i] = -kInf;
      }
      if (rows > 0) std::fill(x.begin(), x.begin() + cols, -kInf);
      if (rows > 1) std::fill(x.begin() + cols, x.begin() + cols + (2 * cols) / 3, -kInf);
      if (rows > 2 && cols > 1) {
        std::fill(x.begin() + 2 * cols, x.begin() + 3 * cols - 1, -kInf);
        x[3 * cols - 1] = 0.5f;
      }
      return x;
    }
    case Values::ascending: {
      std::vector<float> x = course::random_floats(n, -20.0f, 20.0f, seed);
      for (long long r = 0; r < rows; ++r) {
        std::sort(x.begin() + r * cols, x.begin() + (r + 1) * cols);
      }
      return x;
    }
  }
  return {};
}

// Each output is exp(x - max) / sum. An __expf of an argument a (|a| <= 88 wherever the result is
// not negligible) is within (2 + 1.173 |a|) float ulps (CUDA C++ Programming Guide, intrinsic
// functions), and the subtraction x - max adds |a| 2^-24: together at most (2K + 1.173 * 88 + 44)
// ulps of 2^-23 along a chain of K exponentials (step 4 rescales a running sum up to K = 64
// times: its vectors per thread and the merges). The numerator and the sum each carry that
// error, the sum also gamma_L of its additions (L <= 128: values per thread plus tree levels).
double softmax_relative_bound() {
  constexpr double kChain = 64;
  const double exp_error = (2 * kChain + 1.173 * 88 + 44) * kFloatUlp;
  return 2 * exp_error + course::rounding_gamma<float>(128);
}

::testing::AssertionResult softmax_matches_cpu(const StepUnderTest& step, SoftmaxFn softmax,
                                               const std::vector<float>& input, long long rows,
                                               long long cols, Values kind) {
  const course::GuardedBuffer<float> device_input(input);
  course::GuardedBuffer<float> output(input.size());
  output.fill_bytes(course::kPoisonByte);
  Workspace workspace;
  workspace.poison_before_each_run(true);
  run_and_wait(step, [&] { softmax(device_input.data(), output.data(), rows, cols, workspace); });
  const std::vector<float> got = output.to_host();
  const std::vector<double> expected = cpu_softmax(input, rows, cols);
  const double relative = softmax_relative_bound();
  std::vector<double> bound(expected.size());
  for (std::size_t i = 0; i < bound.size(); ++i) {
    bound[i] = relative * expected[i] + kSoftmaxAbsoluteBound;
  }
  const course::ComparisonReport report =
      course::compare_within(expected, got, bound, static_cast<std::size_t>(cols));
  const std::string outside = output.check_margins().text("the output");
  const std::string input_written = device_input.check_margins().text("the input");
  if (report.ok() && outside.empty() && input_written.empty()) {
    return ::testing::AssertionSuccess();
  }
  std::ostringstream message;
  message << where(step, rows, cols, name_of(kind)) << ": " << report.text();
  const std::string diagnosis =
      report.ok() ? "" : diagnose_softmax(input, expected, got, rows, cols, report);
  if (!diagnosis.empty()) message << "\n  Diagnosis: " << diagnosis;
  if (!outside.empty()) {
    message << "\n  The kernel " << outside << " (the last vector of the last row may be partial)";
  }
  if (!input_written.empty()) message << "\n  The kernel " << input_written;
  message << "\n  Edit: " << step.source_file;
  return ::testing::AssertionFailure() << message.str();
}

namespace {

// What the norm tests need of an element type: a float rounded to the nearest T, and the error
// of that rounding: relative (half T's spacing in [1, 2): 2^-11 for FP16's 11 significant bits,
// 2^-8 for BF16's 8) and, among T's subnormals, absolute (half their spacing: FP16 2^-25, BF16,
// which has FP32's exponents, 2^-134).
template <typename T>
struct Element;
template <>
struct Element<__half> {
  static __half from(float x) { return __float2half_rn(x); }
  static float to_float(__half x) { return __half2float(x); }
  static constexpr double relative_rounding = 0x1.0p-11, subnormal_rounding = 0x1.0p-25;
};
template <>
struct Element<__nv_bfloat16> {
  static __nv_bfloat16 from(float x) { return __float2bfloat16_rn(x); }
  static float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
  static constexpr double relative_rounding = 0x1.0p-8, subnormal_rounding = 0x1.0p-134;
};

template <typename T>
float rounded_to(float x) {
  return Element<T>::to_float(Element<T>::from(x));
}

}  // namespace

template <typename T>
std::vector<float> norm_input(long long rows, long long cols, double mean, double spacing) {
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const std::uint64_t seed = seed_of(rows, cols, 10 + static_cast<int>(mean));
  std::vector<float> x;
  if (spacing == 0.0) {
    x = course::random_floats(n, -4.0f, 4.0f, seed);
  } else {
    const std::vector<int> steps = course::random_ints(n, -3, 3, seed);
    x.resize(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(mean + spacing * steps[i]);
  }
  for (float& v : x) v = rounded_to<T>(v);  // exactly a value of T
  return x;
}

namespace {

template <typename T>
std::vector<T> to_elements(const std::vector<float>& x) {
  std::vector<T> elements(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) elements[i] = Element<T>::from(x[i]);
  return elements;
}

// The elements as floats; an element still holding the poison (0xFFFF, a NaN in FP16 and in
// BF16) becomes the float poison, so that the comparison counts it as never written.
template <typename T>
std::vector<float> to_floats(const std::vector<T>& elements) {
  static_assert(sizeof(T) == sizeof(unsigned short), "FP16 and BF16: 2 bytes");
  std::vector<float> x(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) {
    unsigned short bits;
    std::memcpy(&bits, &elements[i], sizeof bits);
    x[i] = bits == 0xFFFF ? course::poison_value<float>() : Element<T>::to_float(elements[i]);
  }
  return x;
}

}  // namespace

template <typename T>
::testing::AssertionResult norm_matches_cpu(const StepUnderTest& step, bool layer_norm,
                                            const NormRun<T>& run,
                                            const std::vector<float>& input, long long rows,
                                            long long cols) {
  const std::vector<float> gamma = course::random_floats(cols, 0.5f, 1.5f, seed_of(1, cols, 20));
  std::vector<float> beta = course::random_floats(cols, -1.0f, 1.0f, seed_of(1, cols, 21));
  std::vector<float> g(gamma.size()), b(beta.size());
  for (std::size_t c = 0; c < gamma.size(); ++c) {
    g[c] = rounded_to<T>(gamma[c]);
    b[c] = rounded_to<T>(beta[c]);
  }
  const course::GuardedBuffer<T> device_input(to_elements<T>(input));
  const course::GuardedBuffer<T> device_gamma(to_elements<T>(g));
  const course::GuardedBuffer<T> device_beta(to_elements<T>(b));
  course::GuardedBuffer<T> output(input.size());
  output.fill_bytes(course::kPoisonByte);
  run_and_wait(step, [&] {
    run(device_input.data(), output.data(), device_gamma.data(), device_beta.data(), rows, cols,
        kEpsilon);
  });
  const std::vector<float> got = to_floats(output.to_host());
  if (!layer_norm) b.clear();
  const NormReference ref = cpu_norm(input, g, b, rows, cols, kEpsilon);
  // The rounding of the result to T (half an ulp: FP16 2^-11 relative, 2^-25 among subnormals;
  // BF16 2^-8 and 2^-134), the FP32 rounding of its arithmetic (a few 2^-24 of its terms), and
  // the errors of the row's statistics: the shift (mean) and its scale carry at most L
  // roundings of 2^-24 of the row's size |mean| + 1 / scale, and enter multiplied by scale *
  // |gamma|. L = 64 for rows of up to 4K values, 144 beyond (README, "The error bound").
  constexpr double u = 0x1.0p-24;
  const double roundings = cols <= 4096 ? 64 : 144;
  std::vector<double> bound(ref.output.size());
  for (long long r = 0; r < rows; ++r) {
    const double shift = ref.shift[r], scale = ref.scale[r];
    const double statistics = (std::fabs(shift) + 1.0 / scale) * roundings * u * scale;
    for (long long c = 0; c < cols; ++c) {
      const long long i = r * cols + c;
      const double y = ref.output[i];
      const double normalized = std::fabs(input[i] - shift) * scale * g[c];
      const double shifted = layer_norm ? std::fabs(b[c]) : 0.0;
      bound[i] = Element<T>::relative_rounding * std::fabs(y) + Element<T>::subnormal_rounding +
                 8 * u * (normalized + shifted) + statistics * g[c];
    }
  }
  const course::ComparisonReport report =
      course::compare_within(ref.output, got, bound, static_cast<std::size_t>(cols));
  const std::string outside = output.check_margins().text("the output");
  if (report.ok() && outside.empty()) return ::testing::AssertionSuccess();
  std::ostringstream message;
  double largest = 0;
  for (const double s : ref.shift) largest = std::max(largest, std::fabs(s));
  message << where(step, rows, cols, largest > 100 ? "a large mean, a tiny spread"
                                                   : "random values in [-4, 4)")
          << ": " << report.text();
  if (!report.ok() && report.non_finite == report.checked) {
    message << "\n  Diagnosis: every output is NaN or Inf: is a TODO still open (a row's count, "
               "mean or M2 never computed gives 0 / 0)?";
  } else if (!report.ok() && report.non_finite > report.unwritten) {
    message << "\n  Diagnosis: NaN or Inf: a division by a count of 0 (a thread or a warp with "
               "no values, merged with another), or a variance below 0?";
  } else if (!report.ok() && largest > 100) {
    message << "\n  Diagnosis: wrong only where the mean is large against the spread: a "
               "variance computed as E[x^2] - E[x]^2 cancels (README, step 5)";
  }
  if (!outside.empty()) message << "\n  The kernel " << outside;
  message << "\n  Edit: " << step.source_file;
  return ::testing::AssertionFailure() << message.str();
}

template std::vector<float> norm_input<__half>(long long, long long, double, double);
template std::vector<float> norm_input<__nv_bfloat16>(long long, long long, double, double);
template ::testing::AssertionResult norm_matches_cpu<__half>(const StepUnderTest&, bool,
                                                             const NormRun<__half>&,
                                                             const std::vector<float>&,
                                                             long long, long long);
template ::testing::AssertionResult norm_matches_cpu<__nv_bfloat16>(
    const StepUnderTest&, bool, const NormRun<__nv_bfloat16>&, const std::vector<float>&,
    long long, long long);

}  // namespace softmax_and_norms::testing
