// Chapter 00's checks (see first_kernel_checks.hpp). A .cu file: the checks of steps 3 and 6
// launch the kernels themselves, and step 4's probe is a kernel.
#include "first_kernel_checks.hpp"

#include <cuda.h>          // the driver's virtual memory types (no link with libcuda: see below)
#include <cudaTypedefs.h>  // PFN_cuMemCreate, ...

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "course/device_buffer.hpp"
#include "course/errors.hpp"
#include "course/guarded_buffer.hpp"
#include "course/math.hpp"
#include "course/random.hpp"

namespace first_kernel::testing {

void PrintTo(Implementation implementation, std::ostream* out) {
  *out << (implementation == Implementation::solution ? "solution" : "exercise");
}

std::string source_file(Implementation implementation, const std::string& step_file) {
  return std::string(implementation == Implementation::solution ? "solutions" : "exercises") +
         "/00-first-kernel/" + step_file;
}

Steps steps_of(Implementation implementation) {
  if (implementation == Implementation::solution) {
    return {solution::query_device, solution::round_trip,     solution::saxpy_kernel,
            solution::launch_config, solution::saxpy,         solution::time_launch_ms,
            solution::saxpy_in_flight_kernel};
  }
  return {exercise::query_device, exercise::round_trip,     exercise::saxpy_kernel,
          exercise::launch_config, exercise::saxpy,         exercise::time_launch_ms,
          exercise::saxpy_in_flight_kernel};
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  return course::random_floats(n, -1.0f, 1.0f, seed);
}

std::vector<double> cpu_saxpy(float a, const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = double(a) * x[i] + y[i];
  return out;
}

::testing::AssertionResult matches(const std::vector<float>& got,
                                   const std::vector<double>& expected, const std::string& what) {
  if (got.size() != expected.size()) {
    return ::testing::AssertionFailure() << what << ": " << got.size() << " elements, expected "
                                         << expected.size();
  }
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    // a * x[i] + y[i] with |a|, |x|, |y| <= 4: float rounding (fused or not) stays far below
    // 1e-5; an element the kernel never wrote keeps its old value, off by about |a * x[i]|.
    if (!(std::fabs(got[i] - expected[i]) <= 1e-5 * (1.0 + std::fabs(expected[i])))) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << wrong << " of " << got.size() << " elements are wrong, the first at "
         << "index " << first << " (got " << got[first] << ", expected " << expected[first]
         << ")";
}

::testing::AssertionResult kernel_matches_cpu(SaxpyKernel kernel, int n, int threads,
                                              const std::string& file, int per_thread) {
  if (kernel == nullptr) {
    return ::testing::AssertionFailure() << file << ": the kernel is a null pointer";
  }
  const float a = 2.5f;
  const std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2);
  course::GuardedBuffer<float> x_device(x), y_device(y);
  const int blocks = course::ceil_div(n, threads * per_thread);
  kernel<<<blocks, threads>>>(n, a, x_device.data(), y_device.data());
  COURSE_CHECK_LAUNCH("saxpy kernel");
  COURSE_CHECK(cudaDeviceSynchronize());
  std::ostringstream where;
  where << file << ", n = " << n << " with " << blocks << " blocks of " << threads << " threads";
  if (per_thread == 1) {
    where << " (" << blocks * threads - n << " threads past the end)";
  } else {
    where << " of " << per_thread << " elements each (room for "
          << blocks * threads * per_thread - n << " elements past the end)";
  }
  const std::string outside_y = y_device.check_margins().text("y");
  const std::string outside_x = x_device.check_margins().text("x");
  if (!outside_y.empty() || !outside_x.empty()) {
    return ::testing::AssertionFailure()
           << where.str() << ": the kernel wrote outside its arrays: " << outside_y << " "
           << outside_x << " (does every element number that is not below n stay untouched?)";
  }
  if (x_device.to_host() != x) {
    return ::testing::AssertionFailure() << where.str() << ": the kernel changed x";
  }
  return matches(y_device.to_host(), cpu_saxpy(a, x, y), where.str() + ": y after the kernel");
}

