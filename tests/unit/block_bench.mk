UNIT_TESTS += block_bench
block_bench_SRCS := tests/unit/test_bench.c block/diag/bench_work.c lib/strutil.c
