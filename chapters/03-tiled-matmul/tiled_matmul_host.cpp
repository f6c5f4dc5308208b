// Argument checks shared by every implementation of chapter 03.
#include <stdexcept>
#include <string>

#include "naive_matmul.cuh"
#include "tiled_matmul.cuh"

namespace tiled_matmul {

void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int width, int tile_width, int only_step) {
  naive_matmul::check_matrices(function, M, N, P, width);  // the same rules as chapter 02
  if (only_step < 0 || only_step > kStepCount) {
    throw std::invalid_argument(std::string(function) + ": only_step must be 0 (every piece of "
                                "the kernel as written) or a step from 1 to " +
                                std::to_string(kStepCount) + ", got " +
                                std::to_string(only_step));
  }
  bool known = false;
  for (int t : kTileWidths) known |= t == tile_width;
  if (!known) {
    throw std::invalid_argument(std::string(function) + ": tile_width must be 8, 16 or 32 (the "
                                "widths the kernel is compiled for), got " +
                                std::to_string(tile_width));
  }
  if (width % tile_width != 0) {
    throw std::invalid_argument(
        std::string(function) + ": Width " + std::to_string(width) + " is not a multiple of " +
        "TILE_WIDTH " + std::to_string(tile_width) + ". This chapter's kernel assumes whole " +
        "tiles; chapter 04 (04-arbitrary-width-tiles) adds the boundary checks for any Width.");
  }
}

}  // namespace tiled_matmul
