"""The toolchain limits of the course, in one place: which CUDA a GPU generation needs, which
host compilers an nvcc accepts, which driver a CUDA needs, and the course's own minimum. Meson
asks it at configure time (common/meson.build: `python3 -m scripts.toolchain check ...`, one
clear error with its fix), `./course doctor` asks it to explain a machine, and README's
prerequisites table says the same.

usage:
    python3 -m scripts.toolchain check --nvcc VERSION [--arch sm_XY]
                                       [--host-compiler gcc|clang|... --host-version V]
        prints each problem with its fix and exits 1, or exits 0 when there is none
"""
import argparse
import re
import sys

# cub::DeviceReduce::TransformReduce (chapter 01's vendor row) came with CCCL 2.3, first
# shipped in CUDA 12.4; the rest of the course needs CUDA 12.0.
COURSE_MIN_CUDA = (12, 4)
COURSE_MIN_CUDA_WHY = ("chapter 01 compares with cub::DeviceReduce::TransformReduce, which CUB "
                       "has had since CUDA 12.4")

# The newest gcc each CUDA release's crt/host_config.h accepts (nvcc stops with "unsupported
# GNU version" on a newer one): (first CUDA release with that limit, newest gcc major).
GCC_NEWEST = [((12, 0), 12), ((12, 4), 13), ((12, 8), 14), ((13, 0), 15)]
# The course's code is C++17 throughout; gcc 9 is the first whose C++17 library it builds with.
GCC_OLDEST = 9

# The first CUDA release that builds for each GPU architecture (sm_XY -> (major, minor)).
ARCH_FIRST_CUDA = {75: (10, 0), 80: (11, 0), 86: (11, 1), 87: (11, 4), 89: (11, 8),
                   90: (11, 8), 100: (12, 8), 101: (12, 8), 103: (12, 9), 110: (13, 0),
                   120: (12, 8), 121: (12, 9)}
# CUDA 13 builds for Turing (sm_75) and newer only.
ARCH_OLDEST = {(13, 0): 75}
GENERATION = {7: "Turing (sm_75) or Volta", 8: "Ampere/Ada", 9: "Hopper", 10: "Blackwell",
              11: "Blackwell", 12: "Blackwell (GeForce/RTX PRO)"}

# The oldest Linux driver each CUDA major version runs on (minor version compatibility: any
# 12.x on R525, any 13.x on R580). Windows (and so WSL2) drivers are numbered differently.
DRIVER_OLDEST = {12: "525.60.13", 13: "580.65.06"}


def version_tuple(text):
    """'12.4.131' or 'V12.4.131' -> (12, 4, 131); None when there is no number."""
    numbers = re.findall(r"\d+", text or "")
    return tuple(int(n) for n in numbers[:3]) if numbers else None


def show(version):
    return ".".join(str(n) for n in version[:2])


def arch_number(arch):
    """'sm_90a' -> 90, 'compute_120' -> 120; None for 'native' and the like."""
    match = re.fullmatch(r"(?:sm|compute)_(\d+)[a-z]?", arch or "")
    return int(match.group(1)) if match else None


def newest_gcc(cuda):
    """The newest gcc major the nvcc of CUDA version `cuda` accepts (None before CUDA 12)."""
    newest = None
    for first, gcc in GCC_NEWEST:
        if cuda[:2] >= first:
            newest = gcc
    return newest


def cuda_for_gcc(gcc_major):
    """The first CUDA release that accepts gcc `gcc_major`, or None if none does yet."""
    return next((first for first, gcc in GCC_NEWEST if gcc >= gcc_major), None)


def cuda_problems(cuda):
    if cuda[:2] >= COURSE_MIN_CUDA:
        return []
    return [f"CUDA {show(cuda)} is too old for this course: it needs CUDA "
            f"{show(COURSE_MIN_CUDA)} or newer ({COURSE_MIN_CUDA_WHY}). Install a newer "
            "toolkit (https://developer.nvidia.com/cuda-downloads) and put its bin/ first on "
            "PATH, or configure with NVCC=/path/to/cuda/bin/nvcc meson setup ..."]


