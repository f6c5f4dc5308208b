"""Unit tests of ./course doctor (course_tool/doctor.py) on fake machines: every probe goes
through one system object, so a test describes a whole machine (its /proc files, programs and
what they print) and reads the verdicts. Also the functions doctor added to toolchain.py. No GPU,
no CUDA needed (CI runs them)."""
import contextlib
import io
import json
import unittest
from pathlib import Path

from common.scripts import toolchain
from course_tool import doctor
from course_tool.doctor import FAIL, OK, SKIP, WARN
from course_tool.paths import ROOT

LINUX = "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (gcc 13.2.0) #45-Ubuntu SMP\n"
WSL2 = "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc 11.2.0) #1 SMP\n"
WSL1 = "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc 5.4.0) #1237\n"
H100 = ("NVIDIA H100 80GB HBM3", "9.0")
RTX_3060 = ("NVIDIA GeForce RTX 3060", "8.6")
RTX_5090 = ("NVIDIA GeForce RTX 5090", "12.0")
# What nvcc --list-gpu-arch prints, by CUDA release.
GPU_ARCHS = {
    "12.0": "compute_50 compute_52 compute_53 compute_60 compute_61 compute_62 compute_70 "
            "compute_72 compute_75 compute_80 compute_86 compute_87 compute_89 compute_90",
    "12.4": "compute_50 compute_52 compute_53 compute_60 compute_61 compute_62 compute_70 "
            "compute_72 compute_75 compute_80 compute_86 compute_87 compute_89 compute_90",
    "12.8": "compute_50 compute_52 compute_53 compute_60 compute_61 compute_62 compute_70 "
            "compute_72 compute_75 compute_80 compute_86 compute_87 compute_89 compute_90 "
            "compute_100 compute_101 compute_120",
    "13.0": "compute_75 compute_80 compute_86 compute_87 compute_88 compute_89 compute_90 "
            "compute_100 compute_110 compute_103 compute_120 compute_121",
}
ALL_CUDA_TOOLS = ("compute-sanitizer", "ncu", "cuobjdump")
BUILD = ROOT / "build"


class FakeMachine:
    """A machine as doctor.System shows it: programs (name or full path -> path, on PATH),
    toolkit programs off PATH, what each command prints (by program name and arguments), files,
    environment variables, and whether the user is root."""

    def __init__(self, programs, outputs, files, env=None, off_path=(), root=False):
        self.programs, self.outputs, self.files = programs, outputs, files
        self.environment, self.off_path, self.root = env or {}, dict(off_path), root

    def run(self, command):
        key = (Path(command[0]).name, *command[1:])
        return self.outputs.get(key, (127, ""))

    def read(self, path):
        return self.files.get(str(path))

    def which(self, name):
        return self.programs.get(name)

    def cuda_tool(self, name):
        return self.programs.get(name) or self.off_path.get(name)

    def env(self, name):
        return self.environment.get(name)

    def is_root(self):
        return self.root


def nvidia_smi_banner(driver, cuda):
    return (f"| NVIDIA-SMI {driver}    Driver Version: {driver}    CUDA Version: {cuda}     |\n"
            "|-----------------------------------------+------------------------+------------|\n")


