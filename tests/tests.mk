# Criterion suites: every tests/*.c is linked into one binary (Criterion
# registers tests across translation units), built twice: plain and under
# ASan+UBSan. The plain run comes last so the output ends with its summary.
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_BIN  := $(BUILD)/tests/skiplist-tests
TEST_ASAN := $(BUILD)/tests/skiplist-tests-asan

test-deps:
	@tools/install-deps.sh $(TEST_DEPS)

$(TEST_BIN): $(TEST_SRC) $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -o $@ $(TEST_SRC) -lcriterion -lm

$(TEST_ASAN): $(TEST_SRC) $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(SAN) -o $@ $(TEST_SRC) -lcriterion -lm

test: test-deps
	$(MAKE) --no-print-directory $(TEST_BIN) $(TEST_ASAN)
	./$(TEST_ASAN)
	./$(TEST_BIN)
