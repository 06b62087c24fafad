"""Finding and running glow's command-line tools and the C compiler."""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
from typing import Sequence

from ._errors import GlowError

# The repository root when the package runs from a checkout (pip install -e python/).
_CHECKOUT = pathlib.Path(__file__).resolve().parents[2]


def tool(name: str) -> str:
    """The path of glow tool `name`: $GLOW_BIN_DIR, then PATH, then the newer of a
    checkout's target/release and target/debug builds."""
    directory = os.environ.get("GLOW_BIN_DIR")
    if directory:
        candidate = pathlib.Path(directory) / name
        if candidate.exists():
            return str(candidate)
        raise GlowError(f"{name} is not in GLOW_BIN_DIR ({directory})")
    found = shutil.which(name)
    if found:
        return found
    builds = [_CHECKOUT / "target" / profile / name for profile in ("release", "debug")]
    builds = [b for b in builds if b.exists()]
    if builds:
        return str(max(builds, key=lambda b: b.stat().st_mtime))
    raise GlowError(
        f"{name} not found: build glow (cargo build --release) and put target/release on "
        "PATH, or set GLOW_BIN_DIR"
    )


def run(command: Sequence[str]) -> str:
    """Runs a glow tool; its one-line error becomes a GlowError with the same text."""
    result = subprocess.run(list(command), capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        message = lines[-1] if lines else f"exit status {result.returncode}"
        program = pathlib.Path(command[0]).name
        raise GlowError(message if message.startswith(program) else f"{program}: {message}")
    return result.stdout


def link_shared(object_file: pathlib.Path, library: pathlib.Path,
                libraries: Sequence[str] = ("m",), library_dirs: Sequence[str] = ()) -> None:
    """Links a bundle's position-independent object into a shared library, with the
    libraries its manifest names (libm; LLVM's OpenMP runtime for threaded bundles,
    found at run time through an rpath)."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") \
        or shutil.which("clang")
    if compiler is None:
        raise GlowError("no C compiler (cc) to link the bundle into a shared library; set CC")
    # -Bsymbolic: the bundle's own calls bind inside it, whatever else the process loaded.
    flags = [f"-L{d}" for d in library_dirs] + [f"-Wl,-rpath,{d}" for d in library_dirs]
    flags += [f"-l{name}" for name in libraries]
    run([compiler, "-shared", "-Wl,-Bsymbolic", "-o", str(library), str(object_file), *flags])
