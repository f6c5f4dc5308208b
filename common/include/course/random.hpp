// Seeded, non-uniform test data and output poisoning.
// Zeros or constants hide indexing bugs (every element looks alike), so tests never use them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace course {

// The seed tests use unless they say otherwise: a failure reproduces on every run.
inline constexpr std::uint64_t kDefaultSeed = 0x5EED2026;

// Byte written over outputs before a kernel runs: unwritten ints read as -1 (all bits set),
// unwritten floats and doubles as NaN.
inline constexpr unsigned char kPoisonByte = 0xFF;

// n integers drawn uniformly from [low, high], reproducible from `seed` on every platform.
std::vector<int> random_ints(std::size_t n, int low, int high, std::uint64_t seed = kDefaultSeed);

// n floats / doubles drawn uniformly from [low, high).
std::vector<float> random_floats(std::size_t n, float low, float high,
                                 std::uint64_t seed = kDefaultSeed);
std::vector<double> random_doubles(std::size_t n, double low, double high,
                                   std::uint64_t seed = kDefaultSeed);

// The value an element of type T holds after poisoning with kPoisonByte.
template <typename T>
T poison_value();

}  // namespace course
