UNIT_TESTS += fat_format
fat_format_SRCS := tests/unit/test_fat_format.c fs/fat/fat_bpb.c fs/fat/fat_name.c
