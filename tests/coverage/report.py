#!/usr/bin/env python3
"""Per-face line and branch coverage of the headers (make coverage).

Reads what llvm-cov exported for the instrumented suites:
  --lcov FILE   `llvm-cov export -format=lcov`: the line counts (DA)
  --json FILE   `llvm-cov export -format=text`: the branch regions
and prints, per face, the lines and branches covered, then every line and
every branch side that no test reached, each with its face, the function
or macro it is in, and its source text.

Merging the instantiations. Every SKIPLIST_*_DEFINE in every test file
instantiates the same header lines again. A line's count is llvm-cov's own
merge (counts summed over every function that maps code to the line), so a
line counts as covered when any instantiation ran it. A branch is a
condition of the source (if, while, for, &&, ||, ?:) at a place in a header
(line and column span); its two sides are counted apart, each covered when
any instantiation took it.

Faces. A header line belongs to a face by where it is written, read from
the header itself, so that no line number is written down here:
  - inside a multi-line #define: by the macro's name (PQ/HOOK: priority
    queue, EXT/OVERLAP: extent index, MAP: ordered index, else shared);
  - else by the section it is in, the last "/* --- title --- */" marker
    above it (skiplist.h: a title naming the queue or extents belongs to
    that face, the others to the shared engine; skiplist_rcu.h: likewise
    for the ordered index and the extent index).
skiplist_sched.h is one face (the runqueue).

--explain FILE lists uncovered lines that are expected to stay so, each
with its reason (format in that file); lines so explained are reported
as explained, an uncovered line not in it as unexplained, and an entry that
matches no uncovered line as stale. --strict fails on either.
"""

import argparse
import json
import os
import re
import sys
from collections import OrderedDict, defaultdict

SKIPLIST = "skiplist.h"
SCHED = "skiplist_sched.h"
RCU = "skiplist_rcu.h"

# Rows of the table, in order, with the header each comes from.
FACES = OrderedDict(
    [
        ("engine", "skiplist.h shared engine"),
        ("ordered", "skiplist.h ordered index (SKIPLIST_DEFINE)"),
        ("pq", "skiplist.h priority queue (SKIPLIST_PQ_DEFINE)"),
        ("extent", "skiplist.h extent index (SKIPLIST_EXTENT_DEFINE)"),
        ("sched", "skiplist_sched.h runqueue"),
        ("rcu-shared", "skiplist_rcu.h shared"),
        ("rcu-map", "skiplist_rcu.h ordered index"),
        ("rcu-extent", "skiplist_rcu.h extent index"),
    ]
)

DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)")
# "/* --- title ---- */" and "/* ------- title */"
SECTION_RE = re.compile(r"^/\* -{3,} ?([A-Za-z][^*]*?) ?-* ?\*/\s*$")
# The banners: a dash line, "/* Title */", a dash line.
DASHES_RE = re.compile(r"^/\* -{10,} \*/\s*$")
BANNER_RE = re.compile(r"^/\* ([A-Z][^*]*?)\s*\*/\s*$")
# Where a definition starts (a line at column 0), the first lower-case
# identifier before a "(" is the function's name (for the listing only).
CALL_RE = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
NOT_NAMES = {"void", "sizeof", "if", "for", "while", "switch", "return", "defined"}


def func_name(line):
    if not line or line[0] in " \t#/*{}":
        return None
    for name in CALL_RE.findall(line):
        if name not in NOT_NAMES:
            return name
    return None


def macro_face(name, header):
    """The face of a line written inside the macro `name`."""
    n = name.upper()
    if header == SCHED:
        return "sched"
    if header == RCU:
        if "EXT" in n:
            return "rcu-extent"
        if "MAP" in n:
            return "rcu-map"
        return "rcu-shared"
    if "PQ" in n or "HOOK" in n:
        return "pq"
    if "EXT" in n or "OVERLAP" in n:
        return "extent"
    if "MAP" in n or n in ("SKIPLIST_DEFINE", "SKIPLIST_PROTOTYPE", "SKIPLIST_GENERATE"):
        return "ordered"
    return "engine"


