UNIT_TESTS += lib_crc32
lib_crc32_SRCS := tests/unit/test_crc32.c lib/crc32.c
