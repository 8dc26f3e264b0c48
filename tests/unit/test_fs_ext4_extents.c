/*
 * Host tests for one extent-tree node (fs/ext2/extents_node.c): the
 * header and entry checks rule by rule (magic, depth, eh_max against
 * the capacity, entry count, sorted and disjoint keys inside the
 * parent's range, empty extents, high halves of block numbers), the
 * search that picks the covering entry, insertion and removal in order,
 * moving a tail to a new node and where a full node splits (an append
 * moves one entry), and which neighbouring extents merge (same state,
 * contiguous logically and on disk, within the 32768 / 32767 limits).
 */
#include "tests/unit/unit.h"
#include "fs/ext2/extents.h"
#include "kernel/errno.h"

static union {
	struct ext4_extent_header	h;
	u8				b[1024];
} node, other;

static struct ext4_extent_header *leaf(u32 n)
{
	u32 i;

	memset(&node, 0, sizeof(node));
	ext4_node_init(&node.h, ext4_node_capacity(1024), 0);
	for (i = 0; i < n; i++) {
		struct ext4_extent e;

		ext4_ext_set(&e, i * 100, 10, 5000 + i * 10, false);
		ext4_node_insert(&node.h, i, &e);
	}
	return &node.h;
}

static struct ext4_extent_header *index_node(u32 n)
{
	u32 i;

	memset(&node, 0, sizeof(node));
	ext4_node_init(&node.h, ext4_node_capacity(1024), 1);
	for (i = 0; i < n; i++) {
		struct ext4_extent_idx x = { .ei_block = cpu_to_le32(i * 1000),
					     .ei_leaf_lo = cpu_to_le32(700 + i) };

		ext4_node_insert(&node.h, i, &x);
	}
	return &node.h;
}

static int chk(struct ext4_extent_header *h, u32 depth, u32 lo, u32 hi)
{
	const char *why;

	return ext4_node_check(h, ext4_node_capacity(1024), depth, lo, hi, &why);
}

static void test_capacity(void)
{
	CHECK_EQ(ext4_node_capacity(1024), 84);
	CHECK_EQ(ext4_node_capacity(4096), 340);
	leaf(0);
	CHECK_EQ(ext4_node_tail_offset(&node.h), 1020);
	node.h.eh_max = cpu_to_le16(340);
	CHECK_EQ(ext4_node_tail_offset(&node.h), 4092);
}

static void test_check_good(void)
{
	const char *why = "x";

	CHECK_EQ(ext4_node_check(leaf(5), 84, 0, 0, EXT4_EXT_MAX_LBLK, &why), 0);
	CHECK(why == NULL);
	CHECK_EQ(chk(leaf(0), 0, 0, 10), 0);
	CHECK_EQ(chk(leaf(84), 0, 0, EXT4_EXT_MAX_LBLK), 0);
	CHECK_EQ(chk(index_node(3), 1, 0, 3000), 0);
}

static void test_check_header(void)
{
	const char *why;

	leaf(2);
	node.h.eh_magic = cpu_to_le16(0xF30B);
	CHECK_EQ(ext4_node_check(&node.h, 84, 0, 0, 1000, &why), -EUCLEAN);
	CHECK_STR(why, "bad magic");
	CHECK_EQ(chk(leaf(2), 1, 0, 1000), -EUCLEAN);		/* parent says depth 1 */
	leaf(2);
	node.h.eh_max = cpu_to_le16(85);			/* more than the block holds */
	CHECK_EQ(chk(&node.h, 0, 0, 1000), -EUCLEAN);
	leaf(2);
	node.h.eh_max = cpu_to_le16(1);
	CHECK_EQ(chk(&node.h, 0, 0, 1000), -EUCLEAN);		/* fewer than two: could not split */
	leaf(3);
	node.h.eh_max = cpu_to_le16(3);
	CHECK_EQ(chk(&node.h, 0, 0, 1000), 0);
	node.h.eh_entries = cpu_to_le16(4);
	CHECK_EQ(chk(&node.h, 0, 0, 1000), -EUCLEAN);		/* entries > eh_max */
	/* the root in i_block: capacity 4 */
	leaf(4);
	node.h.eh_max = cpu_to_le16(4);
	CHECK_EQ(ext4_node_check(&node.h, EXT4_EXT_ROOT_MAX, 0, 0, 1000, &why), 0);
	node.h.eh_max = cpu_to_le16(5);
	CHECK_EQ(ext4_node_check(&node.h, EXT4_EXT_ROOT_MAX, 0, 0, 1000, &why), -EUCLEAN);
}

