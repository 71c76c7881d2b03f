#!/usr/bin/env python3
"""Mutation testing: apply each deliberate bug of tests/mutants/mutants.txt
to a copy of the headers, run the suites against it, and record which test
caught it (docs/mutants.md, tests/mutants/results.tsv).

    make mutants                      # every mutant (mk/mutants.mk)
    make mutants MUTANTS=id1,id2      # a subset; the other rows are kept
    tests/mutants/run.py --build build --only id1,id2   # the same, directly
    tests/mutants/run.py --list       # the mutants, one line each

For each mutant the runner copies the build inputs (Makefile, the three
headers, the files git tracks in tests/ and tools/) into
BUILD/mutants/<id>/src, replaces the mutant's
original snippet in its header (it must occur exactly once: a snippet that
no longer matches stops the run, so a mutant never silently tests the
unmutated code), and builds and runs stages with that copy's own make, that
is, tests/tests.mk's rules. The tests include the headers with quoted
includes relative to the sources ("../skiplist_sched.h"), which is why the
whole tree is copied rather than an include directory put first.

Stages (the first that fails catches the mutant; later ones do not run):
  skiplist.h, skiplist_sched.h:
    face   the mutant's own suites (its `suites:` line, a subset of
           tests/*.c: GROUPS below; a test written for a mutant is
           filed in its face's group) in one Criterion binary, at -O1,
           fail-fast
    all    every tests/*.c (the compile-fail and planted suites too: they
           build against the copy), at -O1
    asan   every tests/*.c under ASan+UBSan (make test's flags)
  skiplist_rcu.h (order from the mutant's `stages:` line, default below):
    memb   build/tests/rcu/rcu-tests-memb (diff, stress, alloc suites)
    asan   rcu-tests-asan (the same under ASan+UBSan)
    tsan   rcu-stress-tsan under ThreadSanitizer (tests/rcu/tsan.supp)
A mutant that no stage catches is "survived"; with an `equivalent:` line
the table shows it as equivalent with that explanation. A stage that does
not build counts as caught only when the mutant says `compile: expected`
(a patch that should compile but does not is an error in the list).

Nothing here reads the mutation text when deciding: only exit statuses and
the suites' own failure reports.
"""

import argparse
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(ROOT, "tests", "mutants", "mutants.txt")
RESULTS = os.path.join(ROOT, "tests", "mutants", "results.tsv")
# per row: the commit the copy was taken from, and --skip-file's files
META = os.path.join(ROOT, "tests", "mutants", "results-meta.tsv")
TABLE = os.path.join(ROOT, "docs", "mutants.md")
HEADERS = ("skiplist.h", "skiplist_sched.h", "skiplist_rcu.h")

# Suites of the face stage, by group (tests/*.c names without .c).
GROUPS = {
    # test_map_keys: its one- and two-byte keys were written for the
    # memmove-middle-byte mutant (a test found by a mutant goes in the file
    # of its face, in that face's group)
    "map": ["test_map_random", "test_map_bad", "test_engine_index",
            "test_map_keys"],
    "extent": ["test_extent_unit", "test_extent_alloc", "test_extent_diff",
               "test_extent_ops", "test_extent_bad"],
    "pq": ["test_pq_unit", "test_pq_diff", "test_pq_bad"],
    "sched": ["test_sched_unit", "test_sched_random", "test_sched_rules",
              "test_sched_small", "test_sched_bad"],
    "findptr": ["test_engine_find_ptr_plain", "test_engine_find_ptr_simd",
                "test_engine_find_ptr_avx2"],
    # the bulk suites link tests/test_extent_ops.c's instantiations
    "bulk": ["test_bulk_diff", "test_bulk_extent", "test_bulk_alloc",
             "test_bulk_bad", "test_extent_ops"],
}

MAIN_STAGES = ["face", "all", "asan"]
RCU_STAGES = ["memb", "asan", "tsan"]
OPT = "-O1"
SKIP_FILES = set()  # --skip-file: suites left out of every copy
JOBS = 2  # --jobs: make -j for each build
TIMEOUT_BUILD = 1800
TIMEOUT_RUN = 900  # a whole binary; tests have their own .timeout too


