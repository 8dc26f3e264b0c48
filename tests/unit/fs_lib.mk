UNIT_TESTS += fs_lib
fs_lib_SRCS := tests/unit/test_fs_lib.c lib/sha256.c fs/fillgen.c
