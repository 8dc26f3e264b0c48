UNIT_TESTS += lib_rbtree
lib_rbtree_SRCS := tests/unit/test_rbtree.c lib/rbtree.c
