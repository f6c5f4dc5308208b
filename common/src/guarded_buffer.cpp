#include "course/guarded_buffer.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace course {

template <>
int guard_value<int>() { return kGuardInt; }
template <>
unsigned guard_value<unsigned>() { return static_cast<unsigned>(kGuardInt); }
template <>
long long guard_value<long long>() { return 0x5EADBEEF5EADBEEFll; }
template <>
unsigned long long guard_value<unsigned long long>() { return 0x5EADBEEF5EADBEEFull; }
template <>
float guard_value<float>() { return std::numeric_limits<float>::quiet_NaN(); }
template <>
double guard_value<double>() { return std::numeric_limits<double>::quiet_NaN(); }
template <>
__half guard_value<__half>() {
  __half_raw nan{};
  nan.x = 0x7E00;  // FP16 quiet NaN
  return __half(nan);
}
template <>
__nv_bfloat16 guard_value<__nv_bfloat16>() {
  __nv_bfloat16_raw nan{};
  nan.x = 0x7FC0;  // BF16 quiet NaN (FP32's upper half)
  return __nv_bfloat16(nan);
}

int guard_reads_explaining(long long difference) {
  const auto wrapped = static_cast<std::uint32_t>(difference);  // int sums wrap modulo 2^32
  for (std::uint32_t k = 1; k <= 256; ++k) {
    const std::uint32_t reads = k * static_cast<std::uint32_t>(kGuardInt);
    if (wrapped == reads || wrapped == 0u - reads) return static_cast<int>(k);
  }
  return 0;
}

bool same_bytes(const void* a, const void* b, std::size_t bytes) noexcept {
  return std::memcmp(a, b, bytes) == 0;
}

std::string MarginReport::text(const std::string& array_name) const {
  if (ok()) return "";
  std::string text;
  if (written_after > 0) {
    text = "wrote " + std::to_string(written_after) + " element(s) past the end of " +
           array_name + " (up to " + std::to_string(farthest_after) +
           " after its last element)";
  }
  if (written_before > 0) {
    text += (text.empty() ? "wrote " : ", and ") + std::to_string(written_before) +
            " element(s) before the start of " + array_name + " (up to " +
            std::to_string(farthest_before) + " before its first element)";
  }
  return text + ": a store without a bounds check, or an index computed wrong";
}

}  // namespace course
