#!/bin/sh
# Checks that a sanitizer report fails its Criterion test (make
# test-san-selftest; make check runs it).
#
#   tests/selftest/san.sh BINARY   BINARY: san_report.c built with the
#                                  suites' sanitizer flags ($(SAN))
#
# Runs BINARY as tests.mk runs the ASan+UBSan suites (make passes their
# environment, TEST_ASAN_ENV) and requires the clean test to pass and both
# planted errors to fail theirs; then again with the sanitizers' exit code
# set to 0, which is what the suites' LSAN_OPTIONS=exitcode=0 did to ASan
# reports in the suites' binary: abort_on_error=1 must still fail them.
# Last, for the record (printed, not judged), the same without
# abort_on_error: Criterion 2.4.1 then counts both planted tests as
# passing.
set -u
bin=$1
fail=0

# run LABEL: runs the binary in the current environment and judges it.
run() {
    out=$("$bin" --color=never -j1 2>&1)
    status=$?
    for want in '\[FAIL\] san_selftest::overflow' \
        '\[FAIL\] san_selftest::ub_shift' \
        'Tested: 3 | Passing: 1 | Failing: 2'; do
        if ! printf '%s\n' "$out" | grep -q "$want"; then
            echo "san selftest ($1): FAILED: no \"$want\" in the output"
            fail=1
        fi
    done
    if [ "$status" -eq 0 ]; then
        echo "san selftest ($1): FAILED: exit 0 with two planted errors"
        fail=1
    fi
}

run "suites' environment"
ASAN_OPTIONS="${ASAN_OPTIONS:-}:exitcode=0" \
    UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:exitcode=0" \
    LSAN_OPTIONS="${LSAN_OPTIONS:-}:exitcode=0" run "exit code 0"
plain=$(ASAN_OPTIONS=exitcode=0 UBSAN_OPTIONS=exitcode=0 \
    "$bin" --color=never -j1 2>&1 | grep 'Synthesis')
echo "san selftest: exit code 0 without abort_on_error, Criterion says: $plain"
if [ "$fail" -eq 0 ]; then
    echo "ok: san selftest: both planted sanitizer errors fail their tests"
fi
exit "$fail"