::testing::AssertionResult config_covers(LaunchConfig (*config_of)(int, int), int n,
                                         int threads, const std::string& file) {
  const LaunchConfig config = config_of(n, threads);
  std::ostringstream what;
  what << file << ": launch_config(n = " << n << ", threads = " << threads << ") gave grid ("
       << config.grid.x << ", " << config.grid.y << ", " << config.grid.z << ") and block ("
       << config.block.x << ", " << config.block.y << ", " << config.block.z << ")";
  if (config.block.x != static_cast<unsigned>(threads) || config.block.y != 1 ||
      config.block.z != 1) {
    return ::testing::AssertionFailure() << what.str() << ": the block must be (" << threads
                                         << ", 1, 1)";
  }
  if (config.grid.y != 1 || config.grid.z != 1) {
    return ::testing::AssertionFailure() << what.str() << ": the grid must be one-dimensional";
  }
  const long long rounding_sum = n + (threads - 1ll);  // in 64 bits: it passes INT_MAX
  const long long needed = n > 0 ? rounding_sum / threads : 1;
  if (config.grid.x > needed && rounding_sum > INT_MAX) {  // a wrapped, negative count
    return ::testing::AssertionFailure()
           << what.str() << ", not " << needed << " blocks: n + threads - 1 = " << rounding_sum
           << " is past INT_MAX (" << INT_MAX << "), so rounding up as (n + threads - 1) / "
           << "threads overflows an int here and wraps to a negative number, which the grid "
           << "reads as a huge count. Round up without that sum: one more block when threads "
           << "does not divide n";
  }
  const long long covered = 1ll * config.grid.x * threads;
  if (covered < n) {
    return ::testing::AssertionFailure()
           << what.str() << ": " << covered << " threads for " << n << " elements, so the last "
           << n - covered << " are never computed";
  }
  if (config.grid.x < 1) {
    return ::testing::AssertionFailure()
           << what.str() << ": no block at all; a launch needs at least one, even for n = 0";
  }
  if (config.grid.x > needed) {
    return ::testing::AssertionFailure()
           << what.str() << ": " << config.grid.x << " blocks where " << needed
           << " are enough: the blocks past those would have no element to compute";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult bad_launch_is_reported(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file) {
  const std::vector<float> x = random_floats(1000, 3), y = random_floats(1000, 4);
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  try {
    launcher(solution::saxpy_kernel(), 2.0f, x, y, 2048);
    result = ::testing::AssertionFailure()
             << file << ": saxpy with 2048 threads per block returned as if the kernel had run. "
             << "No GPU runs a block that large, so the launch failed, and nothing asked: the "
             << "launcher must check the launch right after it (COURSE_CHECK_LAUNCH) and the "
             << "kernel's run (a checked synchronize)";
  } catch (const course::CudaError&) {
  }
  (void)cudaGetLastError();  // a failure nobody asked about must not reach the next test
  return result;
}

namespace {

__device__ const void* seen_pointers[2];

// Records the pointers it was given, reads nothing through them.
__global__ void probe_kernel(int, float, const float* x, float* y) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    seen_pointers[0] = x;
    seen_pointers[1] = y;
  }
}

// True when `pointer` lies in the host vector `v`. The probe's pointers are looked at after the
// launcher has returned, when its GPU buffers are already freed (cudaPointerGetAttributes would
// call them unregistered host memory), so they are compared with the host vectors instead.
bool points_into(const void* pointer, const std::vector<float>& v) {
  const auto* p = static_cast<const float*>(pointer);
  return p >= v.data() && p < v.data() + v.size();
}

}  // namespace

