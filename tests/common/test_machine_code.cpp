// Host tests of the machine-code checks (course/machine_code.hpp) on small PTX texts, as
// `nvcc -arch=sm_90 -lineinfo -ptx` writes them (trimmed). No GPU needed.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "course/machine_code.hpp"

namespace {

using course::divergent_barrier_problem;
using course::kernels_in_ptx;
using course::MachineCode;

// The one kernel of a PTX text.
MachineCode kernel(const std::string& ptx) {
  const auto kernels = kernels_in_ptx(ptx);
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.empty() ? MachineCode{} : kernels.front();
}

// for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s];
//                                            __syncthreads(); }
// or, with the barrier inside the if: { sdata[tid] += sdata[tid + s]; __syncthreads(); }
// The one kernel of a module compiled from `file`: the loop at line 12, the if at line 13, the
// barrier at line 14. `function` numbers its labels, as nvcc numbers a module's functions.
std::string tree_ptx(const std::string& mangled_name, int function, bool barrier_inside_the_if,
                     const std::string& file) {
  std::string text = R"(
.version 9.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 sdata[];

.visible .entry {NAME}(
	.param .u64 {NAME}_param_0
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<17>;
	.reg .b64 	%rd<5>;
	.loc	1 10 0
	ld.param.u64 	%rd1, [{NAME}_param_0];
	.loc	1 11 3
	mov.u32 	%r1, %tid.x;
	.loc	1 12 3
	mov.u32 	%r6, %ntid.x;
	shr.u32 	%r16, %r6, 1;
	setp.eq.s32 	%p1, %r16, 0;
	@%p1 bra 	$L__BB{F}_5;

	shl.b32 	%r7, %r1, 2;
	mov.u32 	%r8, sdata;
	add.s32 	%r3, %r8, %r7;

$L__BB{F}_2:
	.loc	1 13 5
	setp.ge.u32 	%p2, %r1, %r16;
	@%p2 bra 	$L__BB{F}_4;

	shl.b32 	%r9, %r16, 2;
	add.s32 	%r10, %r3, %r9;
	ld.shared.u32 	%r11, [%r3];
	ld.shared.u32 	%r12, [%r10];
	add.s32 	%r13, %r11, %r12;
	st.shared.u32 	[%r3], %r13;
{BARRIER_IN_THE_IF}
$L__BB{F}_4:
{BARRIER_AFTER_THE_IF}	.loc	1 12 3
	shr.u32 	%r16, %r16, 1;
	setp.ne.s32 	%p3, %r16, 0;
	@%p3 bra 	$L__BB{F}_2;

$L__BB{F}_5:
	.loc	1 15 3
	setp.ne.s32 	%p4, %r1, 0;
	@%p4 bra 	$L__BB{F}_7;

	ld.shared.u32 	%r14, [sdata];
	mov.u32 	%r15, %ctaid.x;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r15, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r14;

$L__BB{F}_7:
	.loc	1 16 1
	ret;

}
	.file	1 "{FILE}"
)";
  const std::string barrier = std::string("\t.loc\t1 14 ") + (barrier_inside_the_if ? "7" : "5") +
                              "\n\tbar.sync \t0;\n";
  for (const auto& [placeholder, value] :
       {std::pair<std::string, std::string>{"{NAME}", mangled_name},
        {"{F}", std::to_string(function)},
        {"{FILE}", file},
        {"{BARRIER_IN_THE_IF}", barrier_inside_the_if ? barrier : ""},
        {"{BARRIER_AFTER_THE_IF}", barrier_inside_the_if ? "" : barrier}}) {
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

const std::string kTreeWithBarrierAfterTheIf = tree_ptx(
    "_Z4treePi", 0, false, "/course/solutions/05-reduction/reduce3_sequential_addressing.cu");
const std::string kTreeWithBarrierInsideTheIf = tree_ptx(
    "_Z3badPi", 1, true, "/course/exercises/05-reduction/reduce3_sequential_addressing.cu");

// if (n > 64) { sdata[threadIdx.x] = n; __syncthreads(); }: n is a kernel parameter, the same
// for every thread, so the whole block takes the branch or none of it does.
const char* const kBarrierBehindAUniformBranch = R"(
.visible .entry _Z7uniformPii(
	.param .u64 _Z7uniformPii_param_0,
	.param .u32 _Z7uniformPii_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [_Z7uniformPii_param_0];
	ld.param.u32 	%r1, [_Z7uniformPii_param_1];
	setp.gt.s32 	%p1, %r1, 64;
	@%p1 bra 	$L__BB2_1;
	bra.uni 	$L__BB2_2;

$L__BB2_1:
	mov.u32 	%r2, %tid.x;
	shl.b32 	%r3, %r2, 2;
	mov.u32 	%r4, sdata;
	add.s32 	%r5, %r4, %r3;
	st.shared.u32 	[%r5], %r1;
	bar.sync 	0;

$L__BB2_2:
	mov.u32 	%r6, %tid.x;
	shl.b32 	%r7, %r6, 2;
	xor.b32  	%r8, %r7, 4;
	mov.u32 	%r9, sdata;
	add.s32 	%r10, %r9, %r8;
	ld.shared.u32 	%r11, [%r10];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r6, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r11;
	ret;

}
)";

// A kernel around one barrier instruction `barrier`, with %p1 = (threadIdx.x < 32) and
// %p2 = (blockDim.x > 64).
std::string kernel_around(const std::string& barrier) {
  return R"(
.visible .entry _Z1kv()
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 32;
	mov.u32 	%r2, %ntid.x;
	setp.gt.u32 	%p2, %r2, 64;
	)" + barrier + R"(
	ret;

}
)";
}

