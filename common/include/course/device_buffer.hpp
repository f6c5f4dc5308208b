// Owning buffers: GPU memory (DeviceBuffer) and page-locked host memory (PinnedBuffer).
// Allocation failures throw course::OutOfDeviceMemory with the size asked for and the free
// memory, never a null pointer to crash on later.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "course/errors.hpp"

namespace course {

void* device_allocate(std::size_t bytes);        // throws OutOfDeviceMemory / CudaError
void device_free(void* pointer) noexcept;
void* pinned_allocate(std::size_t bytes);        // page-locked host memory, throws CudaError
void pinned_free(void* pointer) noexcept;

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T*>(count > 0 ? device_allocate(count * sizeof(T)) : nullptr)),
        size_(count) {}
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    copy_from_host(host);
  }
  ~DeviceBuffer() { device_free(data_); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      device_free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

  // Makes room for at least `count` elements; old contents are dropped when it grows.
  void reserve_discard(std::size_t count) {
    if (count > size_) *this = DeviceBuffer(count);
  }

  void copy_from_host(const std::vector<T>& host) {
    if (host.size() != size_) {
      throw std::invalid_argument("DeviceBuffer::copy_from_host: the host vector has " +
                                  std::to_string(host.size()) + " elements, the buffer " +
                                  std::to_string(size_));
    }
    if (size_ > 0) {
      COURSE_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }
  }

  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    if (size_ > 0) {
      COURSE_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    }
    return host;
  }

  // Fills every byte with `value`: 0xFF makes unwritten ints -1 and unwritten floats NaN.
  void fill_bytes(unsigned char value) {
    if (size_ > 0) COURSE_CHECK(cudaMemset(data_, value, bytes()));
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count)
      : data_(static_cast<T*>(count > 0 ? pinned_allocate(count * sizeof(T)) : nullptr)),
        size_(count) {}
  ~PinnedBuffer() { pinned_free(data_); }

  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      pinned_free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }

  void reserve_discard(std::size_t count) {
    if (count > size_) *this = PinnedBuffer(count);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace course
