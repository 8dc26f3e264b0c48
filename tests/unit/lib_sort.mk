UNIT_TESTS += lib_sort
lib_sort_SRCS := tests/unit/test_sort.c lib/sort.c
