#!/usr/bin/env bash
# The kernel core's self-tests, through -kernel on pc and the ISO on q35.
. "$(dirname "$0")/lib.bash"

boot selftest-kernel --timeout 120 --cmdline 'selftest=kernel/*'
relay_tap
expect_rc "selftest/kernel/verdict" 0

boot selftest-kernel-iso --iso --machine q35 --timeout 120 --cmdline 'selftest=kernel/*'
expect_rc "selftest/kernel/iso-q35" 0
expect_out "selftest/kernel/iso-q35-summary" '^selftest: [1-9][0-9]* passed, 0 failed'
