// Host tests (no GPU) of step 4's PTX check, on lines as nvcc 13 writes them for sm_90: the
// solution's packed word through cuda::atomic_ref (st/ld.relaxed.gpu.b64), value then flag with
// release/acquire, and the two known mistakes: a flag and value stored apart, and a plain load
// in a spin loop. The tile data's .cs loads and stores and the watchdog's volatile stores are
// left alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan_checks.hpp"

namespace scan::testing {
namespace {

MachineCode code(std::vector<std::string> lines) {
  MachineCode machine_code;
  machine_code.kernel = "lookback_kernel";
  machine_code.instructions = std::move(lines);
  return machine_code;
}

bool says(const std::string& problem, const std::string& part) {
  return problem.find(part) != std::string::npos;
}

const std::vector<std::string> kData = {
    "\tld.global.cs.v4.u32 {%r278,%r279,%r280,%r281}, [%rd61];",
    "\tld.global.cs.u32 %r772, [%rd29];",
    "\tst.global.cs.v4.u32 [%rd133], {%r727,%r728,%r729,%r730};",
    "\tst.global.cs.u32 [%rd101], %r526;",
};
const std::vector<std::string> kWatchdog = {
    "\tatom.global.exch.b32 \t%r459, [%rd1], 1;",
    "\tst.volatile.global.u32 \t[%rd1+4], %r460;",
    "\tmembar.sys;",
};

std::vector<std::string> with(std::vector<std::string> middle) {
  std::vector<std::string> lines = {"\tatom.global.add.u32 \t%r100, [%rd25], 1;"};
  lines.insert(lines.end(), kData.begin(), kData.begin() + 2);
  lines.insert(lines.end(), middle.begin(), middle.end());
  lines.insert(lines.end(), kWatchdog.begin(), kWatchdog.end());
  lines.insert(lines.end(), kData.begin() + 2, kData.end());
  return lines;
}

TEST(StatusAccessCheck, AcceptsOnePackedWordWithRelaxedGpuScopeAccesses) {
  EXPECT_EQ(status_access_problem(code(with({
                "\tst.relaxed.gpu.b64 [%rd69],%rd70;",
                "\tld.relaxed.gpu.b64 %rd145,[%rd76];",
                "@%p9 st.relaxed.gpu.global.b64 [%rd21],%rd98;",
            }))),
            "");
}

TEST(StatusAccessCheck, AcceptsValueThenFlagWithReleaseAndFlagThenValueWithAcquire) {
  EXPECT_EQ(status_access_problem(code(with({
                "\tst.global.u32 \t[%rd70+4], %r80;",
                "\tst.release.gpu.global.b64 [%rd70], %rd9;",
                "\tld.acquire.gpu.global.b64 %rd145,[%rd76];",
                "\tld.global.u32 \t%r81, [%rd76+4];",
            }))),
            "");
  EXPECT_EQ(status_access_problem(code(with({
                "\tst.global.u32 \t[%rd70+4], %r80;",
                "\tfence.acq_rel.gpu;",
                "\tst.volatile.global.u64 \t[%rd70], %rd9;",
            }))),
            "");
}

TEST(StatusAccessCheck, RejectsAFlagAndItsValueStoredApart) {
  const std::string problem = status_access_problem(code(with({
      "\tst.global.u32 \t[%rd70+4], %r80;",
      "\tst.global.u32 \t[%rd70], %r457;",
      "\tld.relaxed.gpu.b64 %rd144,[%rd74];",
      "\tst.relaxed.gpu.b64 [%rd90],%rd91;",
  })));
  EXPECT_TRUE(says(problem, "weak store")) << problem;
  EXPECT_TRUE(says(problem, "st.global.u32")) << problem;
}

TEST(StatusAccessCheck, RejectsAPlainLoadInTheSpinAndNotTheWatchdogsSystemFence) {
  const std::string problem = status_access_problem(code(with({
      "\tst.relaxed.gpu.b64 [%rd67],%rd68;",
      "\tmembar.sys;",
      "\tld.global.u64 \t%rd138, [%rd83];",
      "\tst.relaxed.gpu.b64 [%rd85],%rd86;",
  })));
  EXPECT_TRUE(says(problem, "weak load")) << problem;
  EXPECT_TRUE(says(problem, "ld.global.u64")) << problem;
}

TEST(StatusAccessCheck, RejectsBlockScopeAndNonCoherentLoads) {
  EXPECT_TRUE(says(status_access_problem(code(with({
                       "\tst.relaxed.gpu.b64 [%rd67],%rd68;",
                       "\tld.relaxed.cta.b64 %rd145,[%rd76];",
                   }))),
                   "weak load"));
  EXPECT_TRUE(says(status_access_problem(code(with({
                       "\tst.relaxed.gpu.b64 [%rd67],%rd68;",
                       "\tld.global.nc.u64 %rd145,[%rd76];",
                   }))),
                   "weak load"));
}

TEST(StatusAccessCheck, SaysWhenNothingIsPublished) {
  EXPECT_TRUE(says(status_access_problem(code(with({}))), "publishes no status word"));
}

}  // namespace
}  // namespace scan::testing
