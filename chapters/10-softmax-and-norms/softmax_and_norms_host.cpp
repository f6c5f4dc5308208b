// Host-side pieces shared by every implementation of chapter 10: the workspace, the argument
// checks, and the CPU references in double precision.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "course/device_info.hpp"
#include "course/random.hpp"
#include "course/testing.hpp"
#include "course/watchdog.hpp"
#include "softmax_and_norms.cuh"

namespace softmax_and_norms {

void Workspace::begin_call() {
  launches_ = 0;
  if (poison_) {
    for (auto& buffer : buffers_) buffer.fill_bytes(course::kPoisonByte);
  }
}

void* Workspace::scratch(int slot, std::size_t bytes) {
  if (buffers_.size() <= static_cast<std::size_t>(slot)) buffers_.resize(slot + 1);
  auto& buffer = buffers_[slot];
  if (buffer.size() < bytes) {
    buffer = course::DeviceBuffer<unsigned char>(bytes);
    if (poison_) buffer.fill_bytes(course::kPoisonByte);
  }
  return buffer.data();
}

namespace {

std::string where_of(const char* step) {
  return std::string("softmax_and_norms::") + step + ": ";
}

void check_shape(const std::string& where, long long rows, long long cols, long long max_cols) {
  if (rows < 1 || rows > kMaxRows) {
    throw std::invalid_argument(where + "rows = " + std::to_string(rows) +
                                (rows < 1 ? " is not positive" : " is more than 2^31 - 1") +
                                "; pass the number of rows of the matrix, 1 to 2^31 - 1");
  }
  if (cols < 1) {
    throw std::invalid_argument(where + "cols = " + std::to_string(cols) +
                                " is not positive; pass the number of columns (the row length), "
                                "at least 1");
  }
  if (cols > max_cols) {
    const bool on_chip = max_cols < kMaxCols;  // steps 2, 3 and 5 (one block), 6 (a cluster)
    throw std::invalid_argument(
        where + "cols = " + std::to_string(cols) + " is more than " + std::to_string(max_cols) +
        (on_chip ? ", the longest row this step holds on chip (in registers); use "
                   "step4_online_softmax (softmax) for longer rows"
                 : ", the longest row this chapter's kernels index; split the row"));
  }
}

void check_pointer(const std::string& where, const void* pointer, const char* name,
                   std::size_t element_bytes, bool vectors) {
  if (pointer == nullptr) {
    throw std::invalid_argument(where + name + " is a null pointer; pass a device array of "
                                "rows x cols elements (gamma and beta: cols elements)");
  }
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  if (address % element_bytes != 0) {
    throw std::invalid_argument(where + name + " is not aligned to its element type (" +
                                std::to_string(element_bytes) +
                                " bytes); pass a pointer to an element of a cudaMalloc'd array");
  }
  if (vectors && address % 16 != 0) {
    throw std::invalid_argument(
        where + name + " is not aligned to 16 bytes, and this step reads and writes 16-byte "
        "vectors; pass the start of a cudaMalloc'd array (256-byte aligned), or an offset that "
        "is a multiple of 16 bytes");
  }
}

}  // namespace

void check_softmax_arguments(const char* step, const float* input, const float* output,
                             long long rows, long long cols, long long max_cols, bool vectors) {
  const std::string where = where_of(step);
  check_shape(where, rows, cols, max_cols);
  check_pointer(where, input, "input", sizeof(float), vectors);
  check_pointer(where, output, "output", sizeof(float), vectors);
}

namespace {

// The norms' checks, for FP16 and BF16 alike (2-byte elements); `type` goes into the message
// after the step's name ("step5_rms_norm (BF16): ..."): the overload that refused.
void check_norm_arguments_of(const char* step, const char* type, const void* input,
                             const void* output, const void* gamma, const void* beta,
                             std::size_t element_bytes, bool has_beta, long long rows,
                             long long cols, float epsilon) {
  const std::string where = where_of((std::string(step) + " (" + type + ")").c_str());
  check_shape(where, rows, cols, kMaxOnChipCols);
  check_pointer(where, input, "input", element_bytes, true);
  check_pointer(where, output, "output", element_bytes, true);
  check_pointer(where, gamma, "gamma", element_bytes, true);
  if (has_beta) check_pointer(where, beta, "beta", element_bytes, true);
  if (!(epsilon > 0.0f) || !std::isfinite(epsilon)) {
    throw std::invalid_argument(where + "epsilon = " + std::to_string(epsilon) +
                                " is not a positive finite number; pass a small positive "
                                "epsilon such as 1e-5 (it keeps 1 / sqrt(variance + epsilon) "
                                "finite for a constant row)");
  }
}

}  // namespace

void check_norm_arguments(const char* step, const __half* input, const __half* output,
                          const __half* gamma, const __half* beta, bool has_beta, long long rows,
                          long long cols, float epsilon) {
  check_norm_arguments_of(step, "FP16", input, output, gamma, beta, sizeof(__half), has_beta,
                          rows, cols, epsilon);
}

void check_norm_arguments(const char* step, const __nv_bfloat16* input,
                          const __nv_bfloat16* output, const __nv_bfloat16* gamma,
                          const __nv_bfloat16* beta, bool has_beta, long long rows, long long cols,
                          float epsilon) {
  check_norm_arguments_of(step, "BF16", input, output, gamma, beta, sizeof(__nv_bfloat16),
                          has_beta, rows, cols, epsilon);
}

namespace {

constexpr int kClusterCapability = 90;  // thread block clusters and distributed shared memory

std::string capability_text(int capability) {
  return std::to_string(capability / 10) + "." + std::to_string(capability % 10);
}

}  // namespace

std::string why_step_cannot_run(int step) {
  if (step != 6) return "";
  const course::DeviceInfo& gpu = course::current_device();
  const int capability = gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
  const std::string this_gpu = "this GPU, " + gpu.name + ", is " + capability_text(capability);
  if (capability < kClusterCapability) {
    return "step 6 needs compute capability " + capability_text(kClusterCapability) +
           " or newer (thread block clusters, distributed shared memory); " + this_gpu;
  }
  const int built_for = course::built_for_compute_capability();
  if (built_for < kClusterCapability) {
    return "step 6 needs code built for compute capability " +
           capability_text(kClusterCapability) + " or newer (thread block clusters), and this "
           "build is for " + capability_text(built_for) + " (" + this_gpu + "): configure a new "
           "build folder with -Dgpu_arch=sm_" + std::to_string(capability) +
           " (or native) and build again";
  }
  return "";
}

bool step_needs_a_rebuild(int step) {
  if (step != 6) return false;
  const course::DeviceInfo& gpu = course::current_device();
  return gpu.compute_capability_major * 10 + gpu.compute_capability_minor >= kClusterCapability &&
         course::built_for_compute_capability() < kClusterCapability;
}

void require_gpu_for_step(int step) {
  const std::string why = why_step_cannot_run(step);
  if (!why.empty()) throw StepNeedsAnotherGpu(why);
}

void synchronize_or_stop(const std::string& step, const std::string& file) {
  course::synchronize_or_stop(step, "A GPU cannot give up a barrier: some thread waits for "
                              "others that never arrive. Every thread of every block must reach "
                              "each barrier (step 6: both cluster barriers, outside any if).",
                              file);
}

std::vector<double> cpu_softmax(const std::vector<float>& input, long long rows, long long cols) {
  std::vector<double> output(input.size());
  for (long long r = 0; r < rows; ++r) {
    const float* x = input.data() + r * cols;
    double* y = output.data() + r * cols;
    double max = -std::numeric_limits<double>::infinity();
    for (long long c = 0; c < cols; ++c) max = std::max(max, static_cast<double>(x[c]));
    if (max == -std::numeric_limits<double>::infinity()) {  // nothing unmasked: all 0
      std::fill(y, y + cols, 0.0);
      continue;
    }
    double sum = 0;
    for (long long c = 0; c < cols; ++c) sum += std::exp(static_cast<double>(x[c]) - max);
    for (long long c = 0; c < cols; ++c) y[c] = std::exp(static_cast<double>(x[c]) - max) / sum;
  }
  return output;
}

NormReference cpu_norm(const std::vector<float>& input, const std::vector<float>& gamma,
                       const std::vector<float>& beta, long long rows, long long cols,
                       double epsilon) {
  const bool layer = !beta.empty();
  NormReference ref;
  ref.output.resize(input.size());
  ref.shift.resize(rows);
  ref.scale.resize(rows);
  for (long long r = 0; r < rows; ++r) {
    const float* x = input.data() + r * cols;
    double mean = 0, spread = 0;
    if (layer) {  // two passes in double: the mean first, then the squared deviations from it
      for (long long c = 0; c < cols; ++c) mean += x[c];
      mean /= static_cast<double>(cols);
      for (long long c = 0; c < cols; ++c) spread += (x[c] - mean) * (x[c] - mean);
    } else {
      for (long long c = 0; c < cols; ++c) spread += static_cast<double>(x[c]) * x[c];
    }
    const double scale = 1.0 / std::sqrt(spread / static_cast<double>(cols) + epsilon);
    ref.shift[r] = mean;
    ref.scale[r] = scale;
    for (long long c = 0; c < cols; ++c) {
      ref.output[r * cols + c] = (x[c] - mean) * scale * gamma[c] + (layer ? beta[c] : 0.0);
    }
  }
  return ref;
}

}  // namespace softmax_and_norms
