# tests/README.md files every test source by face and operation;
# tools/check-tests-readme.sh fails when a tests/*.c, *.h, *.cc, *.mk or
# folder is not named there exactly once, or a name there does not exist
# (--self-test first shows that each of those is caught). Seconds, no
# build: part of make check and make check-quick.
#   make test-tests-readme
CHECK_PARTS += tests-readme=test-tests-readme

test-tests-readme:
	@sh tools/check-tests-readme.sh --self-test
	@sh tools/check-tests-readme.sh

.PHONY: test-tests-readme