::testing::AssertionResult kernel_gets_gpu_pointers(
    std::vector<float> (*launcher)(SaxpyKernel, float, const std::vector<float>&,
                                   const std::vector<float>&, int),
    const std::string& file) {
  const std::vector<float> x = random_floats(1000, 5), y = random_floats(1000, 6);
  const void* none[2] = {nullptr, nullptr};
  COURSE_CHECK(cudaMemcpyToSymbol(seen_pointers, none, sizeof(none)));
  launcher(probe_kernel, 2.0f, x, y, 256);
  const void* seen[2] = {nullptr, nullptr};
  COURSE_CHECK(cudaMemcpyFromSymbol(seen, seen_pointers, sizeof(seen)));
  const char* names[2] = {"x", "y"};
  for (int k = 0; k < 2; ++k) {
    if (seen[k] == nullptr) {
      return ::testing::AssertionFailure()
             << file << ": saxpy did not launch the kernel it was given (or gave it a null "
             << names[k] << ")";
    }
    if (points_into(seen[k], x) || points_into(seen[k], y)) {
      return ::testing::AssertionFailure()
             << file << ": the kernel was given " << names[k] << " = " << seen[k]
             << ", which is the host vector's memory. A kernel runs on the GPU and reads GPU "
             << "memory: pass the pointer of the copy on the GPU, not the host vector's";
    }
  }
  return ::testing::AssertionSuccess();
}

namespace {

// ---- the index past INT_MAX -------------------------------------------------------------------

// 2^31 floats: an element number that wrapped past INT_MAX to a negative int lands this many
// bytes below its array.
constexpr std::size_t kWrapBytes = std::size_t{1} << 33;
constexpr long long kTwoTo31 = 1ll << 31;

// Why a check of the index past INT_MAX could not run here (it is skipped, not failed).
class CannotRunHere : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The driver's virtual memory functions. The runtime hands out their addresses, so the tests
// need no link with libcuda; a null pointer where the driver lacks one.
template <typename Function>
Function driver_function(const char* name) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(name, &address, 12000, cudaEnableDefault, &found);
#else
  const cudaError_t status = cudaGetDriverEntryPoint(name, &address, cudaEnableDefault, &found);
#endif
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess) return nullptr;
  return reinterpret_cast<Function>(address);
}

struct Driver {
  PFN_cuDeviceGet_v2000 device_get = driver_function<PFN_cuDeviceGet_v2000>("cuDeviceGet");
  PFN_cuDeviceGetAttribute_v2000 attribute =
      driver_function<PFN_cuDeviceGetAttribute_v2000>("cuDeviceGetAttribute");
  PFN_cuMemGetAllocationGranularity_v10020 granularity =
      driver_function<PFN_cuMemGetAllocationGranularity_v10020>(
          "cuMemGetAllocationGranularity");
  PFN_cuMemCreate_v10020 create = driver_function<PFN_cuMemCreate_v10020>("cuMemCreate");
  PFN_cuMemRelease_v10020 release = driver_function<PFN_cuMemRelease_v10020>("cuMemRelease");
  PFN_cuMemAddressReserve_v10020 reserve =
      driver_function<PFN_cuMemAddressReserve_v10020>("cuMemAddressReserve");
  PFN_cuMemAddressFree_v10020 address_free =
      driver_function<PFN_cuMemAddressFree_v10020>("cuMemAddressFree");
  PFN_cuMemMap_v10020 map = driver_function<PFN_cuMemMap_v10020>("cuMemMap");
  PFN_cuMemUnmap_v10020 unmap = driver_function<PFN_cuMemUnmap_v10020>("cuMemUnmap");
  PFN_cuMemSetAccess_v10020 set_access =
      driver_function<PFN_cuMemSetAccess_v10020>("cuMemSetAccess");

  bool complete() const {
    return device_get && attribute && granularity && create && release && reserve &&
           address_free && map && unmap && set_access;
  }
};

const Driver& driver() {
  static const Driver functions;
  return functions;
}

void check_driver(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed (CUresult " + std::to_string(result) +
                             ")");
  }
}

std::size_t round_up(std::size_t bytes, std::size_t granularity) {
  return course::ceil_div(bytes, granularity) * granularity;
}

