# The guides' examples: docs/guides/examples/*.c, one complete program per
# guide in docs/guides/. Each prints what it did and exits 0 only when its
# own checks pass.
#
#   make guides   build and run them (plain and under ASan+UBSan), and check
#                 that every code block a guide quotes is still, line for
#                 line, in the example it names. Part of `make test`
#                 (the part "guides") and so of `make check`.
#
# A guide quotes a region of its example as a fenced ```c block right after
# a marker line   <!-- snippet: examples/NAME.c REGION -->   and the example
# holds that region between two lines   /* [REGION] */   (the form
# Doxygen's \snippet also reads). Indentation is compared after removing
# each side's common leading blanks. README.md's short examples are
# regions of docs/guides/examples/quick_tour.c, checked the same way.
#
# Examples that include skiplist_rcu.h link liburcu (the memb flavor) and
# threads, as examples/rcu_*.c do.
GUIDE_DIR  := docs/guides/examples
GUIDE_SRC  := $(sort $(wildcard $(GUIDE_DIR)/*.c))
GUIDE_MD   := README.md $(sort $(wildcard docs/guides/*.md))
GUIDE_OUT  := $(BUILD)/guides
GUIDE_BINS := $(GUIDE_SRC:$(GUIDE_DIR)/%.c=$(GUIDE_OUT)/%)
GUIDE_ASAN := $(GUIDE_BINS:%=%-asan)
GUIDE_RCU  := $(patsubst $(GUIDE_DIR)/%.c,%,$(shell grep -l \
                '^\#include "skiplist_rcu.h"' $(GUIDE_SRC) /dev/null))

TEST_BUILD       += $(GUIDE_BINS) $(GUIDE_ASAN)
TEST_PARTS       += guides=guides-run
TEST_DEPS        += liburcu-dev

guide_libs = $(if $(filter $(1),$(GUIDE_RCU)),-pthread -lurcu -lurcu-common)

$(GUIDE_OUT)/%: $(GUIDE_DIR)/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(TEST_G) -o $@ $< -lm $(call guide_libs,$*)

# Under the sanitizers at $(TEST_SAN_OPT), as the suites' ASan builds
# (tests/tests.mk says why).
$(GUIDE_OUT)/%-asan: $(GUIDE_DIR)/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(SAN) $(TEST_SAN_OPT) $(TEST_SAN_QUICK) -o $@ $< -lm $(call guide_libs,$*)

# The snippet check (see the top of this file). One awk run over every
# guide; it names each quote that no longer matches, and fails.
define GUIDE_SNIPPET_AWK
function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; bad++ }
function dedent(a, n,    i, m, k, s) {
    m = -1
    for (i = 1; i <= n; i++) {
        if (a[i] ~ /^[ \t]*$$/) continue
        match(a[i], /^[ ]*/)
        if (m < 0 || RLENGTH < m) m = RLENGTH
    }
    for (i = 1; i <= n; i++) a[i] = m > 0 ? substr(a[i], m + 1) : a[i]
}
function region(path, name,    line, state, n, t) {
    state = 0; n = 0
    while ((getline line < path) > 0) {
        t = line; gsub(/^[ \t]+|[ \t]+$$/, "", t)
        if (t == "/* [" name "] */") { state++; if (state == 2) break; continue }
        if (state == 1) src[++n] = line
    }
    close(path)
    return state == 2 ? n : -1
}
function compare(    n, i, dir) {
    dir = FILENAME; sub(/[^\/]*$$/, "", dir)
    n = region(file ~ /^\// ? file : dir file, name)
    if (n < 0) { fail(file " has no region [" name "]"); return }
    dedent(src, n); dedent(quote, nq)
    if (n != nq) { fail("[" name "]: " nq " lines quoted, " n " in " file); return }
    for (i = 1; i <= n; i++)
        if (src[i] != quote[i]) {
            fail("[" name "] differs from " file " at: " src[i]); return
        }
    ok++
}
FNR == 1 { want = 0; inq = 0 }
/^<!-- snippet: [^ ]+ [^ ]+ -->$$/ { file = $$3; name = $$4; want = 1; next }
want && /^```c$$/ { want = 0; inq = 1; nq = 0; next }
want { fail("a snippet marker not followed by ```c"); want = 0 }
inq && /^```$$/ { inq = 0; compare(); next }
inq { quote[++nq] = $$0; next }
END {
    printf "guides: %d quoted snippets match their examples, %d do not\n", ok, bad
    exit bad > 0
}
endef

# Before the real check, the check is shown to work: a page quoting a
# region as it is must pass (the control); the same page with one call
# changed, and a page naming a region that does not exist, must fail.
GUIDE_SELFTEST := $(GUIDE_OUT)/snippet-selftest
guides-snippets: export GUIDE_SNIPPET_AWK := $(GUIDE_SNIPPET_AWK)
guides-snippets:
	@mkdir -p $(GUIDE_SELFTEST)
	@{ printf '<!-- snippet: %s pq -->\n```c\n' \
	      $(CURDIR)/$(GUIDE_DIR)/quick_tour.c; \
	   sed -n '/^\/\* \[pq\] \*\/$$/,/^\/\* \[pq\] \*\/$$/p' \
	      $(GUIDE_DIR)/quick_tour.c | sed '1d;$$d'; \
	   printf '```\n'; } > $(GUIDE_SELFTEST)/control.md
	@sed 's/timers_remove(/timers_pop(/' $(GUIDE_SELFTEST)/control.md \
	    > $(GUIDE_SELFTEST)/wrong-line.md
	@awk "$$GUIDE_SNIPPET_AWK" $(GUIDE_SELFTEST)/control.md >/dev/null || \
	    { echo "guides: the snippet check refused its control"; exit 1; }
	@printf '<!-- snippet: %s no-such-region -->\n```c\n```\n' \
	    $(CURDIR)/$(GUIDE_DIR)/quick_tour.c > $(GUIDE_SELFTEST)/no-region.md
	@for t in wrong-line no-region; do \
	    if awk "$$GUIDE_SNIPPET_AWK" $(GUIDE_SELFTEST)/$$t.md >/dev/null; then \
	        echo "guides: the snippet check accepted $$t.md"; exit 1; fi; \
	done
	@echo "ok: guides: snippet check self-test: the control passes, a" \
	    "changed line and a missing region are refused"
	@awk "$$GUIDE_SNIPPET_AWK" $(GUIDE_MD)
	@echo "ok: guides: every quoted snippet matches its example"

guides-run: guides-snippets $(GUIDE_BINS) $(GUIDE_ASAN)
	@for g in $(GUIDE_BINS:$(GUIDE_OUT)/%=%); do \
	    echo "==== guide example $$g"; \
	    $(GUIDE_OUT)/$$g || { echo "FAILED: $(GUIDE_OUT)/$$g"; exit 1; }; \
	    echo "ok: guide example $$g"; \
	    echo "==== guide example $$g under ASan+UBSan"; \
	    $(GUIDE_OUT)/$$g-asan >/dev/null || \
	        { echo "FAILED: $(GUIDE_OUT)/$$g-asan"; exit 1; }; \
	    echo "ok: guide example $$g under ASan+UBSan"; \
	done

guides: test-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(GUIDE_BINS) $(GUIDE_ASAN)
	@$(MAKE) --no-print-directory guides-run

.PHONY: guides guides-run guides-snippets
