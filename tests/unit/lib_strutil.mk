UNIT_TESTS += lib_strutil
lib_strutil_SRCS := tests/unit/test_strutil.c lib/strutil.c lib/errstr.c
