UNIT_TESTS += idle_gov
idle_gov_SRCS := tests/unit/test_idle_gov.c kernel/idle_gov.c
