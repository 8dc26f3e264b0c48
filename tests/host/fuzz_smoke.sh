#!/usr/bin/env bash
# A short run of each partition-parser fuzz target (tests/fuzz/run) over
# the seed corpus, so a parser regression shows up in `make test`.
cd "$(dirname "$0")/../.." && exec tests/fuzz/run "${FUZZ_SMOKE_SECS:-3}"
