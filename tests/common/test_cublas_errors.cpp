#include <gtest/gtest.h>

#include <string>

#include "course/cublas.hpp"

namespace {

cublasStatus_t cublas_fails_with(cublasStatus_t status) { return status; }

}  // namespace

TEST(CourseCheckCublas, ThrowsCublasErrorWithStatusAndExpression) {
  try {
    COURSE_CHECK_CUBLAS(cublas_fails_with(CUBLAS_STATUS_INVALID_VALUE));
    FAIL() << "COURSE_CHECK_CUBLAS did not throw";
  } catch (const course::CublasError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.status(), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_NE(message.find("CUBLAS_STATUS_INVALID_VALUE"), std::string::npos) << message;
    EXPECT_NE(message.find("cublas_fails_with"), std::string::npos) << message;
    EXPECT_NE(message.find("test_cublas_errors.cpp:"), std::string::npos) << message;
  }
}

TEST(DescribeCublasFailure, SaysWhatToDoWhenCublasCannotStart) {
  const std::string message =
      course::describe_cublas_failure(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate", "b.cu", 2);
  EXPECT_NE(message.find("usable GPU"), std::string::npos) << message;
}
