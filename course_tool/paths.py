"""Where things are: the repository, the build folder, and paths as the learner types them."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Read through this module (paths.BUILD), never copied: tests point it at a temporary folder.
BUILD = Path(os.environ.get("COURSE_BUILD", ROOT / "build"))


def rel(path):
    """The path as the learner would type it from the repository root."""
    path = Path(path)
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path
