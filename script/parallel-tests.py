#!/usr/bin/env python3
"""Runs the built test bundle's XCTest classes in parallel, one process per class, on every core: what
`script/test` runs when it is given no arguments.

Why not `swift test --parallel`: it starts one process per test method, so every class-level set-up (a
shared render, a built package) runs again for each of its methods, and methods that share a lock (the
render cache of SwiftFileRenderTests) wait for each other in separate processes. Here a class keeps its
set-up and its methods run in order; the longest classes start first (times measured by the last run in
.build/test-times.tsv, else those of a CI run from a fresh clone in Tests/test-times.tsv, else half a second a
test; a class whose tests all skipped keeps its earlier time), so that the longest (the documented commands,
the consumer package in CI, the Swift-file renders: a minute or more each) run beside the rest.

Prints one line per finished class, the whole output of any class that failed or crashed, the ten
slowest classes, and XCTest's closing line with the totals ("Executed N tests, with F failures ...")
that `.ci/run` reads. Exits non-zero when a test failed, a process crashed or ran past its time, or fewer
tests ran than were listed. Environment: SMOKESCREEN_TEST_JOBS (processes at once; default: the cores),
SMOKESCREEN_TEST_BUNDLE (the .xctest; default: the release build's, which script/test makes),
SMOKESCREEN_TEST_CLASS_TIMEOUT (seconds a class may run before it is stopped and reported; default 1200).
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUNDLE = os.environ.get("SMOKESCREEN_TEST_BUNDLE") or os.path.join(ROOT, ".build", "release", "SmokescreenPackageTests.xctest")
COMMITTED_TIMES = os.path.join(ROOT, "Tests", "test-times.tsv")
MEASURED_TIMES = os.path.join(ROOT, ".build", "test-times.tsv")
CLASS_TIMEOUT = float(os.environ.get("SMOKESCREEN_TEST_CLASS_TIMEOUT") or 1200)
EXECUTED = re.compile(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?")


def list_tests():
    out = subprocess.run([BUNDLE, "--list-tests"], capture_output=True, text=True, check=True).stdout
    tests = []
    for line in out.splitlines():
        line = line.strip()
        if "/" in line and "." in line.split("/")[0]:
            tests.append(line)
    return tests


def read_times(path):
    times = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2:
                    try:
                        times[parts[0]] = float(parts[1])
                    except ValueError:
                        pass
    except OSError:
        pass
    return times


def plan(tests):
    """Jobs as (name, specifiers, estimated seconds), longest first: one a class."""
    classes = {}
    for t in tests:
        cls = t.split("/", 1)[0]
        classes.setdefault(cls, []).append(t)
    times = read_times(COMMITTED_TIMES)
    times.update(read_times(MEASURED_TIMES))
    work = [(cls, [cls], times.get(cls, 0.5 * len(methods))) for cls, methods in classes.items()]
    work.sort(key=lambda w: -w[2])
    return classes, work


def run(job, logdir):
    name, specifiers, _ = job
    log = os.path.join(logdir, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".log")
    start = time.monotonic()
    timed_out = False
    with open(log, "w") as f:
        process = subprocess.Popen([BUNDLE, ",".join(specifiers)], stdout=f, stderr=subprocess.STDOUT, cwd=ROOT)
        try:
            rc = process.wait(timeout=CLASS_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            rc = process.wait()
            timed_out = True
    elapsed = time.monotonic() - start
    with open(log, errors="replace") as f:
        text = f.read()
    if timed_out:
        text += f"\nparallel-tests: {name} ran past {CLASS_TIMEOUT:.0f} s (SMOKESCREEN_TEST_CLASS_TIMEOUT) and was stopped\n"
    found = EXECUTED.findall(text)
    # The last "Executed" line is the bundle's total for this process.
    executed, skipped, failures = (int(found[-1][0]), int(found[-1][1] or 0), int(found[-1][2])) if found else (0, 0, 0)
    return name, specifiers, rc, elapsed, executed, skipped, failures, text


def main():
    if not os.access(BUNDLE, os.X_OK):
        sys.exit(f"parallel-tests: {BUNDLE} is missing: build the tests first (swift build -c release --build-tests)")
    given = os.environ.get("SMOKESCREEN_TEST_JOBS") or ""
    if given and not (given.isdigit() and 1 <= int(given) <= 256):
        sys.exit(f"parallel-tests: SMOKESCREEN_TEST_JOBS must be a whole number 1…256, got {given!r}")
    jobs = int(given) if given else (os.cpu_count() or 1)
    tests = list_tests()
    classes, work = plan(tests)
    print(f"parallel-tests: {len(tests)} tests in {len(classes)} classes, {jobs} at once", flush=True)
    started = time.monotonic()
    executed = skipped = failures = 0
    bad = []
    per_class = {}
    # Times kept for the next run's order: not those of a class whose every test skipped (the consumer
    # package's test outside CI takes 0.1 s, and CI, where it builds a package for a minute, would start it last).
    measured_now = {}
    with tempfile.TemporaryDirectory(prefix="smokescreen-tests-") as logdir, ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run, job, logdir) for job in work]
        for future in as_completed(futures):
            name, specifiers, rc, elapsed, n, s, f, text = future.result()
            executed += n
            skipped += s
            failures += f
            per_class[name] = elapsed
            if s < n:
                measured_now[name] = elapsed
            ok = rc == 0 and f == 0 and n > 0
            skip_note = f", {s} skipped" if s else ""
            print(f"{'passed' if ok else 'FAILED'}  {name}: {n} tests, {f} failures{skip_note}, {elapsed:.1f} s", flush=True)
            if not ok:
                bad.append(name)
                print(text, flush=True)
                if rc != 0 and f == 0:
                    print(f"parallel-tests: {name} exited with status {rc} without a failed test (a crash?)", flush=True)
    wall = time.monotonic() - started
    os.makedirs(os.path.dirname(MEASURED_TIMES), exist_ok=True)
    measured = read_times(MEASURED_TIMES)
    measured.update(measured_now)
    with open(MEASURED_TIMES, "w") as f:
        for cls in sorted(measured):
            f.write(f"{cls}\t{measured[cls]:.2f}\n")
    print(f"parallel-tests: {wall:.1f} s; the ten slowest classes (seconds):")
    for cls, seconds in sorted(per_class.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {seconds:7.1f}  {cls}")
    missing = len(tests) - executed
    if missing > 0:
        print(f"parallel-tests: {missing} of the {len(tests)} listed tests did not run", flush=True)
    if bad:
        print("parallel-tests: failed: " + ", ".join(bad))
    # XCTest's own closing line, with the totals of every process (.ci/run reads it).
    print(f"Test Suite 'All tests' {'passed' if not bad and missing <= 0 else 'failed'}")
    skips = f"{skipped} test{'s' if skipped != 1 else ''} skipped and " if skipped else ""
    print(f"\t Executed {executed} tests, with {skips}{failures} failures (0 unexpected) in {wall:.3f} ({wall:.3f}) seconds")
    sys.exit(0 if not bad and missing <= 0 else 1)


if __name__ == "__main__":
    main()
