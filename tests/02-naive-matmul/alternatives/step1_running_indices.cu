// ALTERNATIVE 02.1 naive_matmul.cu
// Strength-reduced index maths: two running indices, one stepping along row Row of M by 1 and
// one down column Col of N by Width (at most Width^2 + Width - 1 < 2^31 for the widths allowed).
// @region
  const int row = blockDim.y * blockIdx.y + threadIdx.y;
  const int col = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < Width && col < Width) {
    int m = row * Width;
    int n = col;
    float acc = 0.0f;
    for (int k = 0; k < Width; ++k) {
      acc += M[m] * N[n];
      m += 1;
      n += Width;
    }
    P[row * Width + col] = acc;
  }
