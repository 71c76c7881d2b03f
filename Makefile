# skiplist: header-only library. Nothing here builds a library; targets build
# and run the examples, the Criterion suites, the benchmarks and the docs.
#
#   make demo        build and run every example
#   make test        install missing deps, run every suite plain and under
#                    ASan+UBSan (ends with Criterion's summary line)
#   make bench-quick / bench / bench-report
#   make docs format format-check install clean expand

CC      ?= cc
CXX     ?= c++
PREFIX  ?= /usr/local
BUILD   := build

WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
            -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS_T := -std=c11 -O2 -g -I. $(WARN)
CXXWARN  := -Wall -Wextra -Wpedantic -Wshadow -Werror
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all

HEADERS  := skiplist.h skiplist_sched.h
TEST_DEPS := libcriterion-dev pkg-config clang
BENCH_DEPS := libbsd-dev libjudy-dev libabsl-dev libboost-dev libglib2.0-dev

.PHONY: all demo test deps test-deps bench bench-quick bench-report docs \
        format format-check install clean expand

all: examples

# ---------------------------------------------------------------- examples
EXAMPLE_SRC := $(sort $(wildcard examples/*.c))
EXAMPLES    := $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)

$(BUILD)/examples/%: examples/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -o $@ $< -lm

examples: $(EXAMPLES)

demo: $(EXAMPLES)
	@for e in $(EXAMPLES); do \
	    echo "==== $$e"; ./$$e || exit 1; echo; \
	done

# ------------------------------------------------------------------- tests
include tests/tests.mk

# ------------------------------------------------------------------- bench
-include bench/bench.mk

# -------------------------------------------------------------------- docs
docs:
	@tools/install-deps.sh doxygen graphviz
	doxygen docs/Doxyfile

# ------------------------------------------------------------------ layout
FORMAT_SRC = $(HEADERS) $(wildcard tests/*.c tests/*.h tests/*.cc \
             examples/*.c bench/*.c bench/*.h bench/*.cc)

format:
	clang-format -i $(FORMAT_SRC)

format-check:
	clang-format --dry-run --Werror $(FORMAT_SRC)

# One instantiation preprocessed and formatted, for reading what the macros
# generate: make expand
expand:
	@printf '#include "skiplist.h"\nstruct item { unsigned long key; };\n#define KEY(e) ((e)->key)\nSKIPLIST_DEFINE(imap, struct item, unsigned long, KEY, SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)\n' \
	  | $(CC) -E -P -I. -x c - | clang-format | sed -n '/^struct imap {/,$$p'

install:
	install -d $(DESTDIR)$(PREFIX)/include
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf $(BUILD) docs/html
