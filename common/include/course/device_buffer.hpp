// Owning buffers: GPU memory (DeviceBuffer) and page-locked host memory (PinnedBuffer).
// Allocation failures throw course::OutOfDeviceMemory with the size asked for and the free
// memory, never a null pointer to crash on later.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "course/errors.hpp"

namespace course {

void* device_allocate(std::size_t bytes);        // throws OutOfDeviceMemory / CudaError
void device_free(void* pointer) noexcept;
void* pinned_allocate(std::size_t bytes);        // page-locked host memory, throws CudaError
void pinned_free(void* pointer) noexcept;

namespace detail {

struct DeviceMemory {
  static void* allocate(std::size_t bytes) { return device_allocate(bytes); }
  static void release(void* pointer) noexcept { device_free(pointer); }
};
struct PinnedMemory {
  static void* allocate(std::size_t bytes) { return pinned_allocate(bytes); }
  static void release(void* pointer) noexcept { pinned_free(pointer); }
};

// The move-only ownership of `count` elements of T from Memory::allocate, given back by
// Memory::release: what DeviceBuffer and PinnedBuffer share.
template <typename T, typename Memory>
class OwnedArray {
 public:
  OwnedArray() = default;
  explicit OwnedArray(std::size_t count)
      : data_(static_cast<T*>(count > 0 ? Memory::allocate(count * sizeof(T)) : nullptr)),
        size_(count) {}
  ~OwnedArray() { Memory::release(data_); }

  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  OwnedArray(OwnedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  OwnedArray& operator=(OwnedArray&& other) noexcept {
    if (this != &other) {
      Memory::release(data_);
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
    if (count > size_) *this = OwnedArray(count);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace detail

template <typename T>
class DeviceBuffer : public detail::OwnedArray<T, detail::DeviceMemory> {
  using Owned = detail::OwnedArray<T, detail::DeviceMemory>;

 public:
  using Owned::bytes;
  using Owned::data;
  using Owned::size;

  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : Owned(count) {}
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    copy_from_host(host);
  }

  void copy_from_host(const std::vector<T>& host) {
    if (host.size() != size()) {
      throw std::invalid_argument("DeviceBuffer::copy_from_host: the host vector has " +
                                  std::to_string(host.size()) + " elements, the buffer " +
                                  std::to_string(size()));
    }
    if (size() > 0) {
      COURSE_CHECK(cudaMemcpy(data(), host.data(), bytes(), cudaMemcpyHostToDevice));
    }
  }

  std::vector<T> to_host() const {
    std::vector<T> host(size());
    if (size() > 0) {
      COURSE_CHECK(cudaMemcpy(host.data(), data(), bytes(), cudaMemcpyDeviceToHost));
    }
    return host;
  }

  // Fills every byte with `value`: 0xFF makes unwritten ints -1 and unwritten floats NaN.
  void fill_bytes(unsigned char value) {
    if (size() > 0) COURSE_CHECK(cudaMemset(data(), value, bytes()));
  }
};

template <typename T>
class PinnedBuffer : public detail::OwnedArray<T, detail::PinnedMemory> {
  using Owned = detail::OwnedArray<T, detail::PinnedMemory>;

 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : Owned(count) {}

  T& operator[](std::size_t i) noexcept { return this->data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return this->data()[i]; }
};

}  // namespace course