def die(msg):
    sys.stderr.write("mutants: " + msg + "\n")
    sys.exit(2)


# ------------------------------------------------------------ the list


def parse_list(path):
    """Mutants in file order: dicts with id, file, what, suites, stages,
    equivalent, compile, orig, repl."""
    muts, cur, block = [], None, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        if line.startswith("=== "):
            cur = {"id": line[4:].strip(), "orig": [], "repl": [],
                   "suites": [], "stages": [], "equivalent": "",
                   "compile": "", "line": no}
            muts.append(cur)
            block = None
            continue
        if cur is None:
            if line.strip() and not line.startswith("#"):
                die("%s:%d: text before the first '=== id'" % (path, no))
            continue
        if line == "--- original":
            block = "orig"
            continue
        if line == "+++ mutant":
            block = "repl"
            continue
        if block:
            cur[block].append(line)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        m = re.match(r"^(\w+):\s*(.*)$", line)
        if not m:
            die("%s:%d: expected 'field: value'" % (path, no))
        k, v = m.group(1), m.group(2)
        if k in ("suites", "stages"):
            cur[k] = v.split()
        elif k in ("file", "what", "equivalent", "compile"):
            cur[k] = (cur.get(k, "") + " " + v).strip() if k == "equivalent" else v
        else:
            die("%s:%d: unknown field %s" % (path, no, k))
    seen = set()
    for m in muts:
        # blank lines and "# " comments (section titles) between mutants
        # belong to no snippet
        for k in ("orig", "repl"):
            while m[k] and (not m[k][-1].strip() or m[k][-1].startswith("# ")):
                m[k].pop()
            m[k] = "\n".join(m[k])
        if m["id"] in seen:
            die("duplicate mutant id " + m["id"])
        seen.add(m["id"])
        if not re.match(r"^[a-z0-9][a-z0-9-]*$", m["id"]):
            die("mutant id %r: use [a-z0-9-]" % m["id"])
        if m.get("file") not in HEADERS:
            die("mutant %s: file must be one of %s" % (m["id"], HEADERS))
        if not m["orig"] or m["orig"] == m["repl"]:
            die("mutant %s: empty or unchanged snippet" % m["id"])
        for g in m["suites"]:
            if g not in GROUPS:
                die("mutant %s: unknown suite group %s" % (m["id"], g))
        allowed = RCU_STAGES if m["file"] == "skiplist_rcu.h" else MAIN_STAGES
        for s in m["stages"]:
            if s not in allowed:
                die("mutant %s: unknown stage %s" % (m["id"], s))
        if not m.get("what"):
            die("mutant %s: no what: line" % m["id"])
    return muts


def locate(m):
    """The 1-based line of the snippet in the real header; fails unless it
    occurs exactly once."""
    with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
        text = f.read()
    n = text.count(m["orig"])
    if n != 1:
        die("mutant %s: the original snippet occurs %d times in %s (must be "
            "exactly once: update tests/mutants/mutants.txt)"
            % (m["id"], n, m["file"]))
    return text[: text.index(m["orig"])].count("\n") + 1, text


# ------------------------------------------------------------ one mutant


def tracked(*dirs):
    """Paths git tracks under dirs (relative to ROOT) that exist."""
    p = subprocess.run(["git", "ls-files", "-z", "--"] + list(dirs), cwd=ROOT,
                       stdout=subprocess.PIPE, check=True)
    return [f for f in p.stdout.decode().split("\0")
            if f and os.path.isfile(os.path.join(ROOT, f))]


def inputs():
    """What a copy holds: the Makefile, the headers and the files git
    tracks (as they are in the working tree: a file someone has only
    started writing does not join the suites)."""
    files = ["Makefile"] + list(HEADERS) + tracked("tests", "tools")
    return [f for f in files
            if not f.startswith(("tests/mutants/", "tests/fuzz/corpus/"))
            and f not in SKIP_FILES]


