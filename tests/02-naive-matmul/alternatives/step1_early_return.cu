// ALTERNATIVE 02.1 naive_matmul.cu
// The bounds check as an early return, and a pointer to the start of row Row of M; the column of
// N read as N[k * Width + Col]. Threads outside the matrix leave before reading anything.
// @region
  const int Col = blockIdx.x * blockDim.x + threadIdx.x;
  const int Row = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row >= Width || Col >= Width) return;
  const float* m_row = M + Row * Width;
  float sum = 0.0f;
  for (int k = 0; k < Width; ++k) sum += m_row[k] * N[k * Width + Col];
  P[Row * Width + Col] = sum;
