UNIT_TESTS += mm_buddy
mm_buddy_SRCS := tests/unit/test_buddy.c kernel/mm/page_alloc.c tests/unit/fakes/mm_linear_fake.c \
		 tests/unit/fakes/child_panic.c
