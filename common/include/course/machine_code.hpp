// Machine-code checks: what no run can show, read off the code itself.
//
// A test program reads its own kernels back with cuobjdump (part of the CUDA toolkit): the SASS
// the GPU runs, or the PTX (the compiler's portable assembly, which keeps each instruction's
// operands as the source wrote them). Where cuobjdump is missing the readers say why, and a
// test must report "skipped, not passed: <why>", never a pass.
//
// The checks here are host code on text: they run and are tested without a GPU.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace course {

// One kernel's machine code: its mangled name and its lines, in order.
struct MachineCode {
  std::string kernel;
  std::vector<std::string> instructions;
  // PTX only: the source files its `.loc` lines refer to (the module's `.file` table), to
  // name a line in a message. Empty when unknown.
  std::map<int, std::string> files;
};

// The SASS of the kernels in this test program whose mangled name contains every one of
// `name_parts`, read with cuobjdump -sass. `why_not` (may be null) says why when cuobjdump is
// missing or fails; the result is then empty.
std::vector<MachineCode> machine_code_of(const std::vector<std::string>& name_parts,
                                         std::string* why_not);

// The same for the PTX of the kernels, read with cuobjdump -ptx.
std::vector<MachineCode> ptx_of(const std::vector<std::string>& name_parts, std::string* why_not);

// The kernels (.entry functions) of a PTX text, e.g. the output of `nvcc -ptx`.
std::vector<MachineCode> kernels_in_ptx(const std::string& ptx_text);

// "" when every block-wide barrier of the kernel (__syncthreads(), __syncthreads_count/and/or,
// cooperative groups' this_thread_block().sync(): bar.sync, barrier.sync, bar.red, ...) is
// reached by every thread of the block; otherwise one line, in the learner's terms, that says
// which barrier sits in code that only some threads run (inside an `if` on the thread index,
// after a `return` some threads take, in a loop whose number of rounds differs between
// threads) and where. Such a barrier is undefined behaviour that no run and no compute-sanitizer
// tool reports on Volta and newer GPUs: only the code shows it.
//
// How: a taint analysis of the kernel's PTX, to a fixed point. Values computed from the
// thread's index (%tid, %laneid, %warpid, %lanemask_*), from loads at addresses that differ
// between threads, from atomics, shuffles, volatile loads, clocks or function results differ
// between threads; values computed only from %ntid, %ctaid, %nctaid, kernel parameters,
// constants, and loads at an address that is the same for the whole block (a flag in shared
// memory) are uniform, and so is what __syncthreads_count/and/or return. The thread's own stack
// frame (local memory) is followed slot by slot. A branch (or a return) on a thread-dependent
// predicate makes the code from it up to where its paths meet again (its immediate
// post-dominator in the control-flow graph) divergent; values that only such code sets are
// thread-dependent where the paths have met. A barrier in divergent code, or one predicated on
// a thread-dependent predicate, is reported. A loop whose exit depends on the thread is
// divergent code too; a loop with a uniform bound is not. Barriers with an explicit thread
// count (bar.sync 1, 64: named barriers for part of a block) and __syncwarp() (bar.warp.sync)
// are left alone.
std::string divergent_barrier_problem(const MachineCode& ptx);

// True when the kernel was compiled with -G (a debug build: meson's buildtype=debug). Its
// helper functions stay calls (min(), cooperative groups' thread_rank(), ...) whose results the
// check cannot see into, so it could misjudge them: tests report "skipped, not passed" instead.
bool built_with_device_debug(const MachineCode& ptx);

// divergent_barrier_problem over every kernel of this program whose mangled name contains all
// of `name_parts` (ptx_of): "" when all pass, else the first problem. When the check cannot run
// here (no cuobjdump, no PTX in the program, no such kernel, a -G build) it returns "" and says
// why in `skipped`: the test must then report "skipped, not passed: <why>".
std::string barrier_problem_of(const std::vector<std::string>& name_parts, std::string* skipped);

}  // namespace course
