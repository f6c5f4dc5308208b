// ALTERNATIVE 00.5 step5_timing.cu
// The events in a small class whose destructor destroys them, so that they are freed even when
// a check throws (the launch of a block too large, say), as course::EventTimer does.
// @top
namespace {
class Event {
 public:
  Event() { COURSE_CHECK(cudaEventCreate(&event_)); }
  ~Event() { (void)cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};
}  // namespace
// @region
  const Event start, stop;
  COURSE_CHECK(cudaEventRecord(start.get()));
  kernel<<<config.grid, config.block>>>(n, a, x, y);
  COURSE_CHECK_LAUNCH("saxpy kernel");
  COURSE_CHECK(cudaEventRecord(stop.get()));
  COURSE_CHECK(cudaEventSynchronize(stop.get()));
  COURSE_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
