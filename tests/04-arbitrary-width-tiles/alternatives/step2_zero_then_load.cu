// ALTERNATIVE 04.2 square_any_width.cu
// The slot zeroed first, then overwritten by the same thread when the element lies inside N:
// one thread writes it twice, so there is no race, and outside N it stays 0.0f.
// @region
  const int row = ph * TILE_WIDTH + ty;
  Nds[ty][tx] = 0.0f;
  if (row < Width && Col < Width) Nds[ty][tx] = N[row * Width + Col];