static void test_check_extents(void)
{
	struct ext4_extent *e;
	const char *why;

	e = ext4_ext_first(leaf(3));
	ext4_ext_set(&e[1], 5, 10, 6000, false);		/* [5, 15) overlaps [0, 10) */
	CHECK_EQ(ext4_node_check(&node.h, 84, 0, 0, 1000, &why), -EUCLEAN);
	CHECK_STR(why, "extents overlap, unsorted or out of range");
	e = ext4_ext_first(leaf(3));
	ext4_ext_set(&e[1], 250, 10, 6000, false);		/* after e[2] */
	CHECK_EQ(chk(&node.h, 0, 0, 1000), -EUCLEAN);
	e = ext4_ext_first(leaf(3));
	ext4_ext_set(&e[1], 10, 90, 6000, false);		/* touching is fine */
	CHECK_EQ(chk(&node.h, 0, 0, 1000), 0);
	CHECK_EQ(chk(leaf(3), 0, 1, 1000), -EUCLEAN);		/* first key below the parent's */
	CHECK_EQ(chk(leaf(3), 0, 0, 205), -EUCLEAN);		/* last extent runs past the range */
	CHECK_EQ(chk(leaf(3), 0, 0, 210), 0);
	e = ext4_ext_first(leaf(3));
	e[2].ee_start_hi = cpu_to_le16(1);
	CHECK_EQ(ext4_node_check(&node.h, 84, 0, 0, 1000, &why), -EUCLEAN);
	CHECK_STR(why, "extent block beyond 2^32");
	e = ext4_ext_first(leaf(3));
	e[0].ee_len = 0;
	CHECK_EQ(ext4_node_check(&node.h, 84, 0, 0, 1000, &why), -EUCLEAN);
	CHECK_STR(why, "empty extent");
	e = ext4_ext_first(leaf(1));
	e[0].ee_len = cpu_to_le16(EXT4_EXT_INIT_MAX_LEN);	/* 32768 blocks, initialized */
	e[0].ee_block = cpu_to_le32(EXT4_EXT_MAX_LBLK - 32768);
	CHECK_EQ(chk(&node.h, 0, 0, EXT4_EXT_MAX_LBLK), 0);
	e[0].ee_block = cpu_to_le32(EXT4_EXT_MAX_LBLK - 32767);
	CHECK_EQ(chk(&node.h, 0, 0, EXT4_EXT_MAX_LBLK), -EUCLEAN);	/* past 2^32 - 1 */
}

static void test_check_index(void)
{
	struct ext4_extent_idx *x;
	const char *why;

	x = ext4_idx_first(index_node(3));
	x[1].ei_block = x[0].ei_block;				/* equal keys */
	CHECK_EQ(chk(&node.h, 1, 0, 5000), -EUCLEAN);
	x = ext4_idx_first(index_node(3));
	x[2].ei_leaf_hi = cpu_to_le16(1);
	CHECK_EQ(ext4_node_check(&node.h, 84, 1, 0, 5000, &why), -EUCLEAN);
	CHECK_STR(why, "index block beyond 2^32");
	CHECK_EQ(chk(index_node(3), 1, 0, 2000), -EUCLEAN);	/* key 2000 not below hi */
	CHECK_EQ(chk(index_node(3), 2, 0, 5000), -EUCLEAN);	/* depth */
}

static void test_search(void)
{
	leaf(3);						/* keys 0, 100, 200 */
	CHECK_EQ(ext4_node_search(&node.h, 0), 1);
	CHECK_EQ(ext4_node_search(&node.h, 99), 1);
	CHECK_EQ(ext4_node_search(&node.h, 100), 2);
	CHECK_EQ(ext4_node_search(&node.h, 5000), 3);
	leaf(0);
	CHECK_EQ(ext4_node_search(&node.h, 7), 0);
	index_node(3);
	node.h.eh_entries = cpu_to_le16(3);
	ext4_idx_first(&node.h)[0].ei_block = cpu_to_le32(10);
	CHECK_EQ(ext4_node_search(&node.h, 5), 0);		/* before every key */
}

