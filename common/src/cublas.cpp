#include "course/cublas.hpp"

#include <sstream>

namespace course {

std::string describe_cublas_failure(cublasStatus_t status, const std::string& expression,
                                    const std::string& file, int line) {
  std::ostringstream out;
  out << file << ":" << line << ": " << expression << " failed: " << cublasGetStatusName(status)
      << " (" << cublasGetStatusString(status) << ")";
  if (status == CUBLAS_STATUS_NOT_INITIALIZED) {
    out << ". cuBLAS could not start: is there a usable GPU (nvidia-smi)?";
  } else if (status == CUBLAS_STATUS_ALLOC_FAILED) {
    out << ". The GPU is out of memory: use a smaller size.";
  }
  return out.str();
}

CublasError::CublasError(cublasStatus_t status, const std::string& expression,
                         const std::string& file, int line)
    : std::runtime_error(describe_cublas_failure(status, expression, file, line)),
      status_(status) {}

CublasHandle::CublasHandle(cublasMath_t math_mode) {
  COURSE_CHECK_CUBLAS(cublasCreate(&handle_));
  // Plain FP32 by default: tensor-core TF32 would make the vendor row compute something else.
  COURSE_CHECK_CUBLAS(cublasSetMathMode(handle_, math_mode));
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

}  // namespace course
