#!/usr/bin/env bash
# The power-cut simulator's checker on its own (tools/crashsim
# --selftest): the dm-log-writes parser on a good log and on malformed
# ones (bad magic, version, sector size, entry count past the end,
# truncated data, an oversized mark), the durability model (FLUSH and FUA
# points, what stays volatile, the durable image) and the rule that drops
# a promise once a later operation touched it.
cd "$(dirname "$0")/../.." || exit 1
python3 tools/crashsim --selftest
