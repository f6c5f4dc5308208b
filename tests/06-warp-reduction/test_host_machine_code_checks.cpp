// Host tests (no GPU) of the machine-code checks of steps 3 and 5, on PTX and SASS lines as
// nvcc 13 and cuobjdump print them (sm_75 to sm_120). The GPU tests run the same checks on this
// program's own kernels; these pin down what the checks accept and reject:
//  - step 3: shuffles (shfl.sync) and __reduce_add_sync / cg::reduce on ints (redux.sync) with
//    the whole warp's mask, as a register or an immediate; a partial mask is reported as one
//    even when another instantiation has no shuffle;
//  - step 5: __threadfence() before atomicAdd, or a device-scope release/acq_rel ticket
//    (cuda::atomic_ref); not a missing fence, nor a block-scope one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "warp_reduction_checks.hpp"

namespace warp_reduction::testing {
namespace {

MachineCode code(const std::string& kernel, std::vector<std::string> lines) {
  MachineCode machine_code;
  machine_code.kernel = kernel;
  machine_code.instructions = std::move(lines);
  return machine_code;
}

bool says(const std::string& problem, const std::string& part) {
  return problem.find(part) != std::string::npos;
}

// ---- step 3: member masks ---------------------------------------------------------------------

// cuda-samples' warpReduceSum<int> with __reduce_add_sync(0xffffffff, v), and cg::reduce(tile32,
// v, cg::plus<int>()): both are one redux.sync whose mask register holds -1.
TEST(ShuffleMaskCheck, AcceptsReduxSyncWithTheWholeWarp) {
  EXPECT_EQ(partial_shuffle_mask_problem(code("redux", {
                "\tmov.u32 \t%r4, -1;",
                "\tredux.sync.add.s32 %r1, %r3, %r4;",
            })),
            "");
  EXPECT_EQ(partial_shuffle_mask_problem(code("redux_immediate", {
                "\tredux.sync.add.s32 %r1, %r3, -1;",
            })),
            "");
  EXPECT_EQ(partial_shuffle_mask_problem(code("redux_unsigned", {
                "\tmov.u32 \t%r4, 0xffffffff;",
                "\tredux.sync.add.u32 %r1, %r3, %r4;",
            })),
            "");
}

TEST(ShuffleMaskCheck, AcceptsShufflesWithTheWholeWarpInAnyForm) {
  // __shfl_down_sync(0xffffffff, v, 16) on floats (nvcc 13: the mask in a register).
  EXPECT_EQ(partial_shuffle_mask_problem(code("down", {
                "\tmov.u32 \t%r4, 31;",
                "\tmov.u32 \t%r5, 16;",
                "\tmov.u32 \t%r6, -1;",
                "\tshfl.sync.down.b32 \t%r7|%p1, %r2, %r5, %r4, %r6;",
            })),
            "");
  // cg::reduce on floats and a butterfly __shfl_xor_sync: shfl.sync.bfly.
  EXPECT_EQ(partial_shuffle_mask_problem(code("bfly", {
                "\tmov.u32 \t%r24, -1;",
                "\tshfl.sync.bfly.b32 \t%r4|%p1, %r2, %r23, %r22, %r24;",
                "\tshfl.sync.bfly.b32 \t%r3|%p2, %r1, %r23, %r22, %r24;",
            })),
            "");
  // Immediates, as older nvcc wrote them, in every spelling of 2^32 - 1; a copied register.
  for (const char* mask : {"-1", "0xffffffff", "0xFFFFFFFF", "0XFFFFFFFFU", "4294967295",
                           "037777777777"}) {
    EXPECT_EQ(partial_shuffle_mask_problem(code("immediate", {
                  std::string("\tshfl.sync.down.b32 \t%r2|%p1, %r1, 16, 31, ") + mask + ";",
              })),
              "")
        << mask;
  }
  EXPECT_EQ(partial_shuffle_mask_problem(code("copied", {
                "\tmov.u32 \t%r6, -1;",
                "\tmov.b32 \t%r9, %r6;",
                "\tshfl.sync.idx.b32 \t%r7|%p1, %r2, 0, 31, %r9;",
            })),
            "");
}

// The mask register is judged by every write into it, wherever it stands in the text (a loop's
// body may come before the block that sets the register up).
TEST(ShuffleMaskCheck, JudgesTheMaskRegisterByEveryWriteIntoIt) {
  EXPECT_EQ(partial_shuffle_mask_problem(code("set_later", {
                "$L__BB0_2:",
                "\tshfl.sync.down.b32 \t%r7|%p1, %r2, %r5, %r4, %r6;",
                "\t@%p2 bra \t$L__BB0_2;",
                "\tmov.u32 \t%r6, -1;",
            })),
            "");
  // Two different constants, or a constant and a loaded value: not provably the whole warp.
  EXPECT_TRUE(says(partial_shuffle_mask_problem(code("two_constants", {
                       "\tmov.u32 \t%r6, -1;",
                       "\t@%p1 mov.u32 \t%r6, 65535;",
                       "\tshfl.sync.down.b32 \t%r7|%p2, %r2, %r5, %r4, %r6;",
                   })),
                   "%r6, a value computed at run time"));
  EXPECT_TRUE(says(partial_shuffle_mask_problem(code("loaded", {
                       "\tmov.u32 \t%r6, -1;",
                       "\tld.shared.u32 \t%r6, [%rd3];",
                       "\tredux.sync.add.s32 %r1, %r3, %r6;",
                   })),
                   "computed at run time"));
}

TEST(ShuffleMaskCheck, RejectsAPartialMaskAsAPartialMask) {
  // The known mistake: 0xffff (as a register holding 65535, or an immediate).
  const std::string shuffle = partial_shuffle_mask_problem(code("partial", {
      "\tmov.u32 \t%r6, 65535;",
      "\tshfl.sync.down.b32 \t%r7|%p1, %r2, %r5, %r4, %r6;",
  }));
  EXPECT_TRUE(says(shuffle, "a shuffle names only part of the warp (member mask 65535")) << shuffle;
  EXPECT_TRUE(says(partial_shuffle_mask_problem(code("immediate", {
                       "\tshfl.sync.down.b32 \t%r2|%p1, %r1, 16, 31, 0xffff;",
                   })),
                   "member mask 0xffff,"));
  // One full shuffle does not excuse a partial one after it.
  EXPECT_TRUE(says(partial_shuffle_mask_problem(code("second", {
                       "\tshfl.sync.down.b32 \t%r2|%p1, %r1, 16, 31, -1;",
                       "\tshfl.sync.down.b32 \t%r3|%p2, %r2, 8, 31, 3;",
                   })),
                   "member mask 3,"));
  // __reduce_add_sync(0xffff, v): redux.sync names the mask too.
  const std::string redux = partial_shuffle_mask_problem(code("redux", {
      "\tmov.u32 \t%r5, 65535;",
      "\tredux.sync.add.s32 %r6, %r6, %r5;",
  }));
  EXPECT_TRUE(says(redux, "__reduce_add_sync names only part of the warp")) << redux;
  EXPECT_TRUE(says(redux, "member mask 65535")) << redux;
  // A mask the code computes (a parameter, __activemask()): not provably the whole warp.
  EXPECT_TRUE(says(partial_shuffle_mask_problem(code("runtime", {
                       "\tld.param.u32 \t%r2, [_Z9reg_reduxIiEvPKT_PS0_j_param_2];",
                       "\tredux.sync.add.s32 %r1, %r4, %r2;",
                   })),
                   "%r2, a value computed at run time"));
}

TEST(ShuffleMaskCheck, AKernelWithNoShuffleAndNoReduxIsAnOpenTodo) {
  const std::string problem = partial_shuffle_mask_problem(code("open", {
      "\tld.global.u32 \t%r1, [%rd1];",
      "\tst.global.u32 \t[%rd2], %r1;",
  }));
  EXPECT_TRUE(says(problem, "no warp shuffle")) << problem;
  EXPECT_TRUE(says(problem, "is the TODO still open?")) << problem;
}

TEST(ShuffleMaskCheck, APartialMaskInAnyInstantiationComesBeforeNoShuffle) {
  const MachineCode no_shuffle = code("_ZN..warp_shuffle_kernelIiLj256EEEvPKT_PS2_m", {
      "\tld.global.u32 \t%r1, [%rd1];",
  });
  const MachineCode partial = code("_ZN..warp_shuffle_kernelIfLj256EEEvPKT_PS2_m", {
      "\tmov.u32 \t%r6, 65535;",
      "\tshfl.sync.down.b32 \t%r7|%p1, %r2, %r5, %r4, %r6;",
  });
  const MachineCode redux = code("_ZN..warp_shuffle_kernelIiLj1024EEEvPKT_PS2_m", {
      "\tmov.u32 \t%r4, -1;",
      "\tredux.sync.add.s32 %r1, %r3, %r4;",
  });
  const MachineCode shuffles = code("_ZN..warp_shuffle_kernelIdLj1024EEEvPKT_PS2_m", {
      "\tmov.u32 \t%r25, -1;",
      "\tshfl.sync.down.b32 \t%r4|%p1, %r2, %r24, %r23, %r25;",
  });
  const KernelProblem found = shuffle_mask_problem({no_shuffle, redux, partial, shuffles});
  EXPECT_TRUE(says(found.problem, "only part of the warp")) << found.problem;
  EXPECT_EQ(found.kernel, partial.kernel);
  const KernelProblem open = shuffle_mask_problem({redux, no_shuffle, shuffles});
  EXPECT_TRUE(says(open.problem, "no warp shuffle")) << open.problem;
  EXPECT_EQ(open.kernel, no_shuffle.kernel);
  const KernelProblem right = shuffle_mask_problem({redux, shuffles});
  EXPECT_EQ(right.problem, "");
  EXPECT_EQ(right.kernel, "");
}

// ---- step 5: the block total before the ticket -------------------------------------------------

const char* const kStore = "        /*00a0*/                   STG.E desc[UR6][R2.64], R7 ;";
const char* const kAtomicAdd =
    "        /*0110*/                   ATOMG.E.ADD.STRONG.GPU PT, R2, desc[UR6][R2.64], R5 ;";
const char* const kAtomicRefAdd =
    "        /*0100*/                   ATOM.E.ADD.STRONG.GPU PT, R4, desc[UR6][R4.64], R7 ;";

TEST(TicketOrderCheck, AcceptsAThreadfenceBeforeTheTicket) {
  // The solution on an H100 (sm_90), and on a T4 (sm_75).
  EXPECT_EQ(ticket_ordering_problem(code("fence", {
                kStore,
                "        /*00b0*/                   MEMBAR.SC.GPU ;",
                "        /*00c0*/                   ERRBAR;",
                "        /*00d0*/                   CGAERRBAR ;",
                "        /*00e0*/                   CCTL.IVALL ;",
                kAtomicAdd,
            })),
            "");
  EXPECT_EQ(ticket_ordering_problem(code("fence_sm75", {
                "        /*00b0*/                   STG.E.SYS [UR4], R0 ;",
                "        /*00c0*/                   MEMBAR.SC.GPU ;",
                "        /*0110*/                   ATOMG.E.ADD.STRONG.GPU PT, R0, [UR4], R2 ;",
            })),
            "");
}

TEST(TicketOrderCheck, AcceptsAnAcqRelOrReleaseTicketFromAtomicRef) {
  // cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).fetch_add(1,
  // cuda::memory_order_acq_rel): PTX atom.add.acq_rel.gpu.u32, SASS MEMBAR.ALL.GPU before ATOM
  // (sm_75 to sm_120 alike). memory_order_release gives the same two lines.
  const MachineCode sass = code("acq_rel", {
      kStore,
      "        /*00d0*/                   MEMBAR.ALL.GPU ;",
      "        /*00e0*/                   ERRBAR;",
      "        /*00f0*/                   CGAERRBAR ;",
      kAtomicRefAdd,
      "        /*0110*/                   CCTL.IVALL ;",
  });
  const MachineCode ptx = code("acq_rel", {
      "\tst.global.u32 \t[%rd10], %r19;",
      "\tatom.add.acq_rel.gpu.u32 %r20,[%rd5],%r21;",
  });
  EXPECT_EQ(ticket_ordering_problem(sass), "");
  EXPECT_EQ(ticket_ordering_problem(sass, &ptx), "");
  // Should a GPU ever fold the release into the atomic itself, the PTX still shows it.
  const MachineCode folded = code("folded", {kStore, kAtomicRefAdd});
  EXPECT_EQ(ticket_ordering_problem(folded, &ptx), "");
  const MachineCode release = code("release", {
      "\tst.global.f64 \t[%rd10], %fd8;",
      "\tatom.add.release.gpu.u32 %r12,[%rd5],%r13;",
  });
  EXPECT_EQ(ticket_ordering_problem(folded, &release), "");
  // The default seq_cst fetch_add: fence.sc.gpu, then atom.acquire.
  const MachineCode seq_cst = code("seq_cst", {
      "\tst.global.u32 \t[%rd10], %r19;",
      "\tfence.sc.gpu;",
      "\tatom.add.acquire.gpu.u32 %r20,[%rd5],%r21;",
  });
  EXPECT_EQ(ticket_ordering_problem(folded, &seq_cst), "");
}

TEST(TicketOrderCheck, RejectsTheMissingFence) {
  // The known mistake: atomicAdd right after the store (PTX atom.global.add.u32, relaxed).
  const MachineCode sass = code("missing", {kStore, kAtomicAdd});
  const MachineCode ptx = code("missing", {
      "\tst.global.u32 \t[%rd10], %r19;",
      "\tatom.global.add.u32 \t%r21, [%rd1], 1;",
  });
  for (const MachineCode* with : {static_cast<const MachineCode*>(nullptr), &ptx}) {
    const std::string problem = ticket_ordering_problem(sass, with);
    EXPECT_TRUE(says(problem, "no __threadfence() between storing the block total and taking "
                              "the ticket"))
        << problem;
  }
  // A relaxed atomic_ref ticket is the same mistake.
  const MachineCode relaxed = code("relaxed", {
      "\tst.global.u32 \t[%rd10], %r19;",
      "\tatom.add.relaxed.gpu.u32 %r20,[%rd5],%r21;",
  });
  EXPECT_TRUE(says(ticket_ordering_problem(code("relaxed", {kStore, kAtomicRefAdd}), &relaxed),
                   "no __threadfence()"));
  // A release store of the total does not order it before a relaxed ticket: the fence comes
  // before the store (ST, through a generic pointer), not between it and the atomic.
  const MachineCode release_store_sass = code("release_store", {
      "        /*00c0*/                   MEMBAR.ALL.GPU ;",
      "        /*00f0*/                   ST.E.STRONG.GPU desc[UR6][R2.64], R9 ;",
      kAtomicAdd,
  });
  const MachineCode release_store_ptx = code("release_store", {
      "\tst.release.gpu.b32 [%rd8],%r19;",
      "\tatom.global.add.u32 \t%r22, [%rd1], 1;",
  });
  EXPECT_TRUE(says(ticket_ordering_problem(release_store_sass, &release_store_ptx),
                   "no __threadfence()"));
}

TEST(TicketOrderCheck, RejectsAFenceOrReleaseThatReachesOnlyTheBlock) {
  // __threadfence_block() before atomicAdd.
  const std::string fence = ticket_ordering_problem(code("block_fence", {
      kStore,
      "        /*00b0*/                   MEMBAR.SC.CTA ;",
      kAtomicAdd,
  }));
  EXPECT_TRUE(says(fence, "reaches only this block")) << fence;
  // cuda::atomic_ref<unsigned, cuda::thread_scope_block> with acq_rel.
  const MachineCode ptx = code("block_scope", {
      "\tst.global.u32 \t[%rd10], %r19;",
      "\tatom.add.acq_rel.cta.u32 %r20,[%rd5],%r21;",
  });
  const std::string scope = ticket_ordering_problem(
      code("block_scope", {
          kStore,
          "        /*00d0*/                   MEMBAR.ALL.CTA ;",
          "        /*00e0*/                   ATOM.E.ADD.STRONG.SM PT, R4, desc[UR6][R4.64], R7 ;",
      }),
      &ptx);
  EXPECT_TRUE(says(scope, "reaches only this block")) << scope;
}

TEST(TicketOrderCheck, SaysWhenThereIsNoTicketOrNoStore) {
  EXPECT_TRUE(says(ticket_ordering_problem(code("open", {kStore})), "takes no ticket"));
  EXPECT_TRUE(says(ticket_ordering_problem(code("no_store", {
                       "        /*00b0*/                   MEMBAR.SC.GPU ;",
                       kAtomicAdd,
                   })),
                   "stores no block total"));
  // Shared-memory atomics (ATOMS) are not a ticket.
  EXPECT_TRUE(says(ticket_ordering_problem(code("shared", {
                       kStore,
                       "        /*0100*/                   ATOMS.ADD R2, [R3], R4 ;",
                   })),
                   "takes no ticket"));
}

}  // namespace
}  // namespace warp_reduction::testing
