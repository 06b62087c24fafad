"""Prints one closing line, `N passed, N failed`, over cargo test's and lit's results.

Usage: summarize_tests.py CARGO_OUTPUT LIT_JSON. Exits non-zero if anything failed or
if either runner executed no test. lit tests reported UNSUPPORTED (code only some CPUs
run, e.g. `REQUIRES: amx`) are neither: they are listed by name on the line before.
"""
import json
import re
import sys


def cargo_counts(path):
    passed = failed = 0
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = re.search(r"test result: \w+\. (\d+) passed; (\d+) failed", line)
            if match:
                passed += int(match.group(1))
                failed += int(match.group(2))
    return passed, failed


def lit_counts(path):
    """(passed, failed, names of unsupported tests)."""
    with open(path, encoding="utf-8") as results:
        tests = json.load(results)["tests"]
    passed = sum(1 for t in tests if t["code"] in ("PASS", "XFAIL"))
    unsupported = [t["name"] for t in tests if t["code"] == "UNSUPPORTED"]
    return passed, len(tests) - passed - len(unsupported), unsupported


def main():
    cargo_passed, cargo_failed = cargo_counts(sys.argv[1])
    lit_passed, lit_failed, unsupported = lit_counts(sys.argv[2])
    print(f"cargo test: {cargo_passed} passed, {cargo_failed} failed; "
          f"lit: {lit_passed} passed, {lit_failed} failed, {len(unsupported)} unsupported on this CPU"
          + (f" ({', '.join(unsupported)})" if unsupported else ""))
    print(f"{cargo_passed + lit_passed} passed, {cargo_failed + lit_failed} failed")
    if cargo_failed or lit_failed or cargo_passed == 0 or lit_passed == 0:
        sys.exit(1)


main()
