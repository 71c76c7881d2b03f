# docs/errors.md: every documented error path, its exact return value and
# the Criterion test behind each row. tests/errors/check_table.sh fails
# when a row names a test that no Test() defines, a row names no test, or
# a test of the bad-input suites (the bad_* suites of tests/test_*_bad.c,
# tests/rcu/test_rcu_bad.c) is missing from the table; --self-test first
# shows that each of those is caught. The suites themselves run with the
# others (the main Criterion binary and the skiplist_rcu.h binaries).
#   make test-errors-table
CHECK_PARTS += errors-table=test-errors-table

test-errors-table:
	@sh tests/errors/check_table.sh --self-test
	@echo "ok: errors table self-test"
	@sh tests/errors/check_table.sh
	@echo "ok: errors table"

.PHONY: test-errors-table
