// ALTERNATIVE 04.1 square_any_width.cu
// The guard as one condition and a conditional expression: M is read only when the element
// lies inside, else the slot gets 0.0f.
// @region
  const int col = ph * TILE_WIDTH + tx;
  const bool inside = Row < Width && col < Width;
  Mds[ty][tx] = inside ? M[Row * Width + col] : 0.0f;
