// Host-side pieces shared by every implementation of chapter 08: the argument checks, which
// step this GPU can run, the padded copy of B, and the kernels' resources.
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "course/device_buffer.hpp"
#include "course/device_info.hpp"
#include "course/errors.hpp"
#include "tensor_core_gemm.cuh"

namespace tensor_core_gemm {

namespace {

std::string say(const char* function, const std::string& what) {
  return std::string(function) + ": " + what;
}

bool aligned(const void* pointer, std::uintptr_t bytes) {
  return reinterpret_cast<std::uintptr_t>(pointer) % bytes == 0;
}

struct Gpu {
  std::string name;
  int major = 0, minor = 0;
  bool sm90a = false;
  int shared_bytes_per_block = 0;  // the most one block may opt in to
  int multiprocessors = 0;
};

// The current GPU, asked once per device (launchers ask on every call).
const Gpu& current_gpu() {
  static std::map<int, Gpu> known;
  int device = 0;
  COURSE_CHECK(cudaGetDevice(&device));
  const auto found = known.find(device);
  if (found != known.end()) return found->second;
  const course::DeviceInfo info = course::query_device();
  Gpu gpu{info.name, info.compute_capability_major, info.compute_capability_minor, false, 0,
          info.multiprocessor_count};
  gpu.sm90a = gpu.major == 9 && gpu.minor == 0 && detail::sm90a_code_runs();
  COURSE_CHECK(cudaDeviceGetAttribute(&gpu.shared_bytes_per_block,
                                      cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return known.emplace(device, gpu).first->second;
}

int step3_stages_override = 0;  // detail::override_step3_stages
int step6_blocks_override = 0;  // detail::override_step6_blocks
bool one_launch_per_tile = false;  // detail::override_one_launch_per_tile

}  // namespace

int step3_stages_for(int shared_bytes_per_block) {
  const int fit = shared_bytes_per_block / kStep3StageBytes;
  return fit < 2 ? 0 : fit > 4 ? 4 : fit;
}

int step3_stages() {
  return step3_stages_override != 0 ? step3_stages_override
                                    : step3_stages_for(current_gpu().shared_bytes_per_block);
}

void detail::override_step3_stages(int stages) {
  if (stages == 0) {  // no GPU call: this runs in a test's destructor, after errors too
    step3_stages_override = 0;
    return;
  }
  if (stages < 2 || stages > 4) {  // no ring of this depth exists, on any GPU
    throw std::invalid_argument("override_step3_stages: " + std::to_string(stages) +
                                " stages: step 3's ring has 2 to 4 (or 0 for the GPU's own)");
  }
  const int most = step3_stages_for(current_gpu().shared_bytes_per_block);
  if (stages > most) {
    throw std::invalid_argument("override_step3_stages: " + std::to_string(stages) +
                                " stages do not fit this GPU (2 to " + std::to_string(most) +
                                ", or 0 for its own)");
  }
  step3_stages_override = stages;
}

int step6_blocks() {
  return step6_blocks_override != 0 ? step6_blocks_override : current_gpu().multiprocessors;
}

void detail::override_step6_blocks(int blocks) {
  if (blocks < 0) {
    throw std::invalid_argument("override_step6_blocks: " + std::to_string(blocks) +
                                " blocks: pass 1 or more (or 0 for one per SM)");
  }
  step6_blocks_override = blocks;
}

TileLaunches tile_launches(int tiles_m, int tiles_n) {
  return {tiles_m, tiles_n, one_launch_per_tile};
}

void detail::override_one_launch_per_tile(int on) { one_launch_per_tile = on != 0; }

void check_arguments(const char* function, const __half* A, const __half* B, const float* C,
                     int m, int k, int n) {
  if (m < 1 || n < 1) {
    throw std::invalid_argument(say(function, "m = " + std::to_string(m) + " and n = " +
                                                  std::to_string(n) + " must both be at least 1"));
  }
  if (k < 8 || k % 8 != 0) {
    throw std::invalid_argument(say(
        function, "k = " + std::to_string(k) +
                      " must be a positive multiple of 8 (rows of A start on 16 bytes): pad A's "
                      "columns and B's rows with zeros to the next multiple of 8"));
  }
  if (m > kMaxRows) {
    throw std::invalid_argument(say(function, "m = " + std::to_string(m) + " is more than the " +
                                                  std::to_string(kMaxRows) +
                                                  " rows the grids reach; multiply A in parts"));
  }
  constexpr long long kMaxElements = std::numeric_limits<int>::max();
  // B as the kernels read it: with rows of round_up(n, 64) when n is not a multiple of 8.
  const long long padded_n = n % 8 == 0 ? n : (n + 63LL) / 64 * 64;
  if (1LL * m * k > kMaxElements || 1LL * k * padded_n > kMaxElements ||
      1LL * m * n > kMaxElements) {
    throw std::invalid_argument(say(function, "a matrix of " + std::to_string(m) + " x " +
                                                  std::to_string(k) + " x " + std::to_string(n) +
                                                  " has 2^31 elements or more; multiply in parts"));
  }
  if (A == nullptr || B == nullptr || C == nullptr) {
    throw std::invalid_argument(say(function, "A, B and C must be device pointers, not null"));
  }
  if (!aligned(A, 16) || !aligned(B, 16)) {
    throw std::invalid_argument(say(function,
                                    "A and B must start on 16 bytes (cudaMalloc's pointers do; "
                                    "an offset into a matrix must be a multiple of 8 halves)"));
  }
  if (!aligned(C, alignof(float))) {
    throw std::invalid_argument(say(function, "C must be aligned for float (4 bytes)"));
  }
}

namespace {

// Throws std::invalid_argument, naming `function`, for a step number the chapter does not have.
void check_step_number(const char* function, int step) {
  if (step < 1 || step > kStepCount) {
    throw std::invalid_argument(std::string(function) + ": there is no step " +
                                std::to_string(step) + " (1 to " + std::to_string(kStepCount) +
                                ")");
  }
}

}  // namespace

namespace {

// The compute capability (x 10) that step `step`'s instructions need, and which they are.
struct StepNeeds {
  int capability;
  const char* what;
};
StepNeeds needs_of(int step) {
  switch (step) {
    case 1: return {70, "WMMA"};
    case 2:
    case 3: return {80, "mma.sync.m16n8k16, cp.async"};
    case 4: return {90, "the TMA, mbarrier byte counts"};
    default: return {90, "wgmma and setmaxnreg"};  // and sm_90a code: see below
  }
}

}  // namespace

std::string why_step_cannot_run(int step) {
  check_step_number("why_step_cannot_run", step);
  const Gpu& gpu = current_gpu();
  const std::string this_gpu = "this GPU, " + gpu.name + ", is " + std::to_string(gpu.major) +
                               "." + std::to_string(gpu.minor);
  const StepNeeds needs = needs_of(step);
  const std::string number = "step " + std::to_string(step);
  const int capability = gpu.major * 10 + gpu.minor;
  if (step >= 5) {  // wgmma and setmaxnreg: sm_90a code, which runs on 9.0 alone
    if (gpu.sm90a) return "";
    if (capability != 90) {
      return number + " needs compute capability 9.0 exactly (" + needs.what +
             " exist only in sm_90a code, which runs on no other GPU); " + this_gpu;
    }
    return number + "'s sm_90a code did not run on this GPU although it is 9.0: the build's " +
           "sm_90 code was picked instead; configure with -Dgpu_arch=sm_90a";
  }
  if (capability < needs.capability) {
    return number + " needs compute capability " + std::to_string(needs.capability / 10) +
           "." + std::to_string(needs.capability % 10) + " or newer (" + needs.what + "); " +
           this_gpu;
  }
  const int built_for = course::built_for_compute_capability();
  if (built_for < needs.capability) {
    return number + " needs code built for compute capability " +
           std::to_string(needs.capability / 10) + "." + std::to_string(needs.capability % 10) +
           " or newer (" + needs.what + "), and this build is for " +
           std::to_string(built_for / 10) + "." + std::to_string(built_for % 10) + " (" +
           this_gpu + "): configure a new build folder with -Dgpu_arch=sm_" +
           std::to_string(capability) + " (or native) and build again";
  }
  if (step == 4 && gpu.shared_bytes_per_block < kRingSharedBytes) {
    return "step 4 needs " + std::to_string(kRingSharedBytes / 1024) +
           " KiB of shared memory per block (its ring of four stages); this GPU, " + gpu.name +
           ", allows " + std::to_string(gpu.shared_bytes_per_block / 1024) + " KiB";
  }
  if (step == 3 && step3_stages_for(gpu.shared_bytes_per_block) == 0) {
    return "step 3 needs " + std::to_string(2 * kStep3StageBytes / 1024) +
           " KiB of shared memory per block (two stages of its ring); this GPU, " + gpu.name +
           ", allows " + std::to_string(gpu.shared_bytes_per_block / 1024) + " KiB";
  }
  return "";
}

bool step_needs_a_rebuild(int step) {
  check_step_number("step_needs_a_rebuild", step);
  const Gpu& gpu = current_gpu();
  const int capability = gpu.major * 10 + gpu.minor;
  if (step >= 5) return capability == 90 && !gpu.sm90a;
  const int needed = needs_of(step).capability;
  return capability >= needed && course::built_for_compute_capability() < needed;
}

void require_gpu_for_step(int step) {
  const std::string why = why_step_cannot_run(step);
  if (!why.empty()) throw StepNeedsAnotherGpu(why);
}

const __half* b_with_rows_of_multiple_of_8(const __half* B, int k, int n, int* ldb) {
  *ldb = n;
  if (n % 8 == 0) return B;
  // A copy is made anyway: its rows are padded to 64 halves (128 bytes), so that every row of
  // B, and every 128-byte row of a TMA box, starts on a 128-byte line.
  *ldb = (n + 63) / 64 * 64;
  static course::DeviceBuffer<__half> padded;
  const std::size_t needed = static_cast<std::size_t>(k) * *ldb;
  if (padded.size() < needed) padded = course::DeviceBuffer<__half>(needed);
  const std::size_t row_bytes = static_cast<std::size_t>(*ldb) * sizeof(__half);
  const std::size_t width_bytes = static_cast<std::size_t>(n) * sizeof(__half);
  COURSE_CHECK(cudaMemcpy2DAsync(padded.data(), row_bytes, B, width_bytes, width_bytes, k,
                                 cudaMemcpyDeviceToDevice));
  COURSE_CHECK(cudaMemset2DAsync(padded.data() + n, row_bytes, 0, row_bytes - width_bytes, k));
  return padded.data();
}

}  // namespace tensor_core_gemm