def inputs_digest(stage):
    """Names what a control vouches for: every input file, the flags and
    the stage."""
    h = hashlib.sha256(("%s %s %d\n" % (stage, OPT, len(SKIP_FILES))).encode())
    for rel in sorted(inputs()):
        h.update(rel.encode() + b"\0")
        with open(os.path.join(ROOT, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def prepare(m, scratch, text):
    src = os.path.join(scratch, "src")
    if os.path.isdir(scratch):
        shutil.rmtree(scratch)
    os.makedirs(src)
    for rel in inputs():
        dst = os.path.join(src, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), dst)
    # The copy's only mk file: the Criterion suites at OPT without debug
    # information, which builds faster (the recipes expand CFLAGS_T when
    # they run, so this applies to tests.mk's rules, and the
    # target-specific -mavx2 is kept).
    os.makedirs(os.path.join(src, "mk"))
    # Only for the plain builds (MUTANT_FLAGS=fast): the ASan build keeps
    # make test's flags (at -O1 gcc's -Wformat-truncation fires in a suite).
    with open(os.path.join(src, "mk", "mutant-opt.mk"), "w") as f:
        f.write("ifeq ($(MUTANT_FLAGS),fast)\n"
                "CFLAGS_T := $(filter-out -g,$(subst -O2,%s,$(CFLAGS_T)))\n"
                "endif\n" % OPT)
    mutated = text.replace(m["orig"], m["repl"], 1) if m["orig"] else text
    with open(os.path.join(src, m["file"]), "w", encoding="utf-8") as f:
        f.write(mutated)
    return src


def sh(cmd, cwd, log, timeout, env=None):
    """Runs cmd, appending its output to log; returns (status, output).
    Status 124 when it ran past timeout."""
    e = dict(os.environ)
    if env:
        e.update(env)
    with open(log, "a") as lf:
        lf.write("$ %s\n" % " ".join(cmd))
        lf.flush()
        try:
            p = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout,
                               start_new_session=True)
            out = p.stdout.decode("utf-8", "replace")
            rc = p.returncode
        except subprocess.TimeoutExpired as ex:
            out = (ex.stdout or b"").decode("utf-8", "replace")
            out += "\n[mutants] timed out after %d s\n" % timeout
            rc = 124
        lf.write(out)
        lf.write("[exit %d]\n" % rc)
    return rc, out


def first_failure(out):
    """The first failure a run reported: Criterion's [FAIL] line (with the
    kind of failure), a sanitizer report, a stress program's message."""
    for line in out.splitlines():
        m = re.match(r"^\[FAIL\] (\S+?)::(\S+?):? (.*)$", line)
        if m:
            why = m.group(3).strip()
            why = re.sub(r"\s*\(\d+\.\d+s\)$", "", why)
            kind = ""
            if "CRASH" in why:
                kind = " (crash)"
            elif "Timed out" in why:
                kind = " (timeout)"
            return "%s::%s%s" % (m.group(1), m.group(2), kind)
    for line in out.splitlines():
        m = re.search(r"(ThreadSanitizer|AddressSanitizer|LeakSanitizer): "
                      r"(data race|[\w-]+( on [\w-]+)?)", line)
        if m:
            return "%s: %s" % (m.group(1), m.group(2))
        m = re.search(r"runtime error: (.{0,60})", line)
        if m:
            return "UBSan: " + m.group(1)
    for line in out.splitlines():
        if "[mutants] timed out" in line:
            return "whole run timed out"
    for line in out.splitlines():
        if re.search(r"FAIL|mismatch|error|wrong", line, re.I):
            return line.strip()[:80]
    return "non-zero exit"


def make(src, log, targets, extra):
    cmd = ["make", "--no-print-directory", "-j%d" % JOBS, "BUILD=build"] + \
        extra + targets
    return sh(cmd, src, log, TIMEOUT_BUILD)