TEST(DivergentBarrier, AcceptsTheTreeWithTheBarrierAfterTheIf) {
  EXPECT_EQ(divergent_barrier_problem(kernel(kTreeWithBarrierAfterTheIf)), "");
}

TEST(DivergentBarrier, RejectsTheBarrierInsideTheIfOnTheThreadIndex) {
  const std::string problem = divergent_barrier_problem(kernel(kTreeWithBarrierInsideTheIf));
  EXPECT_NE(problem.find("a __syncthreads() inside an `if` on the thread index"),
            std::string::npos) << problem;
  EXPECT_NE(problem.find("every thread of the block must reach every barrier"),
            std::string::npos) << problem;
  EXPECT_NE(problem.find("put the barrier after the if"), std::string::npos) << problem;
  // Where: the barrier's line in the learner's file, and the if's.
  EXPECT_NE(problem.find("reduce3_sequential_addressing.cu:14"), std::string::npos) << problem;
  EXPECT_NE(problem.find("the if at line 13"), std::string::npos) << problem;
  EXPECT_EQ(problem.find('\n'), std::string::npos) << "one line: " << problem;
}

TEST(DivergentBarrier, AcceptsABarrierBehindABranchOnAKernelParameter) {
  EXPECT_EQ(divergent_barrier_problem(kernel(kBarrierBehindAUniformBranch)), "");
}

TEST(DivergentBarrier, RejectsABarrierPredicatedOnTheThreadIndex) {
  for (const char* barrier : {"@%p1 bar.sync 0;", "@!%p1 bar.sync 0;", "@%p1 barrier.sync 0;",
                              "@%p1 barrier.sync.aligned 0;", "@%p1 bar.red.popc.u32 %r3, 0, %p2;",
                              "@%p1 bar.red.and.pred %p3, 0, %p2;"}) {
    const std::string problem = divergent_barrier_problem(kernel(kernel_around(barrier)));
    EXPECT_NE(problem.find("on the thread index"), std::string::npos) << barrier << ": " << problem;
  }
}

TEST(DivergentBarrier, AcceptsABarrierPredicatedOnTheBlockSize) {
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_around("@%p2 bar.sync 0;"))), "");
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_around("bar.sync 0;"))), "");
}

// __syncwarp() is a warp's barrier, and a barrier with a thread count is meant for part of the
// block (named barriers): neither is a __syncthreads().
TEST(DivergentBarrier, LeavesSyncwarpAndNamedBarriersWithACountAlone) {
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_around("@%p1 bar.warp.sync -1;"))), "");
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_around("@%p1 bar.sync 1, 64;"))), "");
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_around("@%p1 bar.arrive 1, 64;"))), "");
}

// while (__syncthreads_or(i < n)) { ... }: the block's answer is the same in every thread, so
// the loop around the barrier is uniform.
TEST(DivergentBarrier, TakesTheAnswerOfSyncthreadsOrAsTheSameForTheWholeBlock) {
  EXPECT_EQ(divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kv()
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
$L__BB0_1:
	setp.lt.u32 	%p1, %r1, 100;
	bar.red.or.pred 	%p2, 0, %p1;
	not.pred 	%p3, %p2;
	@%p3 bra 	$L__BB0_2;
	add.s32 	%r1, %r1, 256;
	bra.uni 	$L__BB0_1;
$L__BB0_2:
	ret;

}
)")),
            "");
}

