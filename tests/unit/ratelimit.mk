UNIT_TESTS += ratelimit
ratelimit_SRCS := tests/unit/test_ratelimit.c kernel/ratelimit.c
