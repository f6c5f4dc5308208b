#include <gtest/gtest.h>

#include <string>

#include "course/errors.hpp"

namespace {

cudaError_t fails_with(cudaError_t code) { return code; }

// What the learner is told to run: their step's tests, then the exercise under memcheck (never
// the solution's).
void expect_the_memcheck_advice(const std::string& message) {
  EXPECT_NE(message.find("./course test NN.S"), std::string::npos) << message;
  EXPECT_NE(message.find("--setup=memcheck --suite <chapter>:exercise --print-errorlogs"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find(":solution"), std::string::npos) << message;
}

}  // namespace

TEST(CourseCheck, ThrowsCudaErrorNamingExpressionFileAndLine) {
  try {
    COURSE_CHECK(fails_with(cudaErrorInvalidValue));
    FAIL() << "COURSE_CHECK did not throw";
  } catch (const course::CudaError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.code(), cudaErrorInvalidValue);
    EXPECT_EQ(error.expression(), "fails_with(cudaErrorInvalidValue)");
    EXPECT_NE(message.find("fails_with(cudaErrorInvalidValue)"), std::string::npos) << message;
    EXPECT_NE(message.find("test_errors.cpp:"), std::string::npos) << message;
    EXPECT_NE(message.find("cudaErrorInvalidValue"), std::string::npos) << message;
    EXPECT_GT(error.line(), 0);
  }
}

TEST(CourseCheck, DoesNothingOnSuccess) { EXPECT_NO_THROW(COURSE_CHECK(fails_with(cudaSuccess))); }

TEST(ThrowCudaError, OutOfMemoryHasItsOwnTypeAndSaysWhatToDo) {
  try {
    course::throw_cuda_error(cudaErrorMemoryAllocation, "cudaMalloc of 1 bytes", "f.cu", 3);
  } catch (const course::OutOfDeviceMemory& error) {
    EXPECT_NE(std::string(error.what()).find("smaller size"), std::string::npos);
    return;
  }
  FAIL() << "expected course::OutOfDeviceMemory";
}

TEST(ThrowCudaError, NoDeviceAndOldDriverAreNoGpuErrors) {
  for (cudaError_t code : {cudaErrorNoDevice, cudaErrorInsufficientDriver}) {
    EXPECT_THROW(course::throw_cuda_error(code, "cudaGetDeviceCount", "f.cu", 1),
                 course::NoGpuError);
    EXPECT_TRUE(course::is_no_gpu_error(code));
  }
  EXPECT_FALSE(course::is_no_gpu_error(cudaErrorIllegalAddress));
}

TEST(DescribeCudaFailure, PointsOutOfBoundsAccessesAtTheExerciseUnderMemcheck) {
  const std::string message =
      course::describe_cuda_failure(cudaErrorIllegalAddress, "cudaDeviceSynchronize()", "x.cu", 7);
  EXPECT_NE(message.find("x.cu:7"), std::string::npos) << message;
  EXPECT_NE(message.find("past the end"), std::string::npos) << message;
  expect_the_memcheck_advice(message);
}

TEST(DescribeCudaFailure, NamesAMisalignedAccessAsSuch) {
  const std::string message = course::describe_cuda_failure(
      cudaErrorMisalignedAddress, "cudaDeviceSynchronize()", "x.cu", 7);
  EXPECT_NE(message.find("misaligned access"), std::string::npos) << message;
  EXPECT_NE(message.find("16-byte"), std::string::npos) << message;
  EXPECT_NE(message.find("multiple of 16"), std::string::npos) << message;
  EXPECT_EQ(message.find("past the end"), std::string::npos) << message;
  expect_the_memcheck_advice(message);
}

TEST(DescribeCudaFailure, ExplainsAnInvalidValueFromALaunchAsABadConfiguration) {
  const std::string message =
      course::describe_cuda_failure(cudaErrorInvalidValue, "launch of my_kernel", "x.cu", 7);
  EXPECT_NE(message.find("1024 threads"), std::string::npos) << message;
  const std::string not_a_launch =
      course::describe_cuda_failure(cudaErrorInvalidValue, "cudaMemcpy(...)", "x.cu", 7);
  EXPECT_EQ(not_a_launch.find("1024 threads"), std::string::npos) << not_a_launch;
}

TEST(DescribeCudaFailure, PointsWrongArchitectureToTheGpuArchOption) {
  const std::string message =
      course::describe_cuda_failure(cudaErrorNoKernelImageForDevice, "launch", "x.cu", 7);
  EXPECT_NE(message.find("-Dgpu_arch"), std::string::npos) << message;
}
