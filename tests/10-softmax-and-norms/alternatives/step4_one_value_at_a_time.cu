// ALTERNATIVE 10.4 step4_online_softmax.cu
// The textbook online update, one value at a time: a value above the running max becomes the new
// max, and the sum so far is scaled down to it (plus 1 for the value itself); any other value
// adds exp(value - max). Masked values (-inf) are skipped. The merge orders the two pairs so that
// the first has the larger max, and only the second one is rescaled.
// @region
  for (int j = 0; j < 4; ++j) {
    const float v = x[j];
    if (v == -INFINITY) continue;
    if (v > updated.max) {
      updated.sum = updated.sum * __expf(updated.max - v) + 1.0f;  // exp(-inf) = 0 at first
      updated.max = v;
    } else {
      updated.sum += __expf(v - updated.max);
    }
  }
// @region
  Partial high = a, low = b;
  if (b.max > a.max) {
    high = b;
    low = a;
  }
  merged = high;
  if (low.max != -INFINITY) merged.sum += low.sum * __expf(low.max - high.max);
