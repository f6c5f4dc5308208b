// ALTERNATIVE 04.3 square_any_width.cu
// An early return for threads outside P. It comes after the last barrier of the kernel (the
// store is the kernel's last act), so no thread that leaves is awaited at a barrier.
// @region
  if (Row >= Width || Col >= Width) return;
  P[Row * Width + Col] = Pvalue;