def run_stage(m, stage, src, log):
    """Returns (caught, how): caught True/False, or None for a build that
    failed without `compile: expected`."""
    criterion = ["--color=never", "-j2", "--fail-fast"]
    if m["file"] != "skiplist_rcu.h":
        if stage == "face":
            groups = m["suites"] or sorted(GROUPS)
            srcs = ["tests/%s.c" % s for g in groups for s in GROUPS[g]
                    if os.path.exists(os.path.join(src, "tests", s + ".c"))]
            extra = ["TEST_SRC=" + " ".join(sorted(set(srcs)))]
            target = "build/tests/skiplist-tests"
        elif stage == "all":
            extra, target = [], "build/tests/skiplist-tests"
        else:
            extra, target = [], "build/tests/skiplist-tests-asan"
        if stage != "asan":
            extra.append("MUTANT_FLAGS=fast")
        rc, out = make(src, log, [target], extra)
        if rc != 0:
            return (True, "build fails") if m["compile"] == "expected" else (None, "build fails")
        env = ASAN_ENV if stage == "asan" else None
        rc, out = sh([target] + criterion, src, log, TIMEOUT_RUN, env)
        return (rc != 0, first_failure(out) if rc else "")
    rcu = "build/tests/rcu/"
    target = {"memb": rcu + "rcu-tests-memb", "asan": rcu + "rcu-tests-asan",
              "tsan": rcu + "rcu-stress-tsan"}[stage]
    # The rcu rules are expanded when tests.mk is read, so the flags are
    # set on the command line (no -mavx2 to lose there).
    rc, out = make(src, log, [target], ["CFLAGS_T=-std=c11 %s -I. $(WARN)" % OPT])
    if rc != 0:
        return (True, "build fails") if m["compile"] == "expected" else (None, "build fails")
    if stage == "tsan":
        env = {"TSAN_OPTIONS": "halt_on_error=1 suppressions=%s"
               % os.path.join(src, "tests", "rcu", "tsan.supp")}
        rc, out = sh([target, "6"], src, log, TIMEOUT_RUN, env)
        if rc == 0:
            rc, out = sh([target, "2", "library"], src, log, TIMEOUT_RUN, env)
    else:
        env = ASAN_ENV if stage == "asan" else None
        rc, out = sh([target] + criterion, src, log, TIMEOUT_RUN, env)
    return (rc != 0, first_failure(out) if rc else "")


# As tests.mk's TEST_ASAN_ENV: a sanitizer report must abort the worker,
# or Criterion counts the test as passing (SAN_ENV in the Makefile).
ASAN_ENV = {"ASAN_OPTIONS": "abort_on_error=1:leak_check_at_exit=0",
            "UBSAN_OPTIONS": "abort_on_error=1:print_stacktrace=1",
            "LSAN_OPTIONS": "exitcode=0"}

CONTROLS = {}  # (family, stage) -> True once the unmutated copy passed


def control(build, f, stage):
    """The positive control, run the first time a stage catches a mutant
    of header f: the same stage on an unmutated copy must pass, or the
    failure under the mutant proves nothing (the face stage's suites are
    a subset of "all"'s, whose control stands for both). Stops the run
    when the control fails."""
    fam = "rcu" if f == "skiplist_rcu.h" else "main"
    st = "all" if stage == "face" else stage
    if (fam, st) in CONTROLS:
        return
    # a control already passed on exactly these inputs (an earlier run)
    stamp = os.path.join(build, "mutants", "control-%s-%s.ok" % (fam, st))
    digest = inputs_digest(st)
    if os.path.exists(stamp):
        with open(stamp) as fh:
            if fh.read().strip() == digest:
                CONTROLS[(fam, st)] = True
                return
    m = {"id": "control-" + fam, "file": f, "orig": "", "repl": "",
         "suites": [], "compile": ""}
    scratch = os.path.join(build, "mutants", "control-%s-%s" % (fam, st))
    with open(os.path.join(ROOT, f), encoding="utf-8") as fh:
        text = fh.read()
    t0 = time.time()
    src = prepare(m, scratch, text)
    log = os.path.join(scratch, "log.txt")
    print("  control: stage %s on the unmutated headers ..." % st, flush=True)
    caught, what = run_stage(m, st, src, log)
    if caught is not False:
        die("control FAILED: stage %s fails on the unmutated headers (%s; "
            "see %s): no mutant can be told apart until that is fixed "
            "(--skip-file leaves a suite that does not build out)"
            % (st, what or "build fails", log))
    shutil.rmtree(src, ignore_errors=True)
    print("  control: stage %s clean (%.0f s)" % (st, time.time() - t0),
          flush=True)
    CONTROLS[(fam, st)] = True
    with open(stamp, "w") as fh:
        fh.write(digest + "\n")


