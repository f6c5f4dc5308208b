// ALTERNATIVE 10.5 step5_layer_and_rms_norm.cu
// Welford's update, one value at a time (the running mean moves by its share of each new value's
// difference, M2 grows by the product of the differences before and after), instead of two passes
// over the registers; the merge weighs the two means by their counts; RMSNorm adds its squares
// with fused multiply-adds, as a sum per slot.
// @region
  for (int s = 0; s < kSlots; ++s) {
    for (int j = 0; j < width; ++j) {
      if ((s * stride + index) * width + j >= cols) break;
      const float value = x[s * width + j];
      moments.count += 1.0f;
      const float before = value - moments.mean;
      moments.mean += before / moments.count;
      moments.m2 += before * (value - moments.mean);
    }
  }
// @region
  const float n = a.count + b.count;
  if (n > 0.0f) {
    const float d = b.mean - a.mean;
    merged.count = n;
    merged.mean = (a.count * a.mean + b.count * b.mean) / n;
    merged.m2 = a.m2 + b.m2 + d * d * (a.count / n) * b.count;
  }
// @region
      float squares = 0.0f;
      for (int s = 0; s < kSlots; ++s) {
        float slot = 0.0f;
        for (int j = 0; j < W; ++j) slot = fmaf(x[s * W + j], x[s * W + j], slot);
        squares += slot;
      }
      const float mean_square = ready_made::block_reduce(squares, Sum{}) / static_cast<float>(cols);
      scale = rsqrtf(mean_square + epsilon);
