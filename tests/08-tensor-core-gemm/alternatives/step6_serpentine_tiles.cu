// ALTERNATIVE 08.6 step6_persistent_tiles.cu
// Another tile order: still groups of group_rows tile rows, but inside a group the columns are
// walked as a serpent, down the even columns and up the odd ones, so that the tile after the
// last of a column is its neighbour (any order that gives every tile exactly once is correct).
// The stage given back is computed from `stage` (the previous one is stage - 1 around the
// ring). The
// epilogue writes the staging tile one float at a time and reads it back two floats per lane,
// 16 lanes per row, storing them one by one: correct, if slower than whole 16-byte rows.
// @region
  const int tiles_per_group = group_rows * tiles_n;
  const int group = tile / tiles_per_group;
  const int first_row = group * group_rows;
  const int height = tiles_m - first_row < group_rows ? tiles_m - first_row : group_rows;
  const int place = tile - group * tiles_per_group;
  tile_col = place / height;
  const int down = place % height;
  tile_row = first_row + (tile_col % 2 == 0 ? down : height - 1 - down);
// @region
      wgmma_wait<1>();  // the previous slice's wgmma have read their stage
      if (t == 0) {
        finished_stage = -1;
      } else {
        finished_stage = stage == 0 ? kStages - 1 : stage - 1;
      }
// @region
    wgmma_wait<0>();
    held_stage = (it + kStages - 1) % kStages;
// @region
      const int group_of_lane = lane >> 2, pair = lane & 3;
      for (int jj = 0; jj < STAGING_COLUMNS / 8; ++jj) {
        const int j = chunk * (STAGING_COLUMNS / 8) + jj;
        for (int e = 0; e < 4; ++e) {
          const int r = group_of_lane + 8 * (e / 2), c = jj * 8 + 2 * pair + e % 2;
          staging[r * STAGING_LD + c] = d[4 * j + e];
        }
      }
      __syncwarp(0xffffffffu);
      for (int r = lane / 16; r < 16; r += 2) {
        const int c = (lane % 16) * 2;
        const int row = tile_row0 + r, col = block_col + chunk * STAGING_COLUMNS + c;
        if (row < m) {
          float* at = C + static_cast<long long>(row) * n + col;
          if (col < n) at[0] = staging[r * STAGING_LD + c];
          if (col + 1 < n) at[1] = staging[r * STAGING_LD + c + 1];
        }
      }
      __syncwarp(0xffffffffu);
