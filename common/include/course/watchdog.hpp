// A deadlock watchdog for kernels whose blocks wait for one another or for barriers (chapter 08's
// mbarrier waits, chapter 09's look-back). A wait that never ends would freeze the GPU and the
// terminal with it; a bounded wait instead gives up after kWatchdogSeconds, writes what it waited
// for into page-locked host memory that the GPU writes through (it survives the trap, which ends
// the kernel and leaves the process's CUDA context unusable), and traps. The host then reads the
// report and says what went wrong.
//
// Host: arm_watchdog() before each launch (clears the report; the kernel takes the Watchdog by
// value), watchdog_report() after it. Device (nvcc): watchdog_expired(), watchdog_give_up().
#pragma once

#include <string>

namespace course {

// A kernel that never ends without a bounded wait of its own (a barrier some threads never reach,
// a loop that never exits) cannot be stopped by the host either. synchronize_or_stop waits for
// the current GPU's work at most kHangSeconds (10 times as long under compute-sanitizer); past
// that it prints "<who>: the kernel has not finished after N s", then `what_to_check` and
// "Edit: <file>", and ends the program (exit status 3) instead of freezing the terminal. When
// the work ends in time it returns as cudaDeviceSynchronize does (throwing the work's error).
inline constexpr int kHangSeconds = 30;
void synchronize_or_stop(const std::string& who, const std::string& what_to_check,
                         const std::string& file);

// A wait gives up after this many seconds of the SM's clock (25 times as many under
// compute-sanitizer, whose instrumented kernels are slower: the same message, later).
inline constexpr int kWatchdogSeconds = 4;

// What the first wait that gave up recorded: where it ran, and three numbers whose meaning the
// chapter gives (chapter 08: stage and parity; chapter 09: its tile and the tile it waited for).
struct WatchdogReport {
  int happened;  // 0 until a wait gives up
  unsigned block_x, block_y, warp;
  long long what[3];
};

struct Watchdog {
  long long budget_cycles;  // clock64() cycles a wait may take
  WatchdogReport* report;   // the device address of the mapped host memory
};

// Clears the report and returns the budget and the report's device address for a launch. The
// budget and the address are asked of the driver once per process.
Watchdog arm_watchdog();
// The report as the last launch left it: happened == 0 when no wait gave up since
// arm_watchdog().
WatchdogReport watchdog_report();

#if defined(__CUDACC__)
// True when a wait that began at `started` (clock64()) has taken more than the budget.
__device__ __forceinline__ bool watchdog_expired(const Watchdog& watchdog, long long started) {
  return clock64() - started > watchdog.budget_cycles;
}

// Records this thread's place and `a`, `b`, `c` (the first thread to give up wins) and stops the
// kernel with a trap.
__device__ __forceinline__ void watchdog_give_up(const Watchdog& watchdog, long long a,
                                                 long long b = 0, long long c = 0) {
  if (atomicExch(&watchdog.report->happened, 1) == 0) {
    volatile WatchdogReport* report = watchdog.report;
    report->block_x = blockIdx.x;
    report->block_y = blockIdx.y;
    report->warp = threadIdx.x / 32;
    report->what[0] = a;
    report->what[1] = b;
    report->what[2] = c;
    __threadfence_system();
  }
  __trap();
}
#endif

}  // namespace course
