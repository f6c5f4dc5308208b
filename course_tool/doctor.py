"""./course doctor: this machine against what the course needs, one line per fact, each OK, WARN,
FAIL or SKIP (a missing tool: what it does is skipped), with the command that fixes it, on Linux
and WSL2. The limits come from common/scripts/toolchain.py, which Meson's configure checks too.

Every probe goes through one System object, so that the tests fake whole machines
(course_tool/tests/test_course_doctor.py)."""
import json
import os
import re
import shlex
import shutil
import subprocess
import textwrap
from collections import namedtuple
from pathlib import Path

from common.scripts import cuda_tools, toolchain

from . import paths
from .paths import ROOT, rel

OK, WARN, FAIL, SKIP = "OK", "WARN", "FAIL", "SKIP"
Finding = namedtuple("Finding", "status subject detail fix", defaults=("",))

# On WSL2 the driver is the Windows one; WSL2 maps its tools here, not always on PATH.
WSL_NVIDIA_SMI = cuda_tools.WSL_DRIVER_FOLDER + "/nvidia-smi"
WINDOWS_DRIVER_FIX = ("update the NVIDIA driver on Windows (https://www.nvidia.com/drivers), then "
                      "run wsl --shutdown; it serves WSL2 too, so never install a Linux driver "
                      "inside WSL2")
LINUX_DRIVER_FIX = ("sudo ubuntu-drivers install (Ubuntu), or NVIDIA's driver from "
                    "https://www.nvidia.com/drivers, then reboot")
GPU_QUERY = ["--query-gpu=driver_version,name,compute_cap", "--format=csv,noheader"]
# (program, its package in NVIDIA's CUDA repository, what is skipped without it)
CUDA_TOOLS = [
    ("compute-sanitizer", "cuda-sanitizer",
     "./course test's sanitizer checks and the known-mistake sanitizer tests are skipped "
     "(meson test --setup=memcheck needs a reconfigure once it is there)"),
    ("ncu", "cuda-nsight-compute", "./course profile and the profiler tests are skipped"),
    ("cuobjdump", "cuda-cuobjdump",
     "the machine-code checks of chapters 05-06 (barriers, shuffle masks) are skipped"),
]
COMMAND_TIMEOUT_S = 30  # a wedged driver can make nvidia-smi hang
STATUS_WIDTH, SUBJECT_WIDTH, SCREEN_WIDTH = 6, 19, 100


class System:
    """The real machine, as the doctor sees it."""

    def run(self, command):
        """(exit status, output): stdout, and stderr too when it failed (its explanation);
        127 when the program is missing, 124 when it hangs."""
        try:
            completed = subprocess.run(command, capture_output=True, text=True,
                                       timeout=COMMAND_TIMEOUT_S)
        except OSError:
            return 127, ""
        except subprocess.TimeoutExpired:
            return 124, ""
        if completed.returncode != 0:
            return completed.returncode, completed.stdout + completed.stderr
        return 0, completed.stdout

    def read(self, path):
        try:
            return Path(path).read_text(errors="replace")
        except OSError:
            return None

    def which(self, name):
        return shutil.which(name)

    def cuda_tool(self, name):
        return cuda_tools.find(name)

    def env(self, name):
        return os.environ.get(name)

    def is_root(self):
        return os.geteuid() == 0


def first_line(text):
    return next((line.strip() for line in (text or "").splitlines() if line.strip()), "")


def shown(version):
    return ".".join(str(n) for n in version)


