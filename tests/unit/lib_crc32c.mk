UNIT_TESTS += lib_crc32c
lib_crc32c_SRCS := tests/unit/test_crc32c.c lib/crc32c.c
