// ALTERNATIVE 10.3 step3_warp_per_row.cu
// The whole vectors go through the streaming intrinsics __ldcs and __stcs (evict-first: the data
// is used once), the partial ones through a loop that stops at the end of the row; the kernel
// walks its slots with a running vector number.
// @region
  const int begin = k * kWidth<T>;
  const int inside = row.cols - begin;  // columns of this vector inside the row
  if (row.aligned && inside >= kWidth<T>) {
    unpack(__ldcs(reinterpret_cast<const Vector<T>*>(row.data + begin)), x);
  } else {
    for (int j = 0; j < inside && j < kWidth<T>; ++j) x[j] = to_float(row.data[begin + j]);
  }
// @region
  const int begin = k * kWidth<T>;
  const int inside = row.cols - begin;
  if (row.aligned && inside >= kWidth<T>) {
    __stcs(reinterpret_cast<Vector<T>*>(row.data + begin), pack<T>(y));
  } else {
    for (int j = 0; j < inside && j < kWidth<T>; ++j) row.data[begin + j] = from_float<T>(y[j]);
  }
// @region
    int vector = index;
    for (int s = 0; s < kSlots; ++s, vector += stride) {
      load_vector(in, vector, -INFINITY, &x[s * W]);
    }
    ready_made::softmax_in_registers<kWholeBlock>(x);
    vector = index;
    for (int s = 0; s < kSlots; ++s, vector += stride) store_vector(out, vector, &x[s * W]);