def run_mutant(m, build, text, line):
    scratch = os.path.join(build, "mutants", m["id"])
    t0 = time.time()
    src = prepare(m, scratch, text)
    log = os.path.join(scratch, "log.txt")
    stages = m["stages"] or (RCU_STAGES if m["file"] == "skiplist_rcu.h"
                             else MAIN_STAGES)
    status, how, secs = "survived", "", None
    for st in stages:
        print("  [%s] stage %s ..." % (m["id"], st), flush=True)
        caught, what = run_stage(m, st, src, log)
        if caught is None:
            status, how = "error", "%s: %s (see %s)" % (st, what, log)
            break
        if caught:
            secs = time.time() - t0  # the control's time is not the mutant's
            control(build, m["file"], st)
            status, how = "killed", "%s: %s" % (st, what)
            break
    if status == "survived":
        how = "survived " + ", ".join(stages)
        if m["equivalent"]:
            status = "equivalent"
    if secs is None:
        secs = time.time() - t0
    if status == "killed":
        # keep the log, drop the copy and its objects (tens of MB each)
        shutil.rmtree(src, ignore_errors=True)
    return {"id": m["id"], "file": m["file"], "line": str(line),
            "status": status, "how": how, "secs": "%.0f" % secs}


# ------------------------------------------------------------ the table


def tree_rev():
    """HEAD's short hash, with "+" when a tracked input differs from it
    (the copy then holds changes not yet committed)."""
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         stdout=subprocess.PIPE).stdout.decode().strip()
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "Makefile",
                            "tests", "tools", ":(exclude)tests/mutants"] +
                           list(HEADERS), cwd=ROOT).returncode
    return rev + ("+" if dirty else "")


def load_meta():
    meta = {}
    if os.path.exists(META):
        with open(META, encoding="utf-8") as f:
            for row in f.read().splitlines()[1:]:
                c = row.split("\t")
                if len(c) == 3:
                    meta[c[0]] = {"rev": c[1], "skipped": c[2]}
    return meta


def save_meta(muts, meta):
    with open(META, "w", encoding="utf-8") as f:
        f.write("id\trev\tskipped\n")
        for m in muts:
            r = meta.get(m["id"])
            if r:
                f.write("%s\t%s\t%s\n" % (m["id"], r["rev"], r["skipped"]))


def load_results():
    res = {}
    if os.path.exists(RESULTS):
        with open(RESULTS, encoding="utf-8") as f:
            for row in f.read().splitlines()[1:]:
                c = row.split("\t")
                if len(c) == 6:
                    res[c[0]] = dict(zip(("id", "file", "line", "status",
                                          "how", "secs"), c))
    return res


def save_results(muts, res):
    with open(RESULTS, "w", encoding="utf-8") as f:
        f.write("id\tfile\tline\tstatus\thow\tsecs\n")
        for m in muts:
            r = res.get(m["id"])
            if r:
                f.write("\t".join(r[k] for k in ("id", "file", "line",
                                                 "status", "how", "secs")))
                f.write("\n")


def md(s):
    return s.replace("|", "\\|")