class Checkup:
    """The checks, in the order they are printed. Later checks use what earlier probes found:
    nvcc's version (the driver, the host compiler), the GPUs (nvcc's architectures, the build)."""

    def __init__(self, system, build):
        self.system = system
        self.build = Path(build)
        self.wsl = False
        self.gpus = []  # (name, sm number or None), in nvidia-smi's order
        options = self.read_build_options()
        self.configured = options is not None
        self.build_options = options or {}
        self.nvcc = self.find_nvcc()
        self.cuda = self.nvcc_version()

    def findings(self):
        return (self.check_system() + self.check_driver_and_gpus() + self.check_nvcc()
                + self.check_compilers()
                + self.check_build_tool("Meson", "meson", toolchain.MESON_OLDEST,
                                        "python3 -m pip install --user 'meson>="
                                        f"{toolchain.show(toolchain.MESON_OLDEST)}' (then "
                                        "~/.local/bin first on PATH)")
                + self.check_build_tool("ninja", "ninja", None,
                                        "python3 -m pip install --user ninja, or sudo apt "
                                        "install ninja-build")
                + self.check_libraries() + self.check_cuda_tools() + self.check_build_folder())

    # ---- probes ---------------------------------------------------------------------------

    def read_build_options(self):
        """The build folder's Meson options by name; None when it is not configured (or its
        configure stopped half way)."""
        options = self.system.read(self.build / "meson-info" / "intro-buildoptions.json")
        try:
            return {option["name"]: option["value"] for option in json.loads(options)}
        except (TypeError, ValueError, KeyError):
            return None

    def find_nvcc(self):
        """The nvcc Meson would use: $NVCC (Meson reads it), else cuda_tools' search."""
        chosen = self.system.env("NVCC")
        if chosen:
            return self.system.which(shlex.split(chosen)[0])
        return self.system.cuda_tool("nvcc")

    def nvcc_version(self):
        if not self.nvcc:
            return None
        said = self.system.run([self.nvcc, "--version"])[1]
        match = re.search(r"release \d+\.\d+, V(\d+\.\d+\.\d+)|release (\d+\.\d+)", said)
        return toolchain.version_tuple(match.group(1) or match.group(2)) if match else None

    # ---- checks ---------------------------------------------------------------------------

    def check_system(self):
        version = self.system.read("/proc/version")
        if version is None:
            return [Finding(FAIL, "system", "not Linux (no /proc/version)",
                            "the course runs on Linux, or on Windows inside WSL2 (wsl --install)")]
        kernel = re.search(r"Linux version (\S+)", version)
        kernel = f" (kernel {kernel.group(1)})" if kernel else ""
        if "microsoft-standard" in version.lower():
            self.wsl = True
            return [Finding(OK, "system", f"WSL2{kernel}: the GPU driver is the Windows one "
                            f"(nvidia-smi is {WSL_NVIDIA_SMI})")]
        if "microsoft" in version.lower():
            return [Finding(FAIL, "system", f"WSL1{kernel}, which has no GPU access",
                            "in Windows' PowerShell: wsl --set-version <distribution> 2")]
        return [Finding(OK, "system", f"Linux{kernel}")]

    def driver_fix(self):
        return WINDOWS_DRIVER_FIX if self.wsl else LINUX_DRIVER_FIX

    def check_driver_and_gpus(self):
        nvidia_smi = (self.system.which("nvidia-smi")
                      or (self.wsl and self.system.which(WSL_NVIDIA_SMI)) or None)
        if nvidia_smi is None:
            return self.check_driver_without_nvidia_smi()
        status, table = self.system.run([nvidia_smi, *GPU_QUERY])
        if status != 0:
            return [Finding(FAIL, "NVIDIA driver", f"nvidia-smi fails: {first_line(table)} "
                            "No GPU test can run until it works.", self.driver_fix())]
        rows = [[field.strip() for field in line.split(",")]
                for line in table.splitlines() if line.count(",") >= 2]
        for row in rows:
            capability = re.fullmatch(r"(\d+)\.(\d)", row[-1])
            number = int("".join(capability.groups())) if capability else None  # 8.6: sm_86
            self.gpus.append((", ".join(row[1:-1]), number))
        driver = rows[0][0] if rows else "(version unknown)"
        newest_cuda = toolchain.driver_cuda(self.system.run([nvidia_smi])[1])
        return [self.driver_finding(driver, newest_cuda)] + self.gpu_findings()

    def check_driver_without_nvidia_smi(self):
        module = self.system.read("/proc/driver/nvidia/version")
        loaded = re.search(r"Kernel Module.*?\s(\d+\.\d+(?:\.\d+)?)\s", module or "")
        if loaded:
            driver = loaded.group(1)
            return [self.driver_finding(driver, None),
                    Finding(WARN, "nvidia-smi", "missing, so the GPUs cannot be named here",
                            "install the driver's utilities (Ubuntu: sudo apt install "
                            f"nvidia-utils-{driver.split('.')[0]})")]
        return [Finding(WARN, "GPU", "no NVIDIA GPU or driver found (no nvidia-smi). Without one "
                        "the course still builds and runs its host tests; the GPU tests report "
                        "SKIP (exit status 77).",
                        "on a machine with an NVIDIA GPU: " + self.driver_fix())]

    def driver_problems(self, driver, newest_cuda):
        if not self.cuda:
            return []
        # Windows numbers its drivers differently: on WSL2 only nvidia-smi's CUDA Version counts.
        return toolchain.driver_problems(self.cuda, newest_cuda, None if self.wsl else driver)

    def driver_finding(self, driver, newest_cuda):
        named = driver + (" (Windows)" if self.wsl else "")
        problems = self.driver_problems(driver, newest_cuda)
        if problems:  # they say what it runs
            fix = self.driver_fix()
            if not self.wsl:
                oldest = toolchain.DRIVER_OLDEST.get(self.cuda[0])
                fix = f"install driver {oldest} or newer: " + fix
            return Finding(FAIL, "NVIDIA driver", f"{named}. {problems[0]}", fix)
        detail = named + (f", runs CUDA up to {toolchain.show(newest_cuda)}" if newest_cuda
                          else "")
        if self.cuda and newest_cuda and newest_cuda < self.cuda[:2]:
            return Finding(WARN, "NVIDIA driver", f"{detail}, older than nvcc's CUDA "
                           f"{toolchain.show(self.cuda)}: its programs run (minor version "
                           "compatibility), but this driver cannot JIT-compile their PTX, so "
                           "build for the GPU's own sm_XY (gpu_arch=native does).",
                           self.driver_fix())
        return Finding(OK, "NVIDIA driver", detail)

    def gpu_findings(self):
        if not self.gpus:
            return [Finding(WARN, "GPU", "nvidia-smi lists no GPU: the GPU tests report SKIP "
                            "(exit status 77)", self.driver_fix())]
        findings = []
        for index, (name, number) in enumerate(self.gpus):
            subject = f"GPU {index}"
            if number is None:
                findings.append(Finding(WARN, subject, f"{name}, compute capability unknown "
                                        "(nvidia-smi is too old to say)", self.driver_fix()))
                continue
            detail = (f"{name}, compute capability {number // 10}.{number % 10} "
                      f"(sm_{number}, {toolchain.generation(number)})")
            if number < toolchain.COURSE_MIN_ARCH:
                oldest = toolchain.COURSE_MIN_ARCH
                findings.append(Finding(FAIL, subject, f"{detail}: the course needs compute "
                                        f"capability {oldest // 10}.{oldest % 10} "
                                        f"({toolchain.generation(oldest)}) or newer",
                                        "use a newer GPU (a cloud T4 is a Turing)"))
            else:
                findings.append(Finding(OK, subject, detail))
        return findings

    def nvcc_fix(self):
        minimum = toolchain.show(toolchain.COURSE_MIN_CUDA)
        where = ("choose Linux > x86_64 > WSL-Ubuntu: the toolkit only, never a Linux driver "
                 "inside WSL2" if self.wsl else "or Ubuntu with NVIDIA's repository: sudo apt "
                 "install cuda-toolkit")
        return (f"install the CUDA toolkit {minimum} or newer (https://developer.nvidia.com/"
                f"cuda-downloads; {where}), then export PATH=/usr/local/cuda/bin:$PATH")

    def check_nvcc(self):
        if not self.nvcc:
            searched = ", ".join(["$NVCC"] if self.system.env("NVCC") else
                                 ["PATH", *cuda_tools.folders("nvcc")])
            return [Finding(FAIL, "nvcc", f"not found (searched {searched})", self.nvcc_fix())]
        if not self.cuda:
            return [Finding(FAIL, "nvcc", f"{self.nvcc} does not say its version "
                            "(nvcc --version)", self.nvcc_fix())]
        listed = re.findall(r"compute_(\d+)", self.system.run([self.nvcc, "--list-gpu-arch"])[1])
        detail = f"CUDA {shown(self.cuda)} ({self.nvcc})"
        if listed:
            numbers = sorted(int(n) for n in listed)
            detail += f", builds for sm_{numbers[0]} to sm_{numbers[-1]}"
        problems = toolchain.cuda_problems(self.cuda)
        for number in sorted({number for _, number in self.gpus if number}):
            found = toolchain.arch_problems(self.cuda, f"sm_{number}")
            if not found and listed and str(number) not in listed:
                found = [f"sm_{number} is not among the architectures this nvcc builds for "
                         "(nvcc --list-gpu-arch). Install a newer CUDA toolkit."]
            problems += found
        if problems:
            return [Finding(FAIL, "nvcc", f"{detail}. " + " ".join(problems))]
        if self.system.env("NVCC") is None and self.system.which("nvcc") is None:
            folder = str(Path(self.nvcc).parent)
            return [Finding(WARN, "nvcc", f"{detail}: not on PATH. ./course finds it, but "
                            "meson setup by hand does not.", f"export PATH={folder}:$PATH")]
        return [Finding(OK, "nvcc", f"{detail}; the course needs CUDA "
                        f"{toolchain.show(toolchain.COURSE_MIN_CUDA)} or newer")]

    def meson_compiler(self):
        """Meson's C++ compiler, for the .cpp files: $CXX, else the first of its defaults."""
        chosen = self.system.env("CXX")
        if chosen:
            return chosen, shlex.split(chosen)
        name = next((n for n in ("c++", "g++", "clang++") if self.system.which(n)), None)
        return name, [name] if name else None

    def nvcc_compiler(self):
        """nvcc's host compiler, for the host half of the .cu files: the build's cuda_ccbindir
        (a compiler or its folder), else the g++ on PATH, nvcc's own default."""
        chosen = self.build_options.get("cuda_ccbindir")
        if not chosen:
            return "g++", ["g++"] if self.system.which("g++") else None
        is_compiler = re.search(r"(g\+\+|gcc|clang)[-\d.]*$", chosen)
        return chosen, [chosen if is_compiler else f"{chosen}/g++"]

    def check_compilers(self):
        meson_name, meson_command = self.meson_compiler()
        nvcc_name, nvcc_command = self.nvcc_compiler()
        where = ("the build's cuda_ccbindir" if self.build_options.get("cuda_ccbindir") else
                 "the g++ on PATH; meson setup -Dcuda_ccbindir=/usr/bin/g++-N picks another")
        return [self.compiler_finding("C++ compiler", meson_name, meson_command, None,
                                      "Meson's, for the .cpp files; CXX picks another"),
                self.compiler_finding("host compiler", nvcc_name, nvcc_command, self.cuda,
                                      f"nvcc's, for the host code of the .cu files: {where}")]

    def compiler_finding(self, subject, name, command, cuda, role):
        """What the compiler `command` is, against the course's minimum and, for nvcc's host
        compiler, against the range nvcc of CUDA `cuda` accepts."""
        if not command:
            return Finding(FAIL, subject, f"{name or 'none'} not found ({role})",
                           "sudo apt install g++")
        said = self.system.run(command + ["--version"])[1]
        if "clang" in first_line(said).lower():
            version = re.search(r"version (\d+\.\d+(?:\.\d+)?)", said)
            return Finding(OK, subject, f"{name} is clang "
                           f"{version.group(1) if version else '(version unknown)'} ({role}); "
                           "which clang versions nvcc accepts is not checked here")
        versions = re.findall(r"\d+\.\d+(?:\.\d+)?", first_line(said))
        if not versions or not ("Free Software Foundation" in said or "g++" in said):
            return Finding(WARN, subject, f"{name}: cannot tell which compiler this is "
                           f"({first_line(said) or 'it says nothing to --version'})",
                           "use g++: CXX=g++ meson setup ...")
        version = toolchain.version_tuple(versions[-1])
        detail = ("" if name == "g++" else f"{name} is ") + f"g++ {shown(version)} ({role})"
        # Without an nvcc (and for Meson's own compiler) only the course's minimum applies: no
        # CUDA accepts a gcc before 12.0.
        problems = toolchain.host_compiler_problems(cuda or (0, 0), "gcc", version)
        if problems:
            return Finding(FAIL, subject, f"{detail}. {problems[0]}")
        newest = toolchain.newest_gcc(cuda) if cuda else None
        if newest:
            detail += f"; nvcc {toolchain.show(cuda)} accepts g++ up to {newest}"
        return Finding(OK, subject, detail)

    def check_build_tool(self, subject, program, oldest, fix):
        path = self.system.which(program)
        if not path:
            return [Finding(FAIL, subject, "not found", fix)]
        version = toolchain.version_tuple(first_line(self.system.run([path, "--version"])[1]))
        if version is None:
            return [Finding(WARN, subject, f"{path} does not say its version", fix)]
        if oldest and version < oldest:
            return [Finding(FAIL, subject, f"{shown(version)} is older than "
                            f"{toolchain.show(oldest)}, the course's oldest", fix)]
        return [Finding(OK, subject, f"{shown(version)} ({path})")]

    @staticmethod
    def pinned_version(wrap):
        """The version a wrap of the course pins (the course's own file, not the machine's)."""
        text = (ROOT / "common" / "subprojects" / wrap).read_text()
        match = re.search(r"^directory\s*=\s*\S+?-([\d.]+)\s*$", text, re.MULTILINE)
        return match.group(1) if match else "version"

    def check_libraries(self):
        libraries = [("GoogleTest", "gtest", "gtest.wrap", toolchain.GTEST_OLDEST,
                      "GTEST_SKIP, INSTANTIATE_TEST_SUITE_P"),
                     ("Google Benchmark", "benchmark", "google-benchmark.wrap",
                      toolchain.BENCHMARK_OLDEST, "AddCustomContext, Shutdown")]
        pkg_config = self.system.which("pkg-config")
        if not pkg_config:
            return [Finding(WARN, "pkg-config", "not found, so Meson cannot see system copies of "
                            "GoogleTest and Google Benchmark: it downloads the pinned versions "
                            "(needs network once)", "sudo apt install pkg-config")]
        findings = []
        for subject, package, wrap, oldest, why in libraries:
            pinned = f"the pinned {self.pinned_version(wrap)} (common/subprojects/{wrap})"
            status, said = self.system.run([pkg_config, "--modversion", package])
            version = toolchain.version_tuple(first_line(said)) if status == 0 else None
            if version is None:
                findings.append(Finding(OK, subject, f"not installed: Meson downloads {pinned}, "
                                        "which needs network once"))
            elif version < oldest:
                findings.append(Finding(WARN, subject, f"{shown(version)} from the system is "
                                        f"older than {shown(oldest)} ({why}): Meson uses "
                                        f"{pinned} instead, which needs network once"))
            else:
                findings.append(Finding(OK, subject, f"{shown(version)} from the system "
                                        f"(pkg-config {package})"))
        return findings

    def check_cuda_tools(self):
        # NVIDIA's repository names its packages by CUDA version: cuda-sanitizer-13-0.
        suffix = f"-{self.cuda[0]}-{self.cuda[1]}" if self.cuda and len(self.cuda) > 1 else ""
        findings = []
        for program, package, skipped in CUDA_TOOLS:
            path = self.system.cuda_tool(program)
            if path:
                findings.append(Finding(OK, program, path))
            else:
                findings.append(Finding(SKIP, program, f"not found, so {skipped}",
                                        "it comes with the CUDA toolkit, next to nvcc: sudo apt "
                                        f"install {package}{suffix} (NVIDIA's repository), or "
                                        "put the toolkit's bin/ on PATH"))
            if program == "ncu":
                findings.append(self.counter_permission())
        return findings

    def counter_permission(self):
        subject = "GPU counters"
        if not self.gpus:
            return Finding(SKIP, subject, "no GPU here, so whether ncu may read its counters is "
                           "not checked")
        if self.wsl:
            return Finding(WARN, subject, "whether ncu may read them cannot be seen from inside "
                           "WSL2: Windows decides (ERR_NVGPUCTRPERM when not allowed)",
                           "on Windows, NVIDIA Control Panel: Desktop > Enable Developer "
                           "Settings, then Developer > Manage GPU Performance Counters > "
                           "Allow access to the GPU performance counters to all users")
        params = self.system.read("/proc/driver/nvidia/params") or ""
        admin_only = re.search(r"RmProfilingAdminOnly:\s*(\d)", params)
        if admin_only is None:
            return Finding(WARN, subject, "cannot read RmProfilingAdminOnly in "
                           "/proc/driver/nvidia/params: is the driver loaded?", LINUX_DRIVER_FIX)
        if admin_only.group(1) == "0":
            return Finding(OK, subject, "every user may read them (RmProfilingAdminOnly: 0)")
        if self.system.is_root():
            return Finding(OK, subject, "only root may read them (RmProfilingAdminOnly: 1), "
                           "and you are root")
        return Finding(SKIP, subject, "only root may read them (RmProfilingAdminOnly: 1), so "
                       "./course profile and the profiler tests are skipped",
                       "echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "
                       "/etc/modprobe.d/nvidia-profiling.conf, then reboot "
                       "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)")

    def built_arch(self, gpu_arch):
        """The sm_XY the build compiles for: 'native' was resolved at configure time, and the
        compile commands say to what."""
        if gpu_arch != "native":
            return gpu_arch
        commands = self.system.read(self.build / "compile_commands.json") or ""
        resolved = re.search(r"-arch=(sm_\d+[a-z]?)", commands)
        return resolved.group(1) if resolved else gpu_arch

    def check_build_folder(self):
        folder = rel(self.build)
        if not self.configured:
            return [Finding(OK, "build folder", f"{folder}: not configured yet; ./course test "
                            f"configures it (meson setup {folder})")]
        arch = self.built_arch(self.build_options.get("gpu_arch", "native"))
        detail = f"{folder}: {self.build_options.get('buildtype', 'release')}, gpu_arch={arch}"
        built = toolchain.arch_number(arch)
        gpu = self.gpus[0][1] if self.gpus else None
        if gpu is None or built is None:
            return [Finding(OK, "build folder", detail + (" (no GPU here to compare with)"
                                                          if gpu is None else ""))]
        if built == gpu:
            return [Finding(OK, "build folder", f"{detail}, GPU 0's own")]
        fix = f"reconfigure for GPU 0: meson configure {folder} -Dgpu_arch=sm_{gpu}"
        if built > gpu:
            return [Finding(FAIL, "build folder", f"{detail}, newer than GPU 0 (sm_{gpu}): its "
                            "kernels cannot run there (\"no kernel image is available\")", fix)]
        return [Finding(WARN, "build folder", f"{detail}, older than GPU 0 (sm_{gpu}): the driver "
                        "JIT-compiles its PTX, so timings and the machine-code checks are not "
                        "this GPU's", fix)]