static void test_insert_remove(void)
{
	struct ext4_extent e, *ex;

	leaf(3);
	ext4_ext_set(&e, 50, 5, 9000, true);
	ext4_node_insert(&node.h, ext4_node_search(&node.h, 50), &e);
	CHECK_EQ(ext4_entries(&node.h), 4);
	ex = ext4_ext_first(&node.h);
	CHECK_EQ(ext4_ext_lblk(&ex[1]), 50);
	CHECK(ext4_ext_uninit(&ex[1]));
	CHECK_EQ(ext4_ext_len(&ex[1]), 5);
	CHECK_EQ(le16_to_cpu(ex[1].ee_len), 32773);
	CHECK_EQ(ext4_ext_lblk(&ex[2]), 100);
	CHECK_EQ(chk(&node.h, 0, 0, 1000), 0);
	ext4_node_remove(&node.h, 0);
	CHECK_EQ(ext4_entries(&node.h), 3);
	CHECK_EQ(ext4_entry_key(&node.h, 0), 50);
	CHECK_EQ(ext4_entry_key(&node.h, 2), 200);
	CHECK_EQ(ext4_entry_key(&node.h, 3), 0);		/* cleared */
}

static void test_split(void)
{
	u32 at;

	leaf(84);
	/* an append moves only the last entry */
	at = ext4_node_split_point(&node.h, 84);
	CHECK_EQ(at, 83);
	memset(&other, 0, sizeof(other));
	ext4_node_init(&other.h, 84, 0);
	ext4_node_move_tail(&node.h, at, &other.h);
	CHECK_EQ(ext4_entries(&node.h), 83);
	CHECK_EQ(ext4_entries(&other.h), 1);
	CHECK_EQ(ext4_entry_key(&other.h, 0), 8300);
	CHECK_EQ(chk(&node.h, 0, 0, 8300), 0);
	CHECK_EQ(chk(&other.h, 0, 8300, EXT4_EXT_MAX_LBLK), 0);
	/* in the middle: half */
	leaf(84);
	at = ext4_node_split_point(&node.h, 10);
	CHECK_EQ(at, 42);
	memset(&other, 0, sizeof(other));
	ext4_node_init(&other.h, 84, 0);
	ext4_node_move_tail(&node.h, at, &other.h);
	CHECK_EQ(ext4_entries(&node.h), 42);
	CHECK_EQ(ext4_entries(&other.h), 42);
	CHECK_EQ(ext4_entry_key(&other.h, 0), 4200);
	CHECK_EQ(chk(&other.h, 0, 4200, EXT4_EXT_MAX_LBLK), 0);
	/* the smallest node that may split */
	leaf(3);
	CHECK_EQ(ext4_node_split_point(&node.h, 0), 1);
}

static void test_merge(void)
{
	struct ext4_extent a, b;

	ext4_ext_set(&a, 10, 5, 100, false);
	ext4_ext_set(&b, 15, 3, 105, false);
	CHECK(ext4_ext_can_merge(&a, &b));
	CHECK(!ext4_ext_can_merge(&b, &a));
	ext4_ext_set(&b, 15, 3, 106, false);			/* not contiguous on disk */
	CHECK(!ext4_ext_can_merge(&a, &b));
	ext4_ext_set(&b, 16, 3, 105, false);			/* a logical gap */
	CHECK(!ext4_ext_can_merge(&a, &b));
	ext4_ext_set(&b, 15, 3, 105, true);			/* different states */
	CHECK(!ext4_ext_can_merge(&a, &b));
	ext4_ext_set(&a, 10, 5, 100, true);
	CHECK(ext4_ext_can_merge(&a, &b));
	ext4_ext_set(&a, 0, 32760, 100, false);
	ext4_ext_set(&b, 32760, 8, 32860, false);
	CHECK(ext4_ext_can_merge(&a, &b));			/* 32768: the initialized limit */
	ext4_ext_set(&a, 0, 32760, 100, true);
	ext4_ext_set(&b, 32760, 8, 32860, true);
	CHECK(!ext4_ext_can_merge(&a, &b));			/* 32767 for uninitialized */
}

static const struct unit_case cases[] = {
	{ "capacity", test_capacity },
	{ "check_good", test_check_good },
	{ "check_header", test_check_header },
	{ "check_extents", test_check_extents },
	{ "check_index", test_check_index },
	{ "search", test_search },
	{ "insert_remove", test_insert_remove },
	{ "split", test_split },
	{ "merge", test_merge },
};

UNIT_MAIN("fs_ext4_extents", cases)
