// Argument checks shared by every implementation of chapter 05.
#include <stdexcept>
#include <string>

#include "reduction.cuh"

namespace reduction {

void check_block_size(const char* function, int block_size) {
  if (block_size < 64 || block_size > 1024 || !course::is_power_of_two(block_size)) {
    throw std::invalid_argument(
        std::string(function) + ": block_size must be a power of two from 64 to 1024 (the tree "
        "halves the block at every level, and the last warp reads 32 elements further), got " +
        std::to_string(block_size));
  }
}

void check_input(const char* function, const void* input, std::size_t n) {
  if (input == nullptr && n > 0) {
    throw std::invalid_argument(std::string(function) + ": input is a null pointer but n = " +
                                std::to_string(n) + "; pass a device array of n elements");
  }
}

}  // namespace reduction