def section_face(title, header):
    """The face of a line outside macros, from its section's title."""
    t = title.lower()
    if header == SCHED:
        return "sched"
    if header == RCU:
        if "extent" in t:
            return "rcu-extent"
        if "ordered index" in t:
            return "rcu-map"
        return "rcu-shared"
    if "queue" in t:
        return "pq"
    if "extent" in t:
        return "extent"
    return "engine"


class Header:
    """A header's lines with the face and the enclosing name of each."""

    def __init__(self, path):
        self.path = path
        self.base = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            self.text = f.read().split("\n")
        self.face = [None]  # 1-based
        self.where = [None]
        section = ""
        macro = None
        func = ""
        lines = self.text
        for i, line in enumerate(lines):
            if macro is None:
                m = DEFINE_RE.match(line)
                if m and line.rstrip().endswith("\\"):
                    macro = m.group(1)
                else:
                    s = SECTION_RE.match(line)
                    if s:
                        section = s.group(1).strip()
                    elif (
                        DASHES_RE.match(line)
                        and i + 2 < len(lines)
                        and BANNER_RE.match(lines[i + 1])
                        and DASHES_RE.match(lines[i + 2])
                    ):
                        section = BANNER_RE.match(lines[i + 1]).group(1)
                    f = func_name(line)
                    if f:
                        func = f
            if macro is not None:
                self.face.append(macro_face(macro, self.base))
                self.where.append("macro " + macro)
                if not line.rstrip().endswith("\\"):
                    macro = None
            else:
                self.face.append(section_face(section, self.base))
                self.where.append(func or ("section " + section))

    def src(self, line):
        """Line `line`'s text, whitespace collapsed, a macro's trailing
        backslash dropped (the form --explain entries quote)."""
        if not 0 < line <= len(self.text):
            return ""
        return " ".join(self.text[line - 1].rstrip().rstrip("\\").split())


def read_lcov(path, headers):
    """{header base: {line: count}} for the headers only."""
    out = defaultdict(dict)
    cur = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            if raw.startswith("SF:"):
                base = os.path.basename(raw[3:].strip())
                full = os.path.realpath(raw[3:].strip())
                cur = base if base in headers and full == headers[base].path else None
            elif raw.startswith("DA:") and cur:
                line, count = raw[3:].strip().split(",")[:2]
                ln = int(line)
                if int(count) >= 1 << 63:
                    sys.exit("coverage: %s:%s has a negative count (%s): counters "
                             "raced; build with -fprofile-update=atomic" %
                             (cur, line, count))
                out[cur][ln] = out[cur].get(ln, 0) + int(count)
    return out


