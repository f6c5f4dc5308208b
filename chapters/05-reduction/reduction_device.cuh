// Device helpers for the reduction kernels.
#pragma once

namespace reduction {

// The block's dynamic shared memory as an array of T. One extern array serves every element
// type: its alignment is that of the widest type used (double).
template <typename T>
__device__ T* shared_array() {
  extern __shared__ __align__(sizeof(double)) unsigned char shared_bytes[];
  return reinterpret_cast<T*>(shared_bytes);
}

}  // namespace reduction
