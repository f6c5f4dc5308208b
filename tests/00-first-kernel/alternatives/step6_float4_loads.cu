// ALTERNATIVE 00.6 step6_more_in_flight.cu
// 16-byte loads: thread j takes elements 4j to 4j + 3 as one float4 of x and one of y, two loads
// of 16 bytes (32 bytes in flight, as the reference's eight of 4), when both arrays start on a
// 16-byte boundary and all four elements are below n; otherwise (the tail, or pointers off that
// boundary, where a float4 load would fault) one element at a time, every load first. A warp's
// float4 loads cover 512 neighbouring bytes: still coalesced.
// @region
  static_assert(kElementsPerThread == 4, "one float4 of each array per thread");
  const long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long first = 4 * j;
  const bool aligned = reinterpret_cast<unsigned long long>(x) % 16 == 0 &&
                       reinterpret_cast<unsigned long long>(y) % 16 == 0;
  if (aligned && first + 3 < n) {
    const float4 xv = reinterpret_cast<const float4*>(x)[j];
    float4 yv = reinterpret_cast<const float4*>(y)[j];
    yv.x = a * xv.x + yv.x;
    yv.y = a * xv.y + yv.y;
    yv.z = a * xv.z + yv.z;
    yv.w = a * xv.w + yv.w;
    reinterpret_cast<float4*>(y)[j] = yv;
  } else {
    float xs[4] = {}, ys[4] = {};
    for (int k = 0; k < 4; ++k) {
      if (first + k < n) {
        xs[k] = x[first + k];
        ys[k] = y[first + k];
      }
    }
    for (int k = 0; k < 4; ++k) {
      if (first + k < n) y[first + k] = a * xs[k] + ys[k];
    }
  }
