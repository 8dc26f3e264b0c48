# The format engine, built under other names so it does not replace libc's.
UNIT_TESTS += lib_vsprintf
lib_vsprintf_SRCS := tests/unit/test_vsprintf.c lib/vsprintf.c
lib_vsprintf_CFLAGS := -Dvsnprintf=k_vsnprintf -Dsnprintf=k_snprintf -Wno-format