def arch_problems(cuda, arch):
    number = arch_number(arch)
    if number is None:
        return []
    first = ARCH_FIRST_CUDA.get(number)
    if first and cuda[:2] < first:
        generation = GENERATION.get(number // 10, "this GPU")
        return [f"{arch} ({generation}) needs CUDA {show(first)} or newer; this nvcc is CUDA "
                f"{show(cuda)}. Install a newer toolkit, or build for an older architecture "
                "with -Dgpu_arch=sm_XY: the driver then compiles the embedded PTX for this GPU "
                "when a program starts (slower to start, and timings are not the lesson's)."]
    oldest = max((a for c, a in ARCH_OLDEST.items() if cuda[:2] >= c), default=None)
    if oldest and number < oldest:
        return [f"CUDA {show(cuda)} no longer builds for {arch}: its oldest architecture is "
                f"sm_{oldest}. A GPU older than Turing needs CUDA 12.x (the course needs "
                f"{show(COURSE_MIN_CUDA)} or newer)."]
    return []


def host_compiler_problems(cuda, compiler, version):
    if compiler != "gcc" or not version:
        return []
    major = version[0]
    if major < GCC_OLDEST:
        return [f"g++ {major} is too old: the course needs g++ {GCC_OLDEST} or newer (C++17). "
                f"Install one (Ubuntu: sudo apt install g++-{GCC_OLDEST + 3}) and configure "
                f"with CXX=g++-{GCC_OLDEST + 3} meson setup ..."]
    newest = newest_gcc(cuda)
    if newest is not None and major > newest:
        return [f"nvcc of CUDA {show(cuda)} accepts g++ up to {newest}, and this is g++ {major}: "
                f"nvcc would stop at the first .cu file with \"unsupported GNU version\". "
                f"Install g++-{newest} (Ubuntu: sudo apt install g++-{newest}) and configure "
                f"with CXX=g++-{newest} meson setup BUILD -Dcuda_ccbindir=/usr/bin/g++-{newest} "
                f"(nvcc takes its host compiler from cuda_ccbindir, not from CXX), or install a "
                f"CUDA that accepts g++ {major}"
                + (f" (CUDA {show(cuda_for_gcc(major))} or newer)." if cuda_for_gcc(major)
                   else ".")]
    return []


def problems(cuda, arch=None, compiler=None, compiler_version=None):
    return (cuda_problems(cuda) + arch_problems(cuda, arch)
            + host_compiler_problems(cuda, compiler, compiler_version))


# ---- What ./course doctor checks besides nvcc and the host compiler ----------------------------

# The course's GPUs (README's prerequisites): compute capability 7.5, Turing, or newer.
COURSE_MIN_ARCH = 75
# Meson: the meson_version of every meson.build of the course.
MESON_OLDEST = (1, 1)
# GoogleTest 1.10 has GTEST_SKIP and INSTANTIATE_TEST_SUITE_P; Google Benchmark 1.5.5 has
# AddCustomContext and Shutdown (common/src/benchmark_main.cpp). An older system copy is passed
# over for the pinned wrap in common/subprojects/.
GTEST_OLDEST = (1, 10)
BENCHMARK_OLDEST = (1, 5, 5)


def generation(number):
    """The GPU generation of sm_`number`: 86 -> 'Ampere', 89 -> 'Ada', 90 -> 'Hopper'."""
    exact = {70: "Volta", 72: "Volta", 75: "Turing", 89: "Ada"}
    if number in exact:
        return exact[number]
    return "Ampere" if number // 10 == 8 else GENERATION.get(number // 10, "unknown")


def driver_cuda(nvidia_smi_banner):
    """The newest CUDA a driver runs, from plain nvidia-smi's 'CUDA Version: 12.4' -> (12, 4);
    None without it. Unlike the driver's own number it means the same on Linux and WSL2."""
    match = re.search(r"CUDA Version\s*:\s*(\d+)\.(\d+)", nvidia_smi_banner or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def driver_problems(cuda, newest_cuda=None, linux_driver=None):
    """Why programs built by the nvcc of CUDA `cuda` cannot run on a driver that runs CUDA up to
    `newest_cuda` (driver_cuda) and, on Linux, is version `linux_driver` ('580.65.06')."""
    oldest = DRIVER_OLDEST.get(cuda[0])
    if newest_cuda and newest_cuda[0] < cuda[0]:
        limit = f"runs CUDA up to {show(newest_cuda)}"
    elif linux_driver and oldest and version_tuple(linux_driver) < version_tuple(oldest):
        limit = f"is {linux_driver}"
    else:
        return []
    return [f"This driver {limit}; programs built by the nvcc of CUDA {show(cuda)} need a driver "
            f"for CUDA {cuda[0]}.x" + (f" (Linux: {oldest} or newer)" if oldest else "") +
            ", or they stop with \"CUDA driver version is insufficient for CUDA runtime version\"."]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="the toolchain's problems, each with its fix")
    check.add_argument("--nvcc", required=True, help="nvcc's version, e.g. 12.4.131")
    check.add_argument("--arch", help="the GPU architecture to build for, e.g. sm_90")
    check.add_argument("--host-compiler", help="Meson's C++ compiler id: gcc, clang, ...")
    check.add_argument("--host-version", help="its version, e.g. 13.2.0")
    args = parser.parse_args(argv)
    cuda = version_tuple(args.nvcc)
    if cuda is None:
        print(f"cannot read nvcc's version from {args.nvcc!r}")
        return 1
    found = problems(cuda, args.arch, args.host_compiler, version_tuple(args.host_version))
    print("\n".join(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
