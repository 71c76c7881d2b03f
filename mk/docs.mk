# The Doxygen site (docs/Doxyfile) and the checks that keep it honest.
#
#   make docs        the site: $(DOCS_OUT)/html/index.html (default
#                    docs/html). First installs doxygen and graphviz with
#                    tools/install-deps.sh when they are missing (it says
#                    what it installs; apt-get, through sudo when not root).
#   make docs-check  docs-sync, then the site built into
#                    $(BUILD)/docs-check with every Doxygen warning an
#                    error, then its indexes checked (tests/docs/indexes.sh):
#                    no engine-internal or example symbol, every function
#                    the macros generate listed, every SKIPLIST_* macro and
#                    macro argument documented, every page and image made.
#                    Part of `make check` (about 20 s on the 2-core VM).
#   make docs-sync   docs/reference/ against what the macros really
#                    generate (tests/docs/sync.sh, gcc). Part of docs-check.
#   make test-bench-headline
#                    README's headline table against the benchmark CSV
#                    its block names (bench/headline.sh --check): a hand
#                    edit of the table or a CSV changed since it was
#                    written fails; the check's self-test first shows
#                    that both are caught. Part of `make check` and of
#                    `make check-quick` (a second; awk only).
#
# Two people can build at once: make docs DOCS_OUT=build/me/docs.
DOCS_OUT   ?= docs
DOCS_DEPS  := doxygen graphviz
DOCS_CHECK := $(BUILD)/docs-check
DOCS_VERSION = $(shell sed -n 's/^\#define SKIPLIST_VERSION_STRING "\(.*\)"/\1/p' skiplist.h)

# Every complete example program gets a page of its own (\example; its
# symbols stay out of the indexes), listed here before each run: the
# guides' examples (docs/guides/examples/) and the repository's
# (examples/). The guides' links to them are rewritten to those pages by
# docs/reference/md-anchors.awk.
DOCS_EXAMPLES := $(BUILD)/docs-examples/examples.dox
docs_examples = mkdir -p $(dir $(DOCS_EXAMPLES)) && \
    for f in $(wildcard docs/guides/examples/*.c examples/*.c); do \
        printf '/** \\example %s\n * The complete program, %s. */\n' \
            "$${f\#\#*/}" "$$f"; \
    done >$(DOCS_EXAMPLES)

# $(1): output directory, $(2): WARN_AS_ERROR (NO, or FAIL_ON_WARNINGS:
# every warning printed, then a failing exit), $(3): YES to write the XML
# too (the index check reads it), $(4): warning log (empty: stderr).
docs_run = $(docs_examples) && \
           SKIPLIST_DOCS_EXAMPLES='$(DOCS_EXAMPLES)' \
           SKIPLIST_DOCS_OUT='$(1)' SKIPLIST_DOCS_WERROR='$(2)' \
           SKIPLIST_DOCS_XML='$(3)' SKIPLIST_DOCS_WARNLOG='$(4)' \
           SKIPLIST_DOCS_VERSION='$(DOCS_VERSION)' doxygen docs/Doxyfile

CHECK_DEPS       += $(DOCS_DEPS)
CHECK_PARTS      += docs=docs-check bench-headline=test-bench-headline

.PHONY: docs docs-deps docs-check docs-sync test-bench-headline

docs-deps:
	@tools/install-deps.sh $(DOCS_DEPS)

# Doxygen adds to an output directory and never deletes: start empty, so
# no page of an older build lingers.
docs: docs-deps
	@test -n '$(DOCS_OUT)' || { echo "docs: DOCS_OUT is empty" >&2; exit 1; }
	@rm -rf '$(DOCS_OUT)/html' && mkdir -p '$(DOCS_OUT)'
	$(call docs_run,$(DOCS_OUT),NO,NO,)
	@echo "docs: $(DOCS_OUT)/html/index.html"

# FAIL_ON_WARNINGS: Doxygen finishes the run, prints every warning and
# then exits non-zero, so one run shows them all.
docs-check: docs-deps docs-sync
	@rm -rf $(DOCS_CHECK) && mkdir -p $(DOCS_CHECK)
	@echo "==== docs: Doxygen, warnings as errors ($(DOCS_CHECK))"
	@$(call docs_run,$(DOCS_CHECK),FAIL_ON_WARNINGS,YES,) || \
	    { echo "docs-check: Doxygen warned (above)"; exit 1; }
	@echo "ok: Doxygen, no warning"
	@tests/docs/indexes.sh $(DOCS_CHECK) $(BUILD)/docs-sync
	@echo "ok: the site's indexes"

docs-sync:
	@echo "==== docs: docs/reference/ against the generated prototypes"
	@CC_AUX='$(HDR_GCC)' tests/docs/sync.sh $(BUILD)/docs-sync
	@echo "ok: docs/reference/ matches the generated prototypes"

test-bench-headline:
	@bench/headline.sh --self-test
	@echo "ok: bench headline check's self-test"
	@bench/headline.sh --check README.md
	@echo "ok: README's headline table is what its CSV gives"
