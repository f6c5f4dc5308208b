// cuBLAS error checks and an owning handle, for the chapters whose vendor row is cuBLAS.
// Link with the course-common-cublas dependency.
#pragma once

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace course {

class CublasError : public std::runtime_error {
 public:
  CublasError(cublasStatus_t status, const std::string& expression, const std::string& file,
              int line);
  cublasStatus_t status() const noexcept { return status_; }

 private:
  cublasStatus_t status_;
};

std::string describe_cublas_failure(cublasStatus_t status, const std::string& expression,
                                    const std::string& file, int line);

// A cuBLAS handle that is destroyed with its owner. By default in plain FP32 mode (no TF32), so
// the vendor row does the same arithmetic as the course's kernels; CUBLAS_TF32_TENSOR_OP_MATH
// gives the tensor-core row, a different (lower) precision.
class CublasHandle {
 public:
  explicit CublasHandle(cublasMath_t math_mode = CUBLAS_PEDANTIC_MATH);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const noexcept { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace course

#define COURSE_CHECK_CUBLAS(expression)                                                   \
  do {                                                                                    \
    const cublasStatus_t course_cublas_status_ = (expression);                           \
    if (course_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                 \
      throw ::course::CublasError(course_cublas_status_, #expression, __FILE__, __LINE__); \
    }                                                                                     \
  } while (0)
