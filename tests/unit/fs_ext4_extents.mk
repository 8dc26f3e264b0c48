UNIT_TESTS += fs_ext4_extents
fs_ext4_extents_SRCS := tests/unit/test_fs_ext4_extents.c fs/ext2/extents_node.c
