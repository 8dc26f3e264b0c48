UNIT_TESTS += fs_htree_hash
fs_htree_hash_SRCS := tests/unit/test_htree_hash.c fs/ext2/htree_hash.c lib/crc32c.c