def render(findings):
    """The findings as lines of at most SCREEN_WIDTH columns: status, subject, what was found,
    then the fix, indented under it."""
    indent = " " * (STATUS_WIDTH + SUBJECT_WIDTH)
    wrap = dict(width=SCREEN_WIDTH, break_on_hyphens=False, break_long_words=False)
    lines = []
    for finding in findings:
        lead = f"{finding.status:<{STATUS_WIDTH}}{finding.subject:<{SUBJECT_WIDTH}}"
        lines += textwrap.wrap(finding.detail, initial_indent=lead, subsequent_indent=indent,
                               **wrap)
        if finding.fix:
            lines += textwrap.wrap("fix: " + finding.fix, initial_indent=indent,
                                   subsequent_indent=indent + "     ", **wrap)
    failures = sum(finding.status == FAIL for finding in findings)
    lines.append("")
    lines.append(f"{failures} FAIL: fix those lines first, then run ./course doctor again."
                 if failures else "Nothing FAILs: the course builds here.")
    return "\n".join(lines)


def command_doctor(system=None):
    """Prints the checkup; exit status 1 when something FAILs."""
    findings = Checkup(system or System(), paths.BUILD).findings()
    print("./course doctor: this machine against what the course needs "
          "(limits: common/scripts/toolchain.py)\n")
    print(render(findings))
    return 1 if any(finding.status == FAIL for finding in findings) else 0
