"""Tests of the toolchain limits (common/scripts/toolchain.py): each check fed a bad version
gives its message and fix; and configure time (common/meson.build) stops with that message,
seen through a fake g++ newer than this nvcc accepts."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from common.scripts import toolchain

ROOT = Path(__file__).resolve().parents[3]


def check(*args):
    """The CLI Meson calls: (exit status, what it printed)."""
    completed = subprocess.run([sys.executable, "-m", "scripts.toolchain", "check", *args],
                               cwd=ROOT / "common", capture_output=True, text=True, check=False)
    return completed.returncode, completed.stdout


class Limits(unittest.TestCase):
    def test_versions_and_architectures_are_read(self):
        self.assertEqual(toolchain.version_tuple("V12.4.131"), (12, 4, 131))
        self.assertIsNone(toolchain.version_tuple(""))
        self.assertEqual(toolchain.arch_number("sm_90a"), 90)
        self.assertEqual(toolchain.arch_number("compute_120"), 120)
        self.assertIsNone(toolchain.arch_number("native"))

    def test_newest_gcc_follows_the_cuda_release(self):
        self.assertEqual(toolchain.newest_gcc((12, 0)), 12)
        self.assertEqual(toolchain.newest_gcc((12, 3)), 12)
        self.assertEqual(toolchain.newest_gcc((12, 4)), 13)
        self.assertEqual(toolchain.newest_gcc((12, 9)), 14)
        self.assertEqual(toolchain.newest_gcc((13, 0)), 15)
        self.assertEqual(toolchain.cuda_for_gcc(14), (12, 8))
        self.assertIsNone(toolchain.cuda_for_gcc(99))

    def test_a_good_toolchain_has_no_problem(self):
        self.assertEqual(check("--nvcc", "13.0.88", "--arch", "sm_90", "--host-compiler", "gcc",
                               "--host-version", "12.2.0"), (0, "\n"))
        self.assertEqual(check("--nvcc", "12.4.131", "--arch", "sm_86")[0], 0)

    def test_an_old_cuda_is_named_with_the_minimum_and_why(self):
        status, text = check("--nvcc", "12.0.140")
        self.assertEqual(status, 1)
        self.assertIn("CUDA 12.0 is too old for this course: it needs CUDA 12.4", text)
        self.assertIn("TransformReduce", text)

    def test_a_gpu_newer_than_the_nvcc_is_named(self):
        status, text = check("--nvcc", "12.4.131", "--arch", "sm_120")
        self.assertEqual(status, 1)
        self.assertIn("sm_120 (Blackwell (GeForce/RTX PRO)) needs CUDA 12.8 or newer", text)

    def test_a_gpu_older_than_cuda_13_supports_is_named(self):
        status, text = check("--nvcc", "13.0.88", "--arch", "sm_70")
        self.assertEqual(status, 1)
        self.assertIn("CUDA 13.0 no longer builds for sm_70", text)

    def test_a_too_new_gcc_is_named_with_the_option_that_reaches_nvcc(self):
        status, text = check("--nvcc", "12.0.140", "--host-compiler", "gcc",
                             "--host-version", "13.2.0")
        self.assertEqual(status, 1)
        self.assertIn("accepts g++ up to 12, and this is g++ 13", text)
        self.assertIn("-Dcuda_ccbindir=/usr/bin/g++-12", text)
        self.assertIn("CUDA 12.4 or newer", text)

    def test_a_too_old_gcc_is_named(self):
        status, text = check("--nvcc", "12.4.131", "--host-compiler", "gcc",
                             "--host-version", "8.5.0")
        self.assertEqual(status, 1)
        self.assertIn("g++ 8 is too old", text)

    def test_other_host_compilers_are_not_judged_by_gcc_limits(self):
        self.assertEqual(check("--nvcc", "12.4.131", "--host-compiler", "clang",
                               "--host-version", "19.0.0")[0], 0)

    def test_an_unreadable_nvcc_version_is_said(self):
        status, text = check("--nvcc", "unknown")
        self.assertEqual(status, 1)
        self.assertIn("cannot read nvcc's version", text)


class ReadmeTables(unittest.TestCase):
    """README.md's prerequisites tables say what toolchain.py checks."""

    def rows(self, header):
        text = (ROOT / "README.md").read_text()
        table = text[text.index(header):].split("\n\n")[0].splitlines()[2:]
        return [[cell.strip() for cell in row.strip("|").split("|")] for row in table]

    def test_the_cuda_table_gives_each_release_its_gcc_and_driver(self):
        for cuda, gcc, driver in self.rows("| CUDA | newest g++"):
            for release in cuda.split(" - "):
                version = toolchain.version_tuple(release)
                self.assertEqual(str(toolchain.newest_gcc(version)), gcc, cuda)
                self.assertEqual(toolchain.DRIVER_OLDEST[version[0]], driver, cuda)

    def test_the_gpu_table_gives_each_architecture_the_cuda_it_needs(self):
        for row in self.rows("| GPU | compute capability"):
            needed = toolchain.version_tuple(row[3])
            for arch in row[4].replace("`", "").split(", "):
                first = toolchain.ARCH_FIRST_CUDA[toolchain.arch_number(arch)]
                self.assertEqual(needed, max(first, toolchain.COURSE_MIN_CUDA), arch)


@unittest.skipUnless(shutil.which("nvcc") or Path("/usr/local/cuda/bin/nvcc").exists(),
                     "needs nvcc")
class ConfigureTime(unittest.TestCase):
    def test_meson_stops_with_the_message_when_gcc_is_too_new_for_nvcc(self):
        with tempfile.TemporaryDirectory() as folder:
            fake = Path(folder) / "bin"
            fake.mkdir()
            # A gcc and g++ on PATH (what nvcc uses) that say they are version 99 and make nvcc's
            # host_config.h see gcc 99; Meson's own C++ compiler stays the real one (CXX).
            for name in ("gcc", "g++"):
                real = shutil.which(name)
                script = fake / name
                script.write_text(
                    "#!/bin/sh\n"
                    'for a in "$@"; do case "$a" in\n'
                    f'  --version) echo "{name} (fake) 99.1.0"; exit 0;;\n'
                    "  -dumpversion|-dumpfullversion) echo 99.1.0; exit 0;;\n"
                    "esac; done\n"
                    f'exec {real} -U__GNUC__ -D__GNUC__=99 "$@"\n')
                script.chmod(0o755)
            env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}",
                       CXX=shutil.which("g++"), CC=shutil.which("gcc"))
            meson = shutil.which("meson")
            command = [meson] if meson else [sys.executable, "-m", "mesonbuild.mesonmain"]
            completed = subprocess.run(
                command + ["setup", str(Path(folder) / "build"),
                           str(ROOT / "chapters" / "05-reduction"), "-Dgpu_arch=sm_75"],
                capture_output=True, text=True, env=env, check=False)
        output = completed.stdout + completed.stderr
        self.assertNotEqual(completed.returncode, 0, output[-3000:])
        self.assertIn("and this is g++ 99", output, output[-3000:])
        self.assertIn("-Dcuda_ccbindir=", output)


if __name__ == "__main__":
    unittest.main()
