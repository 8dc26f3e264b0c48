UNIT_TESTS += block_partitions
block_partitions_SRCS := tests/unit/test_partitions.c block/partitions/check.c \
	block/partitions/msdos.c block/partitions/efi.c lib/crc32.c