// x and y for n floats, each with the region 2^31 floats (8 GiB) below it mapped ("below x",
// "below y"), where an element number that wrapped to a negative int lands, and with the 8 GiB
// after it mapped too ("after x", "after y"), where the threads past n of a grid for n = INT_MAX
// reach: one chunk of memory mapped again and again, so that those 8 GiB cost 64 MiB. The rest
// of the 8 GiB below is only reserved address space, with no memory behind it.
//   per array: below | ... (8 GiB from below's start) | array, margin | after (8 GiB)
class WrapArrays {
 public:
  explicit WrapArrays(std::size_t n) {
    const Driver& d = driver();
    if (!d.complete()) {
      throw CannotRunHere("the CUDA driver does not hand out its virtual memory functions "
                          "(cuMemCreate, cuMemMap, ...), which this test needs");
    }
    int ordinal = 0;
    COURSE_CHECK(cudaGetDevice(&ordinal));
    COURSE_CHECK(cudaFree(nullptr));  // the runtime's context, current for the driver's calls
    CUdevice device = 0;
    check_driver(d.device_get(&device, ordinal), "cuDeviceGet");
    int supported = 0;
    check_driver(d.attribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                             device),
                 "cuDeviceGetAttribute");
    if (!supported) {
      throw CannotRunHere("this GPU or driver has no virtual memory management (cuMemCreate), "
                          "which this test needs");
    }
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = device;
    std::size_t granularity = 0;
    check_driver(d.granularity(&granularity, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                 "cuMemGetAllocationGranularity");
    below_ = round_up(std::size_t{64} << 10, granularity);
    region_ = round_up(n * sizeof(float) + (std::size_t{64} << 10), granularity);
    chunk_ = round_up(std::size_t{64} << 20, granularity);
    after_ = round_up(kWrapBytes, chunk_);
    block_ = kWrapBytes + region_ + after_;
    reserved_ = 2 * block_;
    try {
      check_driver(d.reserve(&base_, reserved_, granularity, 0, 0), "cuMemAddressReserve");
      for (const CUdeviceptr block : {base_, base_ + block_}) {
        map(block, create(below_), below_);
        map(block + kWrapBytes, create(region_), region_);
        const CUmemGenericAllocationHandle chunk = create(chunk_);
        for (std::size_t at = 0; at < after_; at += chunk_) {
          map(block + kWrapBytes + region_ + at, chunk, chunk_);
        }
      }
    } catch (...) {
      release();
      throw;
    }
  }
  ~WrapArrays() { release(); }
  WrapArrays(const WrapArrays&) = delete;
  WrapArrays& operator=(const WrapArrays&) = delete;

  float* below_x() const { return pointer(base_); }
  float* x() const { return pointer(base_ + kWrapBytes); }
  float* after_x() const { return pointer(base_ + kWrapBytes + region_); }
  float* below_y() const { return pointer(base_ + block_); }
  float* y() const { return pointer(base_ + block_ + kWrapBytes); }
  float* after_y() const { return pointer(base_ + block_ + kWrapBytes + region_); }
  std::size_t below_floats() const { return below_ / sizeof(float); }
  std::size_t region_floats() const { return region_ / sizeof(float); }
  std::size_t chunk_floats() const { return chunk_ / sizeof(float); }  // after's own memory
  // The GPU memory these arrays take, for an n of `n` floats (an estimate before they exist).
  static std::size_t bytes_for(std::size_t n) {
    return 2 * (n * sizeof(float) + (std::size_t{72} << 20));
  }

 private:
  static float* pointer(CUdeviceptr at) { return reinterpret_cast<float*>(at); }

  CUmemGenericAllocationHandle create(std::size_t bytes) {
    CUmemGenericAllocationHandle handle = 0;
    check_driver(driver().create(&handle, bytes, &prop_, 0), "cuMemCreate");
    handles_.push_back(handle);
    return handle;
  }

  void map(CUdeviceptr at, CUmemGenericAllocationHandle handle, std::size_t bytes) {
    const Driver& d = driver();
    check_driver(d.map(at, bytes, 0, handle, 0), "cuMemMap");
    mappings_.emplace_back(at, bytes);
    CUmemAccessDesc access{};
    access.location = prop_.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check_driver(d.set_access(at, bytes, &access, 1), "cuMemSetAccess");
  }