def write_table(muts, res):
    meta = load_meta()
    counts = {}
    total = 0
    for m in muts:
        r = res.get(m["id"])
        st = r["status"] if r else "not run"
        counts[st] = counts.get(st, 0) + 1
        total += int(r["secs"]) if r else 0
    by_file = {}
    for m in muts:
        by_file[m["file"]] = by_file.get(m["file"], 0) + 1
    with open(TABLE, "w", encoding="utf-8") as f:
        f.write(INTRO)
        f.write("\n## Results\n\n")
        f.write("%d mutants (%s): %s. Seconds add up to %d (%.0f min) on the "
                "machine that wrote this table.\n\n"
                % (len(muts),
                   ", ".join("%d in %s" % (n, h) for h, n in sorted(by_file.items())),
                   ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())),
                   total, total / 60.0))
        f.write("Tree: the commit the mutant's copy was taken from (+: with "
                "changes not yet committed")
        if any(m["id"] in res and m["id"] not in meta for m in muts):
            f.write("; blank: run before the runner recorded it")
        f.write(").\n\n")
        f.write("| mutant | file:line | what it breaks | caught by (stage: "
                "first failure) | s | tree |\n|---|---|---|---|---:|---|\n")
        for m in muts:
            r = res.get(m["id"])
            if not r:
                how, loc, secs = "not run yet", m["file"], ""
            else:
                loc, secs = "%s:%s" % (r["file"], r["line"]), r["secs"]
                if r["status"] == "killed":
                    how = "`%s`" % r["how"]
                elif r["status"] == "equivalent":
                    # (rows from before survivors recorded their stages
                    # ran every stage)
                    how = "**equivalent** (%s): %s" % (
                        r["how"] or "survived " + ", ".join(
                            RCU_STAGES if m["file"] == "skiplist_rcu.h"
                            else MAIN_STAGES), m["equivalent"])
                elif r["status"] == "survived":
                    how = "**SURVIVED** (%s)" % r["how"]
                else:
                    how = "**error**: " + r["how"]
            mt = meta.get(m["id"], {"rev": "", "skipped": ""})
            if r and mt["skipped"]:
                how += " (without %s)" % mt["skipped"]
            f.write("| `%s` | %s | %s | %s | %s | %s |\n"
                    % (m["id"], loc, md(m["what"]), md(how), secs, mt["rev"]))


INTRO = """# Mutation testing

<!-- Written by tests/mutants/run.py (make mutants): edit the runner or
     tests/mutants/mutants.txt, not this file. -->

The suites are only evidence if they fail when the code is wrong. This
table is that evidence, kept and rerunnable: each row is a deliberate bug
(a *mutant*) applied to a copy of one header, and the test that caught
it. The mutants live in `tests/mutants/mutants.txt`, each as the exact
original snippet and its replacement (so a mutant keeps applying when
unrelated lines move, and the runner stops if a snippet stops matching
exactly once).

## Running it

    make mutants                     # every mutant, then this table
    make mutants MUTANTS=id1,id2     # only those; the other rows stay
    tests/mutants/run.py --list      # the mutants, one line each

To add a mutant, append a block to `tests/mutants/mutants.txt` (the format
is at its top: id, header, one line on what it breaks, the face suites to
try first, the exact original lines and their replacement) and run it
with `MUTANTS=<id>`. A full run took about an hour on the shared 2-core
machine (two runs at `--jobs 1` side by side).

Each mutant is built and run in `$(BUILD)/mutants/<id>/`: a copy of the
Makefile, the headers and the files git tracks in `tests/` and `tools/`,
built with that copy's own `make`, so `tests/tests.mk`'s rules are the
ones used (the suites at -O1 without -g, which builds faster). The whole
tree is copied, not an include directory put first, because the suites
include headers relative to themselves (`"../skiplist_sched.h"`). The log
stays in `$(BUILD)/mutants/<id>/log.txt`; the copy is deleted once the
mutant is caught. The stages, in order, stop at the first that fails:

* `skiplist.h` and `skiplist_sched.h`: **face**, the suites of the faces
  the mutant touches (its `suites:` line: the files of `GROUPS` in
  `tests/mutants/run.py`) in one Criterion binary with `--fail-fast`;
  **all**, every `tests/*.c`
  (the compile-fail and planted suites included, built against the
  mutated copy); **asan**, every suite under ASan+UBSan (with `make
  test`'s flags; the plain stages build at -O1 without -g).
* `skiplist_rcu.h`: **memb**, `rcu-tests-memb` (the single-thread diff,
  stress and allocation-failure suites); **asan**, the same under
  ASan+UBSan; **tsan**, `rcu-stress-tsan` under ThreadSanitizer. A mutant
  may list its own order (`stages:`), e.g. TSan first for a missing
  release store, which only TSan can see.

A mutant's `stages:` line may also name fewer stages; the table then says
which stages an equivalent mutant survived.

The first time a stage catches a mutant, the runner runs that stage on
an unmutated copy (the positive control; `all` stands for `face`): it
must pass, or a failure under a mutant would prove nothing, and the run
stops. A control that passed is remembered (`$(BUILD)/mutants/
control-*.ok`, a digest of every input file) until an input changes.
`--skip-file tests/...` leaves out of every copy a suite that does not
build at the moment (the table then says which, under Results).

A mutant no stage catches either gets a new test that catches it (filed
with its face, in a file of that face's group, with a comment naming the
mutant; for `skiplist_rcu.h` the `tests/rcu/test_rcu_mut_*.c` suites:
they pass on the real headers and check behaviour, never the mutation's text), or is
shown here as **equivalent** with the reason it cannot change behaviour.
`make mutants` fails while any mutant survives unexplained. So far one
mutant needed a new test: for `memmove-middle-byte` no suite we found
shifted three one-byte keys at once (the only shift that copies a middle
byte; the full suite was not run against it without the new test), so
the suite `mut_small_keys` (in `tests/test_map_keys.c`, of the `map`
group) was written for it (it passes on the real
header and fails under the mutant).

Times are wall-clock seconds per mutant (copy, build, run) on a shared
2-core machine: mostly compile time, so they say little about the tests.
"""


