"""Writes TEMPLATE with HASH replaced by MODEL's graph hash (from glow-profile), and
with the lines matching each --drop pattern removed: write_profile.py MODEL TEMPLATE
OUT [--hash TEXT] [--drop TEXT]..."""
import argparse
import re
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("template")
parser.add_argument("out")
parser.add_argument("--hash")
parser.add_argument("--replace", nargs=2, action="append", default=[])
arguments = parser.parse_args()
instrumented = subprocess.run(["glow-opt", arguments.model, "--pass-pipeline=builtin.module(glow-profile)"],
                              check=True, capture_output=True, text=True).stdout
graph_hash = arguments.hash or re.search(r'glow.profile_hash = "([0-9a-f]+)"', instrumented).group(1)
text = open(arguments.template).read().replace("HASH", graph_hash)
for old, new in arguments.replace:
    text = text.replace(old, new)
open(arguments.out, "w").write(text)