  // Errors are not checked here: after a kernel that faulted every call fails, and the fault
  // is what the test reports.
  void release() noexcept {
    const Driver& d = driver();
    for (const auto& [at, bytes] : mappings_) (void)d.unmap(at, bytes);
    for (const CUmemGenericAllocationHandle handle : handles_) (void)d.release(handle);
    mappings_.clear();
    handles_.clear();
    if (base_ != 0) (void)d.address_free(base_, reserved_);
    base_ = 0;
  }

  CUmemAllocationProp prop_{};
  CUdeviceptr base_ = 0;
  std::size_t reserved_ = 0, below_ = 0, region_ = 0, chunk_ = 0, after_ = 0, block_ = 0;
  std::vector<CUmemGenericAllocationHandle> handles_;
  std::vector<std::pair<CUdeviceptr, std::size_t>> mappings_;
};

__global__ void fill_value(float* out, long long count, float value) {
  const long long stride = 1ll * gridDim.x * blockDim.x;
  for (long long i = 1ll * blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    out[i] = value;
  }
}

void fill(float* device, std::size_t count, float value) {
  fill_value<<<256, 256>>>(device, static_cast<long long>(count), value);
  COURSE_CHECK_LAUNCH("fill_value");
  COURSE_CHECK(cudaDeviceSynchronize());
}

std::vector<float> read(const float* device, std::size_t count) {
  std::vector<float> host(count);
  COURSE_CHECK(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

// Elements of `got` whose bits differ from `value`: (how many, the first one's index).
std::pair<std::size_t, std::size_t> changed(const std::vector<float>& got, float value) {
  std::size_t count = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &value, sizeof(float)) != 0 && count++ == 0) first = i;
  }
  return {count, first};
}

// The grid for n = INT_MAX, 1000 threads per block (not a power of two: the grid covers 2^31 +
// 352 elements, 2^31 would be an int's limit exactly), `per_thread` elements per thread.
struct IntMaxGrid {
  int threads = 1000;
  long long blocks;
  long long covered;
  explicit IntMaxGrid(int per_thread)
      : blocks(course::ceil_div(static_cast<long long>(INT_MAX), 1000ll * per_thread)),
        covered(blocks * 1000ll * per_thread) {}
  std::string text(int per_thread) const {
    std::ostringstream out;
    out << blocks << " blocks of " << threads << " threads";
    if (per_thread > 1) out << " of " << per_thread << " elements each";
    out << ", the grid for n = INT_MAX, which covers elements 0 to " << covered - 1;
    return out.str();
  }
};

// Launches and waits; a fault inside the kernel comes back as the failure to report.
::testing::AssertionResult launch_past_int_max(SaxpyKernel kernel, const IntMaxGrid& grid, int n,
                                               float a, WrapArrays& arrays,
                                               const std::string& where) {
  kernel<<<dim3(static_cast<unsigned>(grid.blocks)), dim3(grid.threads)>>>(n, a, arrays.x(),
                                                                           arrays.y());
  COURSE_CHECK_LAUNCH("saxpy kernel");
  try {
    COURSE_CHECK(cudaDeviceSynchronize());
  } catch (const course::CudaError& error) {
    return ::testing::AssertionFailure()
           << where << ": the kernel failed (" << error.what() << "): a thread reached memory "
           << "gigabytes away from x and y, where nothing is mapped. An element number that "
           << "wrapped past INT_MAX does that: compute it in a 64-bit type, every part of it (the "
           << "GPU context is lost after such a fault: the tests after this one fail too)";
  }
  return ::testing::AssertionSuccess();
}

// What the margins hold: below x ones and below y zeros (a wrapped write stores a * 1 + 0 != 0
// there); after x threes, after y -7.25, which no SAXPY result here equals.
constexpr float kBelowX = 1.0f, kBelowY = 0.0f, kAfterX = 3.0f, kAfterY = -7.25f;