def read_branches(path, headers):
    """{header base: {(l1, c1, l2, c2): [true taken, false taken]}}."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = defaultdict(dict)
    for export in data["data"]:
        for fc in export["files"]:
            full = os.path.realpath(fc["filename"])
            base = os.path.basename(full)
            if base not in headers or full != headers[base].path:
                continue
            for b in fc["branches"]:
                key = tuple(b[0:4])
                seen = out[base].setdefault(key, [False, False])
                seen[0] |= b[4] > 0
                seen[1] |= b[5] > 0
    return out


def read_explain(path):
    """Entries "header | where | reason | source text", one a line; '#'
    starts a comment. `where` (function or "macro NAME", as the report
    prints it) and the text identify the line, not its number, so that
    edits elsewhere in the header do not stale them; one entry covers
    every uncovered line of that text there (a function's "}" lines)."""
    entries = []
    if not path:
        return entries
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ", 3)]
            if len(parts) != 4:
                sys.exit("%s:%d: want 'header | where | reason | text'" % (path, n))
            entries.append({"header": parts[0], "where": parts[1],
                            "reason": parts[2], "text": " ".join(parts[3].split()),
                            "used": 0, "at": "%s:%d" % (path, n)})
    return entries


def pct(a, b):
    return "%6.2f%%" % (100.0 * a / b) if b else "    n/a"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lcov", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--root", default=".")
    ap.add_argument("--explain")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="the table as markdown")
    ap.add_argument("--template", action="store_true",
                    help="print the unexplained lines as --explain entries")
    args = ap.parse_args()

    headers = {}
    for name in (SKIPLIST, SCHED, RCU):
        p = os.path.realpath(os.path.join(args.root, name))
        headers[name] = Header(p)
    lines = read_lcov(args.lcov, headers)
    branches = read_branches(args.json, headers)
    explain = read_explain(args.explain)

    lin = defaultdict(lambda: [0, 0])  # face: [covered, total]
    br = defaultdict(lambda: [0, 0])
    unc_lines = []
    unc_br = []
    for name, h in headers.items():
        if name not in lines:
            sys.exit("coverage: no line data for %s (was it built and run?)" % name)
        for ln, count in sorted(lines[name].items()):
            face = h.face[ln]
            lin[face][1] += 1
            if count > 0:
                lin[face][0] += 1
            else:
                unc_lines.append((name, ln, face))
        for key, seen in sorted(branches[name].items()):
            face = h.face[key[0]]
            br[face][1] += 2
            br[face][0] += seen[0] + seen[1]
            if not (seen[0] and seen[1]):
                side = "neither side" if not (seen[0] or seen[1]) else (
                    "never true" if not seen[0] else "never false")
                unc_br.append((name, key, face, side))

    # The table.
    rows = list(FACES.items())
    total_l = [sum(lin[f][0] for f, _ in rows), sum(lin[f][1] for f, _ in rows)]
    total_b = [sum(br[f][0] for f, _ in rows), sum(br[f][1] for f, _ in rows)]
    if args.markdown:
        print("| face | lines | line % | branch sides | branch % |")
        print("|---|---:|---:|---:|---:|")
        for f, label in rows + [("all", "all three headers")]:
            l_ = total_l if f == "all" else lin[f]
            b_ = total_b if f == "all" else br[f]
            print("| %s | %d/%d | %s | %d/%d | %s |" % (label, l_[0], l_[1], pct(*l_).strip(),
                                                     b_[0], b_[1], pct(*b_).strip()))
    else:
        print("%-52s %13s %8s %13s %8s" % ("face", "lines", "", "branches", ""))
        for f, label in rows + [("all", "all three headers")]:
            l_ = total_l if f == "all" else lin[f]
            b_ = total_b if f == "all" else br[f]
            print("%-52s %6d/%-6d %s %6d/%-6d %s" % (label, l_[0], l_[1], pct(*l_),
                                                    b_[0], b_[1], pct(*b_)))

    # Uncovered lines, with their explanation when there is one.
    unexplained = 0
    print("\nuncovered lines (header:line face, where: source):")
    for name, ln, face in unc_lines:
        h = headers[name]
        where = h.where[ln]
        text = h.src(ln)
        why = None
        for e in explain:
            if e["header"] == name and e["where"] == where and e["text"] == text:
                e["used"] += 1
                why = e["reason"]
                break
        if why is None:
            unexplained += 1
        print("  %s:%d %s, %s: %s%s" % (name, ln, face, where, text,
                                       "\n      explained: " + why if why else "  [UNEXPLAINED]"))
    print("\nbranch sides never taken (header:line:col face, where: side):")
    for name, key, face, side in unc_br:
        h = headers[name]
        print("  %s:%d:%d %s, %s: %s: %s" % (name, key[0], key[1], face, h.where[key[0]],
                                            side, h.src(key[0])))
    if args.template:
        seen = set()
        for name, ln, face in unc_lines:
            h = headers[name]
            key = (name, h.where[ln], h.src(ln))
            if key in seen or any(e["header"] == name and e["where"] == key[1] and
                                  e["text"] == key[2] for e in explain):
                continue
            seen.add(key)
            print("%s | %s | TODO | %s" % key)
        return 0
    stale = [e for e in explain if not e["used"]]
    for e in stale:
        print("stale explanation (matches no uncovered line): %s" % e["at"])
    print("\nuncovered lines: %d, explained %d, unexplained %d; stale explanations %d; "
          "branch sides never taken: %d" % (len(unc_lines), len(unc_lines) - unexplained,
                                             unexplained, len(stale),
                                             sum(1 if s != "neither side" else 2
                                                 for _, _, _, s in unc_br)))
    if args.strict and unexplained:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
