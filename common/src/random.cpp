#include "course/random.hpp"

#include <cstring>
#include <random>
#include <stdexcept>

namespace course {

namespace {

// std::uniform_*_distribution differ between standard libraries; this mapping does not.
double unit_interval(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;  // 53 random bits in [0, 1)
}

}  // namespace

std::vector<int> random_ints(std::size_t n, int low, int high, std::uint64_t seed) {
  if (low > high) throw std::invalid_argument("random_ints: low must not exceed high");
  std::mt19937_64 engine(seed);
  const std::uint64_t span =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - low) + 1;
  std::vector<int> values(n);
  for (auto& value : values) {
    value = static_cast<int>(static_cast<std::int64_t>(low) +
                             static_cast<std::int64_t>(engine() % span));
  }
  return values;
}

std::vector<double> random_doubles(std::size_t n, double low, double high, std::uint64_t seed) {
  if (!(low < high)) throw std::invalid_argument("random_doubles: low must be below high");
  std::mt19937_64 engine(seed);
  std::vector<double> values(n);
  for (auto& value : values) value = low + (high - low) * unit_interval(engine);
  return values;
}

std::vector<float> random_floats(std::size_t n, float low, float high, std::uint64_t seed) {
  if (!(low < high)) throw std::invalid_argument("random_floats: low must be below high");
  std::mt19937_64 engine(seed);
  std::vector<float> values(n);
  for (auto& value : values) {
    value = static_cast<float>(low + (high - low) * unit_interval(engine));
    if (value >= high) value = low;  // rounding to float can land on `high`
  }
  return values;
}

template <typename T>
T poison_value() {
  T value;
  std::memset(&value, kPoisonByte, sizeof value);
  return value;
}

template int poison_value<int>();
template unsigned poison_value<unsigned>();
template long long poison_value<long long>();
template unsigned long long poison_value<unsigned long long>();
template float poison_value<float>();
template double poison_value<double>();

}  // namespace course