void fill_margins(const WrapArrays& arrays, std::size_t n) {
  fill(arrays.below_x(), arrays.below_floats(), kBelowX);
  fill(arrays.below_y(), arrays.below_floats(), kBelowY);
  fill(arrays.x() + n, arrays.region_floats() - n, kAfterX);
  fill(arrays.y() + n, arrays.region_floats() - n, kAfterY);
  fill(arrays.after_x(), arrays.chunk_floats(), kAfterX);
  fill(arrays.after_y(), arrays.chunk_floats(), kAfterY);
}

// Nothing written below y (where a wrapped index writes) nor after it (where a thread past n
// without the tail guard writes).
::testing::AssertionResult nothing_written_outside_y(const WrapArrays& arrays, std::size_t n,
                                                     const std::string& where) {
  const auto [below, first] = changed(read(arrays.below_y(), arrays.below_floats()), kBelowY);
  if (below > 0) {
    return ::testing::AssertionFailure()
           << where << ": " << below << " element(s) 2^31 places before y were written, y["
           << static_cast<long long>(first) - kTwoTo31 << "] first: the global index wrapped "
           << "past INT_MAX: compute it in a 64-bit type. Element numbers from 2^31 = "
           << kTwoTo31 << " on do not fit an int: there they wrap to negative numbers, which "
           << "pass the test i < n (and a conversion after the arithmetic comes too late: "
           << "blockIdx.x * blockDim.x, a product of two 32-bit unsigned numbers, is computed in "
           << "32 bits)";
  }
  const auto [past, first_past] = changed(read(arrays.y() + n, arrays.region_floats() - n),
                                          kAfterY);
  const std::size_t far = changed(read(arrays.after_y(), arrays.chunk_floats()), kAfterY).first;
  if (past > 0 || far > 0) {
    std::ostringstream what;
    what << where << ": the kernel wrote past the end of y";
    if (past > 0) what << ", y[" << n + first_past << "] first";
    return ::testing::AssertionFailure()
           << what.str() << " (does every element number that is not below n stay untouched?)";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult index_does_not_wrap(SaxpyKernel kernel, int per_thread,
                                               const std::string& file, std::string* skipped) {
  skipped->clear();
  if (kernel == nullptr) {
    return ::testing::AssertionFailure() << file << ": the kernel is a null pointer";
  }
  const int n = 1000;
  const float a = 2.5f;
  std::unique_ptr<WrapArrays> arrays;
  try {
    arrays = std::make_unique<WrapArrays>(n);
  } catch (const CannotRunHere& why) {
    *skipped = why.what();
    return ::testing::AssertionSuccess();
  }
  const IntMaxGrid grid(per_thread);
  std::ostringstream where;
  where << file << ", n = " << n << " with " << grid.text(per_thread)
        << ": every thread past element " << n - 1 << " must touch nothing";
  const std::vector<float> x = random_floats(n, 21), y = random_floats(n, 22);
  COURSE_CHECK(cudaMemcpy(arrays->x(), x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  COURSE_CHECK(cudaMemcpy(arrays->y(), y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  fill_margins(*arrays, n);

  ::testing::AssertionResult ran = launch_past_int_max(kernel, grid, n, a, *arrays, where.str());
  if (!ran) return ran;
  ::testing::AssertionResult outside = nothing_written_outside_y(*arrays, n, where.str());
  if (!outside) return outside;
  if (read(arrays->x(), n) != x) {
    return ::testing::AssertionFailure() << where.str() << ": the kernel changed x";
  }
  return matches(read(arrays->y(), n), cpu_saxpy(a, x, y), where.str() + ": y after the kernel");
}

namespace {

// The test data at n = INT_MAX, made on the GPU (2^31 random floats from the host would take
// seconds): element i of array `seed`, a float in [-1, 1) from a hash of i.
__host__ __device__ float hashed_float(unsigned long long i, unsigned seed) {
  unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 bits
}

__global__ void fill_hashed(float* out, long long n, unsigned seed) {
  const long long stride = 1ll * gridDim.x * blockDim.x;
  for (long long i = 1ll * blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    out[i] = hashed_float(i, seed);
  }
}

// report: [0] wrong elements of y, [1] the first one's index, [2] changed elements of x.
__global__ void check_hashed_saxpy(const float* x, const float* y, long long n, float a,
                                   unsigned long long* report) {
  const long long stride = 1ll * gridDim.x * blockDim.x;
  for (long long i = 1ll * blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float xi = hashed_float(i, 1);
    if (x[i] != xi) atomicAdd(&report[2], 1ull);
    const double expected = static_cast<double>(a) * xi + hashed_float(i, 2);
    if (!(fabs(y[i] - expected) <= 1e-5 * (1.0 + fabs(expected)))) {
      atomicAdd(&report[0], 1ull);
      atomicMin(&report[1], static_cast<unsigned long long>(i));
    }
  }
}

}  // namespace

::testing::AssertionResult matches_cpu_at_int_max(SaxpyKernel kernel, int per_thread,
                                                  const std::string& file,
                                                  std::string* skipped) {
  skipped->clear();
  const int n = INT_MAX;
  const std::size_t needed = WrapArrays::bytes_for(n) + (std::size_t{1} << 30);
  std::size_t free_bytes = 0, total_bytes = 0;
  COURSE_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < needed) {
    std::ostringstream why;
    why << "n = INT_MAX needs 16 GiB of GPU memory for x and y (2 x 2^31 floats) and 1 GiB to "
        << "spare, this GPU has " << (free_bytes >> 20) << " MiB free (the check of the index past "
        << "INT_MAX on small arrays is the test before this one)";
    *skipped = why.str();
    return ::testing::AssertionSuccess();
  }
  const ::testing::AssertionResult small = index_does_not_wrap(kernel, per_thread, file, skipped);
  if (!skipped->empty()) return ::testing::AssertionSuccess();
  if (!small) {
    *skipped = "left out while IndexDoesNotWrapPastIntMax, the test before this one, fails: "
               "a kernel that fails it (an index that wraps, a missing tail guard) can loop for "
               "hours at n = INT_MAX, or write gigabytes past y";
    return ::testing::AssertionSuccess();
  }
  const float a = -1.5f;
  WrapArrays arrays(n);
  const IntMaxGrid grid(per_thread);
  const std::string where = file + ", n = INT_MAX = " + std::to_string(n) + " with " +
                            grid.text(per_thread);
  const int fill_blocks = 1024, fill_threads = 256;
  fill_hashed<<<fill_blocks, fill_threads>>>(arrays.x(), n, 1);
  COURSE_CHECK_LAUNCH("fill_hashed");
  fill_hashed<<<fill_blocks, fill_threads>>>(arrays.y(), n, 2);
  COURSE_CHECK_LAUNCH("fill_hashed");
  fill_margins(arrays, static_cast<std::size_t>(n));

  ::testing::AssertionResult ran = launch_past_int_max(kernel, grid, n, a, arrays, where);
  if (!ran) return ran;
  ::testing::AssertionResult outside = nothing_written_outside_y(arrays, n, where);
  if (!outside) return outside;
  course::DeviceBuffer<unsigned long long> report(std::vector<unsigned long long>{0, ~0ull, 0});
  check_hashed_saxpy<<<fill_blocks, fill_threads>>>(arrays.x(), arrays.y(), n, a, report.data());
  COURSE_CHECK_LAUNCH("check_hashed_saxpy");
  const std::vector<unsigned long long> found = report.to_host();
  if (found[2] > 0) {
    return ::testing::AssertionFailure() << where << ": the kernel changed " << found[2]
                                         << " element(s) of x";
  }
  if (found[0] > 0) {
    const unsigned long long i = found[1];
    const float got = read(arrays.y() + i, 1)[0];
    const double expected = static_cast<double>(a) * hashed_float(i, 1) + hashed_float(i, 2);
    return ::testing::AssertionFailure()
           << where << ": " << found[0] << " of " << n << " elements of y are wrong, the first "
           << "at index " << i << " (got " << got << ", expected " << expected << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace first_kernel::testing