// if (threadIdx.x == 0) is_last = atomicAdd(...) == ...; __syncthreads(); if (!is_last) return;
// __syncthreads(): every thread reads the same shared flag, after the barrier.
TEST(DivergentBarrier, TakesAFlagBroadcastThroughSharedMemoryAsTheSameForTheWholeBlock) {
  EXPECT_EQ(divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kPj(
	.param .u64 _Z1kPj_param_0
)
{
	.reg .pred 	%p<4>;
	.reg .b16 	%rs<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [_Z1kPj_param_0];
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	atom.global.add.u32 	%r2, [%rd2], 1;
	mov.u32 	%r3, %nctaid.x;
	add.s32 	%r4, %r3, -1;
	setp.eq.s32 	%p2, %r2, %r4;
	selp.u16 	%rs1, 1, 0, %p2;
	st.shared.u8 	[_ZZ1kPjE7is_last], %rs1;
$L__BB0_2:
	bar.sync 	0;
	ld.shared.u8 	%rs2, [_ZZ1kPjE7is_last];
	setp.eq.s16 	%p3, %rs2, 0;
	@%p3 bra 	$L__BB0_4;
	bar.sync 	0;
$L__BB0_4:
	ret;

}
)")),
            "");
}

// if (i >= n) return; ... __syncthreads();  (i from the thread index)
TEST(DivergentBarrier, RejectsABarrierAfterAReturnSomeThreadsTake) {
  const std::string problem = divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kj(
	.param .u32 _Z1kj_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	ld.param.u32 	%r1, [_Z1kj_param_0];
	mov.u32 	%r2, %tid.x;
	setp.ge.u32 	%p1, %r2, %r1;
	@%p1 ret;
	bar.sync 	0;
	ret;

}
)"));
  EXPECT_NE(problem.find("after a `return` that only some threads of the block take"),
            std::string::npos) << problem;
}

// for (i = threadIdx.x; i < n; i += blockDim.x) { ...; __syncthreads(); }
TEST(DivergentBarrier, RejectsABarrierInALoopWhoseRoundsDependOnTheThread) {
  const std::string problem = divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kj(
	.param .u32 _Z1kj_param_0
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<5>;
	ld.param.u32 	%r1, [_Z1kj_param_0];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, %ntid.x;
	setp.ge.u32 	%p1, %r2, %r1;
	@%p1 bra 	$L__BB0_3;
$L__BB0_2:
	bar.sync 	0;
	add.s32 	%r2, %r2, %r3;
	setp.lt.u32 	%p2, %r2, %r1;
	@%p2 bra 	$L__BB0_2;
$L__BB0_3:
	ret;

}
)"));
  EXPECT_NE(problem.find("inside a loop whose number of rounds differs between threads"),
            std::string::npos) << problem;
}

// if (input[i] > 0) __syncthreads();  (each thread loads its own element)
TEST(DivergentBarrier, RejectsABarrierInsideAnIfOnLoadedData) {
  const std::string problem = divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kPKi(
	.param .u64 _Z1kPKi_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [_Z1kPKi_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r2, [%rd4];
	setp.lt.s32 	%p1, %r2, 1;
	@%p1 bra 	$L__BB0_2;
	bar.sync 	0;
$L__BB0_2:
	ret;

}
)"));
  EXPECT_NE(problem.find("inside an `if` on data each thread loaded"), std::string::npos)
      << problem;
}

// if (tid < 32) { ... } else { ...; __syncthreads(); }
TEST(DivergentBarrier, RejectsABarrierInTheElseBranch) {
  const std::string problem = divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kv()
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;
	mov.u32 	%r1, %tid.x;
	setp.gt.u32 	%p1, %r1, 31;
	@%p1 bra 	$L__BB0_2;
	mov.u32 	%r2, 1;
	bra.uni 	$L__BB0_3;
$L__BB0_2:
	mov.u32 	%r2, 2;
	bar.sync 	0;
$L__BB0_3:
	st.shared.u32 	[sdata], %r2;
	ret;

}
)"));
  EXPECT_NE(problem.find("inside an `if` on the thread index"), std::string::npos) << problem;
}

