"""Finds the CUDA toolkit's programs (nvcc, compute-sanitizer, ncu, cuobjdump, nvdisasm) for the
course's scripts and for ./course, in one order for all of them:

  1. PATH: what the learner chose comes first;
  2. $CUDA_HOME/bin, then $CUDA_PATH/bin: where an installer or a module system says the
     toolkit is;
  3. /usr/local/cuda/bin (NVIDIA's installers), /opt/cuda/bin (Arch Linux and others);
  4. for ncu alone, /opt/nvidia/nsight-compute (Nsight Compute installed on its own); for
     nvidia-smi alone, /usr/lib/wsl/lib (WSL2).
"""
import os
import shutil
from pathlib import Path

TOOLKIT_FOLDERS = ("/usr/local/cuda/bin", "/opt/cuda/bin")
# Programs that live outside the toolkit: Nsight Compute installed on its own; the driver's
# nvidia-smi, which WSL2 keeps in /usr/lib/wsl/lib.
WSL_DRIVER_FOLDER = "/usr/lib/wsl/lib"
OWN_FOLDERS = {"ncu": ("/opt/nvidia/nsight-compute",), "nvidia-smi": (WSL_DRIVER_FOLDER,)}


def folders(name):
    """Where to look for NAME after PATH, in order."""
    from_environment = [str(Path(os.environ[variable]) / "bin")
                        for variable in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(variable)]
    return from_environment + list(TOOLKIT_FOLDERS) + list(OWN_FOLDERS.get(name, ()))


def find(name):
    """The path of the CUDA program NAME (e.g. "compute-sanitizer"), or None."""
    found = shutil.which(name)
    if found:
        return found
    for folder in folders(name):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None