# ------------------------------------------------------------ main


def main():
    ap = argparse.ArgumentParser(description="mutation testing")
    ap.add_argument("--build", default="build",
                    help="build directory (mutants go in BUILD/mutants)")
    ap.add_argument("--only", default="",
                    help="comma-separated ids (default: all)")
    ap.add_argument("--list", action="store_true",
                    help="print the mutants and exit")
    ap.add_argument("--table-only", action="store_true",
                    help="rewrite docs/mutants.md from results.tsv")
    ap.add_argument("--jobs", type=int, default=2,
                    help="parallel compile jobs per build (default 2)")
    ap.add_argument("--skip-file", action="append", default=[],
                    help="leave this tracked file out of the copies (a "
                    "suite that does not build at the moment)")
    a = ap.parse_args()
    muts = parse_list(LIST)
    locs = {}
    for m in muts:
        locs[m["id"]] = locate(m)
    if a.list:
        for m in muts:
            print("%-32s %s:%d  %s" % (m["id"], m["file"], locs[m["id"]][0],
                                       m["what"]))
        return 0
    res = load_results()
    # rows of mutants no longer in the list go
    res = {k: v for k, v in res.items() if k in locs}
    if a.table_only:
        write_table(muts, res)
        return 0
    only = [s for s in a.only.replace(" ", ",").split(",") if s]
    for s in only:
        if s not in locs:
            die("no mutant " + s)
    todo = [m for m in muts if not only or m["id"] in only]
    build = os.path.abspath(os.path.join(ROOT, a.build))
    SKIP_FILES.update(a.skip_file)
    global JOBS
    JOBS = max(1, a.jobs)
    t0 = time.time()
    for n, m in enumerate(todo, 1):
        # the header as it is now, so that it and the suites copied beside
        # it are of one moment (others may commit while a run goes on)
        line, text = locate(m)
        print("mutant %d/%d %s (%s:%d): %s" % (n, len(todo), m["id"],
                                               m["file"], line, m["what"]),
              flush=True)
        rev = tree_rev()
        r = run_mutant(m, build, text, line)
        print("  -> %s %s (%s s)" % (r["status"], r["how"], r["secs"]),
              flush=True)
        # Two runs may share the table (say, one per header at -j1): merge
        # this row into what is on disk under a lock.
        os.makedirs(os.path.join(build, "mutants"), exist_ok=True)
        with open(os.path.join(build, "mutants", "results.lock"), "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            res = {k: v for k, v in load_results().items() if k in locs}
            res[m["id"]] = r
            save_results(muts, res)
            meta = load_meta()
            meta[m["id"]] = {"rev": rev, "skipped": ",".join(
                os.path.basename(f) for f in sorted(SKIP_FILES))}
            save_meta(muts, meta)
            write_table(muts, res)
    bad = [m["id"] for m in todo if res[m["id"]]["status"] in
           ("survived", "error")]
    print("mutants: %d run in %.0f s; %s" % (
        len(todo), time.time() - t0,
        "every one caught or explained" if not bad else
        "NOT caught or in error: " + ", ".join(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