// A debug build (-G) keeps every variable in the thread's own stack frame (local memory): a slot
// holds what was stored there, the same for the whole block or not.
std::string kernel_with_frame(const std::string& stored) {
  return R"(
.visible .entry _Z1kj(
	.param .u32 _Z1kj_param_0
)
{
	.local .align 8 .b8 	__local_depot0[16];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	mov.u64 	%SPL, __local_depot0;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u32 	%r1, [_Z1kj_param_0];
	add.u64 	%rd1, %SP, 8;
	add.u64 	%rd2, %SPL, 8;
	mov.u32 	%r2, %tid.x;
	st.local.u32 	[%rd2], )" + stored + R"(;
	ld.u32 	%r3, [%rd1];
	setp.lt.u32 	%p1, %r3, 64;
	@%p1 bra 	$L__BB0_2;
	bar.sync 	0;
$L__BB0_2:
	ret;

}
)";
}

TEST(DivergentBarrier, FollowsValuesThroughTheThreadsOwnStackFrame) {
  EXPECT_EQ(divergent_barrier_problem(kernel(kernel_with_frame("%r1"))), "");
  const std::string problem = divergent_barrier_problem(kernel(kernel_with_frame("%r2")));
  EXPECT_NE(problem.find("on the thread index"), std::string::npos) << problem;
}

// Debug builds declare a %tmp in many small scopes: one scope's %tmp is not another's.
TEST(DivergentBarrier, KeepsRegistersOfDifferentScopesApart) {
  EXPECT_EQ(divergent_barrier_problem(kernel(R"(
.visible .entry _Z1kv()
{
	.reg .pred 	%p<2>;
	.reg .b16 	%rs<3>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;
	mov.u32 	%r1, %tid.x;
	{ .reg .b64 %tmp;
	  cvt.u64.u32 	%tmp, %r1;
	  cvta.shared.u64 	%rd1, %tmp; }
	st.u8 	[%rd1], %rs1;
	bar.sync 	0;
	mov.u32 	%r2, flag;
	{ .reg .b64 %tmp;
	  cvt.u64.u32 	%tmp, %r2;
	  cvta.shared.u64 	%rd2, %tmp; }
	ld.u8 	%rs2, [%rd2];
	setp.eq.s16 	%p1, %rs2, 0;
	@%p1 bra 	$L__BB0_2;
	bar.sync 	0;
$L__BB0_2:
	ret;

}
)")),
            "");
}

// Debug builds call __syncthreads_count/or/and (and cooperative groups' __barrier_sync).
TEST(DivergentBarrier, TakesACallOfSyncthreadsCountForABarrier) {
  const std::string call = R"(
.visible .entry _Z1kv()
{
$L__func_begin0:
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 32;
	@%p1 bra 	$L__BB0_2;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0),
	__syncthreads_count,
	(
	param0
	);
	ld.param.b32 	%r2, [retval0+0];
	} // callseq 0
$L__BB0_2:
	ret;

}
)";
  const MachineCode code = kernel(call);
  EXPECT_TRUE(course::built_with_device_debug(code));
  EXPECT_NE(divergent_barrier_problem(code).find("inside an `if` on the thread index"),
            std::string::npos) << divergent_barrier_problem(code);
  EXPECT_FALSE(course::built_with_device_debug(kernel(kTreeWithBarrierInsideTheIf)));
}

TEST(KernelsInPtx, SplitsTheEntriesAndGivesEachItsModulesSourceFiles) {
  const auto kernels = kernels_in_ptx(kTreeWithBarrierAfterTheIf +
                                      kTreeWithBarrierInsideTheIf);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].kernel, "_Z4treePi");
  EXPECT_EQ(kernels[1].kernel, "_Z3badPi");
  EXPECT_EQ(kernels[0].files.at(1), "/course/solutions/05-reduction/reduce3_sequential_addressing.cu");
  EXPECT_EQ(kernels[1].files.at(1), "/course/exercises/05-reduction/reduce3_sequential_addressing.cu");
}

// Only the kernel's own body counts: the lines after its closing brace (the next module, a
// device function) are not part of it.
TEST(DivergentBarrier, ReadsOnlyTheKernelsBody) {
  MachineCode code = kernel(kTreeWithBarrierAfterTheIf);
  for (const char* line : {".func _Z6helperv()", "{", "mov.u32 %r1, %tid.x;",
                           "setp.lt.u32 %p1, %r1, 32;", "@%p1 bar.sync 0;", "ret;", "}"}) {
    code.instructions.push_back(line);
  }
  EXPECT_EQ(divergent_barrier_problem(code), "");
}

}  // namespace
