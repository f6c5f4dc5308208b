"""The course's shared scripts: what a chapter's build runs, and what ./course and tools/ use.

    manifest         a chapter from its steps.json and files: steps, tests, what Meson builds
    regions          the answer regions of a solution file; exercises and plants made from it
    judge            the one pass rule of a step (./course test and the suites); known mistakes
    sanitizer_check  tests under compute-sanitizer, reported in the learner's terms
    ncu_profile      Nsight Compute: a step's counters and the directions its lesson predicts
    toolchain        the toolchain limits (CUDA, host compiler, driver, GPU architecture)
    cuda_tools       where the CUDA toolkit's programs are

Meson runs them as `python3 -m scripts.NAME` with PYTHONPATH=common/ (a chapter configured
alone reaches common/ through its subprojects/course-common link); ./course and tools/ import
them as `common.scripts`. Standard library only.
"""