def machine(kernel=LINUX, gpus=(), driver="580.65.06", driver_cuda="13.0", nvcc="13.0.88",
            compilers=(("c++", "12.3.0"), ("g++", "12.3.0")), meson="1.5.1",
            cuda_tools=ALL_CUDA_TOOLS, admin_only="0",
            libraries=(("gtest", "1.14.0"), ("benchmark", "1.8.3")), build_options=None,
            compile_commands=None, env=None, nvcc_off_path=False, root=False):
    """A Linux (or WSL2) machine with these GPUs (name, compute capability), driver, CUDA and
    tools; each keyword is one fact of it, as a learner would describe the machine."""
    wsl = "microsoft" in kernel.lower()
    programs = {"ninja": "/usr/bin/ninja", "pkg-config": "/usr/bin/pkg-config"}
    outputs = {("ninja", "--version"): (0, "1.11.1\n")}
    files = {"/proc/version": kernel}
    if gpus:
        # WSL2 maps the Windows driver's nvidia-smi here, often not on PATH.
        if wsl:
            programs[doctor.WSL_NVIDIA_SMI] = doctor.WSL_NVIDIA_SMI
        else:
            programs["nvidia-smi"] = "/usr/bin/nvidia-smi"
        table = "".join(f"{driver}, {name}, {capability}\n" for name, capability in gpus)
        outputs[("nvidia-smi", *doctor.GPU_QUERY)] = (0, table)
        outputs[("nvidia-smi",)] = (0, nvidia_smi_banner(driver, driver_cuda))
        if not wsl:
            files["/proc/driver/nvidia/params"] = f"RmProfilingAdminOnly: {admin_only}\n"
    off_path = {}
    if nvcc:
        cuda_bin = f"/usr/local/cuda-{nvcc[:4]}/bin"
        (off_path if nvcc_off_path else programs)["nvcc"] = cuda_bin + "/nvcc"
        release = ".".join(nvcc.split(".")[:2])
        outputs[("nvcc", "--version")] = (0, "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                          f"Cuda compilation tools, release {release}, V{nvcc}\n")
        outputs[("nvcc", "--list-gpu-arch")] = (0, GPU_ARCHS[release].replace(" ", "\n"))
        for tool in cuda_tools:
            programs[tool] = f"{cuda_bin}/{tool}"
    for name, version in compilers:
        programs[name] = f"/usr/bin/{name}"
        outputs[(name, "--version")] = (0, f"{name} (Ubuntu {version}-1ubuntu1) {version}\n"
                                        "Copyright (C) 2023 Free Software Foundation, Inc.\n")
    if meson:
        programs["meson"] = "/home/learner/.local/bin/meson"
        outputs[("meson", "--version")] = (0, meson + "\n")
    for package, version in libraries:
        outputs[("pkg-config", "--modversion", package)] = (0, version + "\n")
    if build_options is not None:
        files[str(BUILD / "meson-info" / "intro-buildoptions.json")] = json.dumps(
            [{"name": name, "value": value} for name, value in build_options.items()])
    if compile_commands is not None:
        files[str(BUILD / "compile_commands.json")] = compile_commands
    return FakeMachine(programs, outputs, files, env, off_path, root)


def checkup(system):
    """{subject: finding} of the doctor on this machine."""
    return {finding.subject: finding for finding in doctor.Checkup(system, BUILD).findings()}


def doctor_run(system):
    """(exit status, what ./course doctor printed) on this machine."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = doctor.command_doctor(system)
    return status, out.getvalue()


class CiMachineWithoutGpu(unittest.TestCase):
    """This repository's CI: nvcc 13 and g++ 12, no GPU, no nvidia-smi, no profiler tools."""

    def setUp(self):
        self.system = machine(nvcc="13.0.88", cuda_tools=(), build_options={
            "gpu_arch": "sm_90", "buildtype": "release"})
        self.found = checkup(self.system)

    def test_says_what_still_works_without_a_gpu(self):
        gpu = self.found["GPU"]
        self.assertEqual(gpu.status, WARN)
        self.assertIn("host tests", gpu.detail)
        self.assertIn("SKIP (exit status 77)", gpu.detail)

    def test_toolkit_and_compiler_pass(self):
        self.assertEqual(self.found["nvcc"].status, OK)
        self.assertIn("CUDA 13.0.88", self.found["nvcc"].detail)
        self.assertIn("sm_75 to sm_121", self.found["nvcc"].detail)
        self.assertEqual(self.found["host compiler"].status, OK)
        self.assertIn("cuda_ccbindir", self.found["host compiler"].detail)

    def test_missing_tools_say_what_is_skipped_and_how_to_install_them(self):
        sanitizer = self.found["compute-sanitizer"]
        self.assertEqual(sanitizer.status, SKIP)
        self.assertIn("sanitizer checks", sanitizer.detail)
        self.assertIn("cuda-sanitizer-13-0", sanitizer.fix)
        self.assertIn("cuda-nsight-compute-13-0", self.found["ncu"].fix)
        self.assertIn("machine-code checks", self.found["cuobjdump"].detail)
        self.assertEqual(self.found["GPU counters"].status, SKIP)

    def test_build_folder_is_not_compared_without_a_gpu(self):
        self.assertEqual(self.found["build folder"].status, OK)
        self.assertIn("gpu_arch=sm_90 (no GPU here", self.found["build folder"].detail)

    def test_exits_0_and_prints_one_screen(self):
        status, printed = doctor_run(self.system)
        self.assertEqual(status, 0)
        self.assertIn("Nothing FAILs", printed)
        self.assertTrue(all(len(line) <= doctor.SCREEN_WIDTH for line in printed.splitlines()))
        self.assertLess(len(printed.splitlines()), 50)


class H100Machine(unittest.TestCase):
    """Driver 580, CUDA 13, g++ 12, every tool, counters open to all, built for sm_90."""

    def test_everything_is_ok(self):
        found = checkup(machine(gpus=[H100], build_options={"gpu_arch": "native"},
                                compile_commands='[{"command": "nvcc -arch=sm_90 -lineinfo"}]'))
        self.assertEqual({subject: finding.status for subject, finding in found.items()
                          if finding.status != OK}, {})
        self.assertIn("9.0 (sm_90, Hopper)", found["GPU 0"].detail)
        self.assertIn("580.65.06, runs CUDA up to 13.0", found["NVIDIA driver"].detail)
        self.assertIn("gpu_arch=sm_90, GPU 0's own", found["build folder"].detail)
        self.assertIn("RmProfilingAdminOnly: 0", found["GPU counters"].detail)
        self.assertEqual(doctor_run(machine(gpus=[H100]))[0], 0)

    def test_every_gpu_has_its_line(self):
        found = checkup(machine(gpus=[H100, H100]))
        self.assertEqual((found["GPU 0"].status, found["GPU 1"].status), (OK, OK))

    def test_counters_for_root_only_are_skipped_for_a_user_with_the_modprobe_fix(self):
        counters = checkup(machine(gpus=[H100], admin_only="1"))["GPU counters"]
        self.assertEqual(counters.status, SKIP)
        self.assertIn("NVreg_RestrictProfilingToAdminUsers=0", counters.fix)
        self.assertIn("ERR_NVGPUCTRPERM", counters.fix)
        self.assertEqual(checkup(machine(gpus=[H100], admin_only="1", root=True))
                         ["GPU counters"].status, OK)

    def test_driver_too_old_for_cuda_13_fails_with_the_driver_to_install(self):
        driver = checkup(machine(gpus=[H100], driver="575.57.08", driver_cuda="12.9"))[
            "NVIDIA driver"]
        self.assertEqual(driver.status, FAIL)
        self.assertIn("CUDA driver version is insufficient", driver.detail)
        self.assertIn("install driver 580.65.06 or newer", driver.fix)

    def test_driver_of_an_older_cuda_minor_warns(self):
        driver = checkup(machine(gpus=[H100], driver="550.54.15", driver_cuda="12.4",
                                 nvcc="12.8.93"))["NVIDIA driver"]
        self.assertEqual(driver.status, WARN)
        self.assertIn("minor version compatibility", driver.detail)

    def test_build_for_another_gpu_says_how_to_reconfigure(self):
        found = checkup(machine(gpus=[RTX_3060], build_options={"gpu_arch": "sm_90"}))
        self.assertEqual(found["build folder"].status, FAIL)
        self.assertIn("meson configure build -Dgpu_arch=sm_86", found["build folder"].fix)
        older = checkup(machine(gpus=[H100], build_options={"gpu_arch": "sm_86"}))
        self.assertEqual(older["build folder"].status, WARN)

    def test_unconfigured_build_folder_is_fine(self):
        folder = checkup(machine(gpus=[H100]))["build folder"]
        self.assertEqual(folder.status, OK)
        self.assertIn("not configured yet", folder.detail)

    def test_broken_driver_fails(self):
        system = machine(gpus=[H100])
        system.outputs[("nvidia-smi", *doctor.GPU_QUERY)] = (
            9, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")
        driver = checkup(system)["NVIDIA driver"]
        self.assertEqual(driver.status, FAIL)
        self.assertIn("couldn't communicate", driver.detail)


class Wsl2WithRtx3060(unittest.TestCase):
    """WSL2, the Windows driver's nvidia-smi in /usr/lib/wsl/lib only, an RTX 3060 (sm_86), no
    /proc/driver/nvidia: counter permission is Windows' to give."""

    def test_gpu_found_through_the_wsl_nvidia_smi(self):
        found = checkup(machine(kernel=WSL2, gpus=[RTX_3060], driver="581.57"))
        self.assertIn("WSL2", found["system"].detail)
        self.assertEqual(found["GPU 0"].status, OK)
        self.assertIn("sm_86, Ampere", found["GPU 0"].detail)
        self.assertEqual(found["NVIDIA driver"].status, OK)
        self.assertIn("(Windows)", found["NVIDIA driver"].detail)

    def test_counter_permission_points_to_the_windows_control_panel(self):
        counters = checkup(machine(kernel=WSL2, gpus=[RTX_3060]))["GPU counters"]
        self.assertEqual(counters.status, WARN)
        self.assertIn("Allow access to the GPU performance counters to all users", counters.fix)

    def test_old_windows_driver_fails_without_suggesting_a_linux_driver(self):
        driver = checkup(machine(kernel=WSL2, gpus=[RTX_3060], driver="552.22",
                                 driver_cuda="12.4"))["NVIDIA driver"]
        self.assertEqual(driver.status, FAIL)
        self.assertIn("NVIDIA driver on Windows", driver.fix)
        self.assertIn("never install a Linux driver inside WSL2", driver.fix)
        self.assertNotIn("ubuntu-drivers", driver.fix)

    def test_no_gpu_and_missing_nvcc_give_wsl_fixes(self):
        found = checkup(machine(kernel=WSL2, nvcc=None))
        self.assertIn("NVIDIA driver on Windows", found["GPU"].fix)
        self.assertEqual(found["nvcc"].status, FAIL)
        self.assertIn("WSL-Ubuntu", found["nvcc"].fix)

    def test_wsl1_fails(self):
        self.assertEqual(checkup(machine(kernel=WSL1))["system"].status, FAIL)


GXX_13 = [("c++", "13.2.0"), ("g++", "13.2.0")]


class GxxTooNewForCuda120(unittest.TestCase):
    """g++ 13 with CUDA 12.0, whose nvcc accepts g++ up to 12."""

    def test_host_compiler_fails_with_the_gxx_12_fix(self):
        found = checkup(machine(gpus=[RTX_3060], nvcc="12.0.140", driver_cuda="12.0",
                                driver="525.60.13", compilers=GXX_13))
        compiler = found["host compiler"]
        self.assertEqual(compiler.status, FAIL)
        self.assertIn("sudo apt install g++-12", compiler.detail)
        self.assertIn("CXX=g++-12", compiler.detail)
        # CUDA 12.0 is also below the course's own minimum.
        self.assertEqual(found["nvcc"].status, FAIL)
        self.assertIn("12.4", found["nvcc"].detail)

    def test_the_builds_cuda_ccbindir_is_the_compiler_checked(self):
        system = machine(nvcc="12.0.140", compilers=GXX_13 + [("g++-12", "12.3.0")],
                         env={"CXX": "g++-12"}, build_options={"cuda_ccbindir": "g++-12"})
        found = checkup(system)
        self.assertEqual(found["host compiler"].status, OK)
        self.assertIn("g++-12 is g++ 12.3.0", found["host compiler"].detail)
        self.assertIn("g++-12 is g++ 12.3.0", found["C++ compiler"].detail)

    def test_exits_1(self):
        self.assertEqual(doctor_run(machine(nvcc="12.0.140", compilers=GXX_13))[0], 1)


class GpuNewerThanNvcc(unittest.TestCase):
    """An RTX 5090 (sm_120) with CUDA 12.4, which first built for it in 12.8."""

    def test_nvcc_fails_naming_the_cuda_the_gpu_needs(self):
        nvcc = checkup(machine(gpus=[RTX_5090], nvcc="12.4.131", driver_cuda="12.8",
                               driver="570.124.04"))["nvcc"]
        self.assertEqual(nvcc.status, FAIL)
        self.assertIn("sm_120", nvcc.detail)
        self.assertIn("needs CUDA 12.8 or newer", nvcc.detail)

    def test_an_architecture_nvcc_does_not_list_fails_too(self):
        system = machine(gpus=[("NVIDIA Future GPU", "13.0")], nvcc="13.0.88")
        nvcc = checkup(system)["nvcc"]
        self.assertEqual(nvcc.status, FAIL)
        self.assertIn("sm_130 is not among", nvcc.detail)


class MissingOrOldPieces(unittest.TestCase):
    def test_no_meson_fails_with_the_pip_command(self):
        meson = checkup(machine(meson=None))["Meson"]
        self.assertEqual(meson.status, FAIL)
        self.assertIn("pip install --user 'meson>=1.1'", meson.fix)

    def test_old_meson_fails(self):
        self.assertEqual(checkup(machine(meson="0.61.2"))["Meson"].status, FAIL)

    def test_libraries_missing_or_old_use_the_pinned_wraps(self):
        found = checkup(machine(libraries=[("benchmark", "1.5.0")]))
        self.assertEqual(found["GoogleTest"].status, OK)
        self.assertIn("Meson downloads the pinned 1.15.2", found["GoogleTest"].detail)
        self.assertEqual(found["Google Benchmark"].status, WARN)
        self.assertIn("older than 1.5.5", found["Google Benchmark"].detail)
        self.assertIn("pinned 1.7.1", found["Google Benchmark"].detail)

    def test_nvcc_off_path_warns_with_the_export(self):
        nvcc = checkup(machine(nvcc="13.0.88", nvcc_off_path=True))["nvcc"]
        self.assertEqual(nvcc.status, WARN)
        self.assertIn("export PATH=/usr/local/cuda-13.0/bin:$PATH", nvcc.fix)

    def test_no_compiler_fails(self):
        found = checkup(machine(compilers=()))
        self.assertEqual((found["C++ compiler"].status, found["host compiler"].status),
                         (FAIL, FAIL))

    def test_driver_without_nvidia_smi_is_still_checked(self):
        system = machine()
        system.files["/proc/driver/nvidia/version"] = (
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.57.08  Release Build\n")
        found = checkup(system)
        self.assertEqual(found["nvidia-smi"].status, WARN)
        self.assertIn("nvidia-utils-575", found["nvidia-smi"].fix)
        self.assertEqual(found["NVIDIA driver"].status, FAIL)  # CUDA 13 needs 580

    def test_half_configured_build_folder_counts_as_not_configured(self):
        system = machine()
        system.files[str(BUILD / "meson-info" / "intro-buildoptions.json")] = '[{"name": '
        self.assertIn("not configured yet", checkup(system)["build folder"].detail)

    def test_not_linux_fails(self):
        system = machine()
        del system.files["/proc/version"]
        self.assertEqual(checkup(system)["system"].status, FAIL)


class ToolchainAdditions(unittest.TestCase):
    def test_driver_cuda_reads_nvidia_smis_banner(self):
        self.assertEqual(toolchain.driver_cuda(nvidia_smi_banner("580.65.06", "13.0")), (13, 0))
        self.assertIsNone(toolchain.driver_cuda("no banner"))

    def test_driver_problems(self):
        self.assertEqual(toolchain.driver_problems((12, 8), (12, 4), "550.54.15"), [])
        self.assertTrue(toolchain.driver_problems((13, 0), (12, 9)))
        self.assertTrue(toolchain.driver_problems((13, 0), None, "575.57.08"))
        self.assertEqual(toolchain.driver_problems((13, 0), None, "580.65.06"), [])

    def test_generation(self):
        self.assertEqual([toolchain.generation(n) for n in (75, 86, 89, 90, 100)],
                         ["Turing", "Ampere", "Ada", "Hopper", "Blackwell"])


class ThisMachine(unittest.TestCase):
    def test_runs_on_the_real_system(self):
        status, printed = doctor_run(doctor.System())
        self.assertIn(status, (0, 1))
        self.assertIn("nvcc", printed)


if __name__ == "__main__":
    unittest.main()
