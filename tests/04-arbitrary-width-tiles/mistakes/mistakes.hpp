// Known-wrong variants of the boundary-checked tiled kernel (square, any Width). The tests
// must reject the first three; the fourth computes the right numbers while reading outside the
// matrices, which only compute-sanitizer's memcheck can see (test_mistakes.cpp shows both).
#pragma once

namespace arbitrary_width_tiles::mistakes {

// The store is guarded, the loads are not: a thread whose column ph*T+tx is past the end of
// its row reads the first elements of the NEXT row into the tile, and they are multiplied in.
void loads_unguarded(const float* M, const float* N, float* P, int width, int tile_width);

// Guarded loads without the `else`: tile slots outside the matrix keep whatever the previous
// phase (or nobody) left there, instead of 0.0f.
void tile_slots_not_zeroed(const float* M, const float* N, float* P, int width, int tile_width);

// Loads guarded, store not: threads outside P write their garbage into it and past its end.
void store_unguarded(const float* M, const float* N, float* P, int width, int tile_width);

// Only the last phase guards its loads. The earlier phases' out-of-range loads (threads of the
// edge blocks, whose Row or Col is outside) read past the matrices but only feed threads that
// never store: the result is right, the reads are out of bounds. memcheck reports them.
void only_last_phase_guarded(const float* M, const float* N, float* P, int width,
                             int tile_width);

// Mds[ty][tx] stored after the first __syncthreads(): row ty of Mds is stored and read by the
// same warp, so the numbers come out right on today's GPUs; racecheck sees the race.
void m_tile_stored_after_the_barrier(const float* M, const float* N, float* P, int width,
                                     int tile_width);

// Step 4 (rectangular, TILE_WIDTH 16) with the N-tile guard `n_row <= k` instead of `< k`:
// when k is not a multiple of the tile, the last phase reads row k of N, one row past its
// end. That value meets a zeroed slot of M's tile (column k is outside M too).
void n_row_guard_off_by_one(const float* M, const float* N, float* P, int m, int k, int n);

}  // namespace arbitrary_width_tiles::mistakes
