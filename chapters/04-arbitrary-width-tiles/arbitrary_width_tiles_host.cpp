// Argument checks shared by every implementation of chapter 04.
#include <stdexcept>
#include <string>

#include "arbitrary_width_tiles.cuh"
#include "course/matmul.hpp"

namespace arbitrary_width_tiles {

namespace {

[[noreturn]] void reject(const char* function, const std::string& what) {
  throw std::invalid_argument(std::string(function) + ": " + what);
}

}  // namespace

void check_arguments(const char* function, const float* M, const float* N, const float* P,
                     int m, int k, int n, int tile_width, int only_step) {
  course::matmul::check_operands(function, M, N, P, {m, k, n});
  if (only_step < 0 || only_step > kSquareStepCount) {
    reject(function, "only_step must be 0 (every piece of the kernel as written) or a step from "
                     "1 to " + std::to_string(kSquareStepCount) + ", got " +
                         std::to_string(only_step));
  }
  bool known = false;
  for (int t : kTileWidths) known |= t == tile_width;
  if (!known) {
    reject(function, "tile_width must be 2, 8, 16 or 32 (the widths the kernels are compiled "
                     "for), got " + std::to_string(tile_width));
  }
  if (m > max_rows(tile_width)) {
    reject(function, "m = " + std::to_string(m) + " rows needs more than the " +
                         std::to_string(course::kMaxGridDimY) + " rows of blocks a grid holds "
                         "with tile_width " + std::to_string(tile_width) + " (at most " +
                         std::to_string(max_rows(tile_width)) + " rows); use a wider tile or "
                         "multiply M in parts of at most that many rows");
  }
}

}  // namespace arbitrary_width_tiles
