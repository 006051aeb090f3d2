#!/usr/bin/env python3
"""Compiles every ```cpp / ```c++ block of the given Markdown files (docs/api.md says how to mark them).

  check_snippets.py --cxx CXX --flags FILE [--have vulkan] [--have ffmpeg] --work DIR --root DIR doc.md|folder...

A block is a whole translation unit unless the line before its fence is a marker:
  <!-- snippet: body PRELUDE -->   statements: the body of a function whose parameters are PRELUDE's
                                   variables (tests/docs/snippet_prelude.hpp, VQM_SNIPPET_PRELUDE_<name>)
  <!-- snippet: skip (reason) -->  not C++ to compile (pseudocode); the reason is required
All blocks go into one translation unit (the headers are parsed once): each in a namespace of its own, its
#include lines hoisted to the top, `#line` pointing back at the Markdown. Compiled with -fsyntax-only; a
block that does not compile fails the test naming its file and line.
"""
import argparse
import os
import re
import subprocess
import sys
import time

FENCE = re.compile(r"^```(cpp|c\+\+)\s*$", re.IGNORECASE)
MARKER = re.compile(r"^<!--\s*snippet:\s*(.*?)\s*-->\s*$")
NEEDS = {
    "vulkan": re.compile(r"vqm::Vulkan|vulkan::|vqm/vulkan|VkDevice|gpu_picture"),
    "ffmpeg": re.compile(r"AVFrame|view_of|picture_of|ffmpeg|make_scaled_source|picture_scaler"),
}


class Block:
    def __init__(self, path, line, kind, arg, code):
        self.path, self.line, self.kind, self.arg, self.code = path, line, kind, arg, code
        self.end = line + code.count("\n")


def blocks_of(path, shown):
    out, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not FENCE.match(lines[i]):
            if lines[i].startswith("```"):  # another language: skip to its closing fence
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        start = i + 1  # 0-based index of the first code line
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        code = "\n".join(lines[start:j])
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        kind, arg = "program", ""
        m = MARKER.match(lines[k]) if k >= 0 else None
        if m:
            words = m.group(1).split(None, 1)
            kind, arg = words[0], (words[1] if len(words) > 1 else "")
        where = f"{shown}:{i + 1}"
        if kind == "skip" and not re.match(r"^\(.+\)$", arg):
            errors.append(f"{where}: 'snippet: skip' needs a reason in parentheses")
        elif kind == "body" and not re.match(r"^[a-z_]+$", arg):
            errors.append(f"{where}: 'snippet: body' needs a prelude name (tests/docs/snippet_prelude.hpp)")
        elif kind not in ("program", "body", "skip"):
            errors.append(f"{where}: unknown snippet kind '{kind}' (program, body PRELUDE, skip (reason))")
        out.append(Block(shown, start + 1, kind, arg, code))
        i = j + 1
    return out, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--flags", required=True, help="file: one compiler argument per line")
    ap.add_argument("--have", action="append", default=[], choices=sorted(NEEDS))
    ap.add_argument("--work", required=True)
    ap.add_argument("--root", required=True, help="paths are shown relative to this folder")
    ap.add_argument("docs", nargs="+")
    a = ap.parse_args()

    docs = []
    for d in a.docs:  # a folder: its *.md files
        docs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md")) if os.path.isdir(d) else [d]
    a.docs = docs
    blocks, errors = [], []
    for d in a.docs:
        b, e = blocks_of(d, os.path.relpath(d, a.root))
        blocks += b
        errors += e
    if errors:
        print("\n".join(errors))
        return 1

    head, body, compiled, skipped = [], [], [], []
    for n, b in enumerate(blocks):
        if b.kind == "skip":
            skipped.append(f"{b.path}:{b.line - 1}: skipped {b.arg}")
            continue
        missing = [c for c, rx in NEEDS.items() if rx.search(b.code) and c not in a.have]
        if b.kind == "body" and b.arg in NEEDS and b.arg not in a.have:
            missing.append(b.arg)
        if missing:
            skipped.append(f"{b.path}:{b.line - 1}: not compiled: this build lacks {', '.join(sorted(set(missing)))}")
            continue
        code_lines = b.code.split("\n")
        for off, l in enumerate(code_lines):
            if re.match(r"^\s*#\s*include\b", l):
                head.append(f'#line {b.line + off} "{b.path}"\n{l}')
                code_lines[off] = ""
        code = "\n".join(code_lines)
        if b.kind == "program":
            # Its main is not ::main here, so it has no implicit `return 0;`: -Wreturn-type is off for it.
            has_main = re.search(r"\bint\s+main\s*\(", code) is not None
            push = '#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored "-Wreturn-type"\n' if has_main else ""
            pop = "\n#pragma GCC diagnostic pop" if has_main else ""
            body.append(f'{push}namespace vqm_snippet_{n} {{\n#line {b.line} "{b.path}"\n{code}\n}}{pop}')
        else:
            body.append(f"namespace vqm_snippet_{n} {{\n[[maybe_unused]] void body(VQM_SNIPPET_PRELUDE_{b.arg}) {{ {{\n"
                        f'#line {b.line} "{b.path}"\n{code}\n}} }}\n}}')
        compiled.append(b)

    os.makedirs(a.work, exist_ok=True)
    tu = os.path.join(a.work, "doc_snippets.cpp")
    with open(tu, "w", encoding="utf-8") as f:
        f.write('#include "snippet_prelude.hpp"\n' + "\n".join(head) + "\n" + "\n".join(body) + "\n")
    flags = [l for l in open(a.flags, encoding="utf-8").read().split("\n") if l.strip() and l.strip() not in ("-I", "-D")]
    cmd = [a.cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
           "-I" + os.path.dirname(os.path.abspath(__file__))] + \
          [f"-DVQM_SNIPPET_HAVE_{c.upper()}=1" for c in a.have] + flags + [tu]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    took = time.monotonic() - t0
    for s in skipped:
        print(s)
    if r.returncode == 0:
        print(f"{len(compiled)} snippets of {len(a.docs)} files compile ({took:.1f} s)")
        return 0
    bad = []
    for b in compiled:
        rx = re.compile(re.escape(b.path) + r":(\d+)")
        if any(b.line <= int(m.group(1)) <= b.end for m in rx.finditer(r.stderr)):
            bad.append(f"{b.path}:{b.line - 1}: this ```cpp block does not compile")
    print("\n".join(bad) or f"the snippets do not compile ({tu})")
    print(r.stderr[-20000:])
    return 1


if __name__ == "__main__":
    sys.exit(main())
