// Host-side pieces shared by every implementation of chapter 11: the workspace, the argument
// checks, the FLOP count and the CPU reference.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "attention.cuh"
#include "course/cublas.hpp"
#include "course/device_info.hpp"
#include "course/random.hpp"

namespace attention {

Workspace::Workspace() = default;

Workspace::~Workspace() {
  if (blas_ != nullptr) cublasDestroy(static_cast<cublasHandle_t>(blas_));
}

void Workspace::begin_call() {
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

void* Workspace::blas() {
  if (blas_ == nullptr) {
    cublasHandle_t handle = nullptr;
    COURSE_CHECK_CUBLAS(cublasCreate(&handle));
    blas_ = handle;
  }
  return blas_;
}

void check_arguments(const char* step, const __half* q, const __half* k, const __half* v,
                     const __half* o, const Shape& shape, long long max_tokens) {
  const std::string where = std::string("attention::") + step + ": ";
  if (shape.head_dim != 64 && shape.head_dim != 128) {
    throw std::invalid_argument(where + "head_dim = " + std::to_string(shape.head_dim) +
                                " is not supported; the steps are built for head dimensions 64 "
                                "and 128 (pad the heads, or split them, to one of those)");
  }
  const auto check_size = [&](long long value, long long most, const char* name,
                              const char* what) {
    if (value < 1 || value > most) {
      throw std::invalid_argument(where + name + " = " + std::to_string(value) +
                                  " is out of range; pass " + what + " from 1 to " +
                                  std::to_string(most));
    }
  };
  check_size(shape.batch, kMaxBatch, "batch", "the number of sequences,");
  check_size(shape.heads, kMaxHeads, "heads", "the number of heads,");
  check_size(shape.tokens, max_tokens, "tokens", "the sequence length,");
  const std::size_t bytes = static_cast<std::size_t>(shape.elements()) * sizeof(__half);
  const auto check_pointer = [&](const __half* pointer, const char* name) {
    if (pointer == nullptr) {
      throw std::invalid_argument(where + name + " is a null pointer; pass a device array of "
                                  "batch x tokens x heads x head_dim FP16 values");
    }
    if (reinterpret_cast<std::uintptr_t>(pointer) % 16 != 0) {
      throw std::invalid_argument(where + name + " is not aligned to 16 bytes, and the steps "
                                  "move 16-byte pieces; pass the start of a cudaMalloc'd array "
                                  "(256-byte aligned), or an offset that is a multiple of 8 "
                                  "values");
    }
  };
  check_pointer(q, "q");
  check_pointer(k, "k");
  check_pointer(v, "v");
  check_pointer(o, "o");
  const auto overlaps = [&](const __half* input) {
    const auto a = reinterpret_cast<std::uintptr_t>(input), b = reinterpret_cast<std::uintptr_t>(o);
    return a < b + bytes && b < a + bytes;
  };
  if (overlaps(q) || overlaps(k) || overlaps(v)) {
    throw std::invalid_argument(where + "o overlaps q, k or v; the steps read every key and "
                                "value while others write O, so pass an output array of its own");
  }
}

namespace {

constexpr int kFusedCapability = 80;  // mma.sync.m16n8k16 and cp.async
constexpr int kHopperCapability = 90;  // the TMA, mbarriers, wgmma and setmaxnreg (sm_90a code)

std::string capability_text(int capability) {
  return std::to_string(capability / 10) + "." + std::to_string(capability % 10);
}

int capability_of(const course::DeviceInfo& gpu) {
  return gpu.compute_capability_major * 10 + gpu.compute_capability_minor;
}

// Whether this GPU runs the build's sm_90a code, asked once per device.
bool runs_sm90a_code() {
  static std::map<int, bool> known;
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const auto found = known.find(device);
  if (found != known.end()) return found->second;
  const bool runs = capability_of(course::current_device()) == kHopperCapability &&
                    sm90a_code_runs();
  return known.emplace(device, runs).first->second;
}

}  // namespace

std::string why_step_cannot_run(int step) {
  if (step < 2) return "";
  const course::DeviceInfo& gpu = course::current_device();
  const int capability = capability_of(gpu);
  const std::string number = "step " + std::to_string(step);
  const std::string this_gpu = "this GPU, " + gpu.name + ", is " + capability_text(capability);
  if (step >= 4) {  // sm_90a code, which runs on compute capability 9.0 alone
    if (runs_sm90a_code()) return "";
    if (capability != kHopperCapability) {
      return number + " needs compute capability 9.0 exactly (wgmma and setmaxnreg exist only "
             "in sm_90a code, which runs on no other GPU); " + this_gpu;
    }
    return number + "'s sm_90a code did not run on this GPU although it is 9.0: the build's "
           "sm_90 code was picked instead; configure a new build folder with -Dgpu_arch=sm_90a";
  }
  if (capability < kFusedCapability) {
    return number + " needs compute capability " + capability_text(kFusedCapability) +
           " or newer (mma.sync.m16n8k16, cp.async); " + this_gpu;
  }
  const int built_for = course::built_for_compute_capability();
  if (built_for < kFusedCapability) {
    return number + " needs code built for compute capability " +
           capability_text(kFusedCapability) + " or newer (mma.sync.m16n8k16, cp.async), and "
           "this build is for " + capability_text(built_for) + " (" + this_gpu + "): configure "
           "a new build folder with -Dgpu_arch=sm_" + std::to_string(capability) +
           " (or native) and build again";
  }
  return "";
}

bool step_needs_a_rebuild(int step) {
  if (step < 2) return false;
  const int capability = capability_of(course::current_device());
  if (step >= 4) return capability == kHopperCapability && !runs_sm90a_code();
  return capability >= kFusedCapability &&
         course::built_for_compute_capability() < kFusedCapability;
}

void require_gpu_for_step(int step) {
  const std::string why = why_step_cannot_run(step);
  if (!why.empty()) throw StepNeedsAnotherGpu(why);
}

double flops(const Shape& shape) {
  const double n = shape.tokens;
  return 4.0 * shape.batch * shape.heads * n * n * shape.head_dim * (shape.causal ? 0.5 : 1.0);
}

std::vector<float> fp16_values(std::size_t n, double scale, std::uint64_t seed) {
  std::vector<float> values =
      course::random_floats(n, static_cast<float>(-scale), static_cast<float>(scale), seed);
  for (float& value : values) value = __half2float(__float2half_rn(value));
  return values;
}

std::vector<__half> to_fp16(const std::vector<float>& values) {
  std::vector<__half> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = __float2half_rn(values[i]);
  return out;
}

// Every value of O is sum_j p_j v_j with |v_j| <= 1. P is rounded to FP16 before it multiplies V
// (steps 2 and 3 round the unnormalized exponentials, step 1 the probabilities): 2^-11 of each
// term, 2^-11 in all. O is rounded to FP16 once: 2^-11 of |o| <= 1. The exponentials (ex2.approx,
// __expf) and the FP32 sums of the numerator and of the row sum: below 2^-12 in all for rows of up
// to a few thousand keys, on both, so 2^-11 for the quotient. The scores themselves are FP32 dot
// products of FP16 values: at most d 2^-24 of sum |q k|, about 1e-4 in the tests with |q| <= 1, the
// last 2^-11 of margin. 4 x 2^-11 = 2^-9 in all; a missing rescale, a lost term or a misplaced
// fragment is off by far more.
double error_bound() { return std::ldexp(1.0, -9); }

std::vector<double> cpu_attention_rows(const std::vector<float>& q, const std::vector<float>& k,
                                       const std::vector<float>& v, const Shape& shape, int b,
                                       int h, const std::vector<int>& rows) {
  const int d = shape.head_dim;
  const auto at = [&](const std::vector<float>& x, int token, int c) {
    return static_cast<double>(
        x[((static_cast<std::size_t>(b) * shape.tokens + token) * shape.heads + h) * d + c]);
  };
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> out(rows.size() * d, 0.0), weight(shape.tokens);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int i = rows[r];
    const int end = shape.causal ? i + 1 : shape.tokens;
    double max = -INFINITY;
    for (int j = 0; j < end; ++j) {
      double dot = 0.0;
      for (int c = 0; c < d; ++c) dot += at(q, i, c) * at(k, j, c);
      weight[j] = dot * scale;
      max = std::max(max, weight[j]);
    }
    double sum = 0.0;
    for (int j = 0; j < end; ++j) sum += (weight[j] = std::exp(weight[j] - max));
    for (int j = 0; j < end; ++j) {
      const double p = weight[j] / sum;
      for (int c = 0; c < d; ++c) out[r * d + c] += p * at(v, j, c);
    }
  }
  return out;
}

}  // namespace attention
