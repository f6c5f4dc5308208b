"""./course watch: re-test a chapter whenever one of its exercise files is saved."""
import time

from . import manifest, verdict
from .errors import CourseError
from .paths import ROOT, rel


def snapshot(folder):
    return {p: p.stat().st_mtime for p in folder.iterdir() if p.is_file()}


def test_once(spec):
    try:
        verdict.command_test(spec)
    except CourseError as error:  # a build error or no GPU: report it, keep watching
        print(error)


def command_watch(spec, interval=1.0, rounds=None):
    chapter, _ = manifest.resolve(spec)
    folder = ROOT / "exercises" / chapter.name
    print(f"Watching {rel(folder)} (Ctrl-C stops). Save a file to re-test.")
    seen = snapshot(folder)
    test_once(spec)
    count = 0
    try:
        while rounds is None or count < rounds:
            count += 1
            time.sleep(interval)  # polling: works on WSL2 and network file systems
            now = snapshot(folder)
            if now != seen:
                seen = now
                print(f"\n--- change seen at {time.strftime('%H:%M:%S')}")
                test_once(spec)
    except KeyboardInterrupt:
        print()
    return 0
