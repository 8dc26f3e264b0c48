/*
 * Host tests for lib/rbtree.c: random inserts and erases against a sorted
 * array as oracle, with the red-black invariants checked after each step.
 */
#include "tests/unit/unit.h"
#include "lib/rbtree.h"

struct item {
	struct rb_node	it_node;
	u32		it_key;
	bool		it_in;
};

#define N 2000

static struct item items[N];
static struct rb_root root;

/* Black height of the subtree, or -1 when an invariant is broken. */
static int check_node(const struct rb_node *n, const struct rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->rb_parent != parent)
		return -1;
	if (n->rb_red && ((n->rb_left && n->rb_left->rb_red) ||
			  (n->rb_right && n->rb_right->rb_red)))
		return -1;
	l = check_node(n->rb_left, n);
	r = check_node(n->rb_right, n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !n->rb_red;
}

static void insert(struct item *it)
{
	struct rb_node **link = &root.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (it->it_key < rb_entry(parent, struct item, it_node)->it_key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->it_node, parent, link);
	rb_insert_color(&it->it_node, &root);
	it->it_in = true;
}

static u64 rnd_state = 88172645463325252ULL;
static u32 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (u32)rnd_state;
}

/* In-order walk must visit exactly the items present, in key order. */
static bool check_order(void)
{
	struct rb_node *n;
	u32 prev = 0, count = 0, want = 0;
	int i;

	for (i = 0; i < N; i++)
		want += items[i].it_in;
	for (n = rb_first(&root); n; n = rb_next(n)) {
		u32 k = rb_entry(n, struct item, it_node)->it_key;
		if (count && k < prev)
			return false;
		prev = k;
		count++;
	}
	if (count != want)
		return false;
	count = 0;
	for (n = rb_last(&root); n; n = rb_prev(n))
		count++;
	return count == want;
}

static void test_random_ops(void)
{
	int i, step;

	root = RB_ROOT;
	for (i = 0; i < N; i++) {
		items[i].it_key = rnd() % 500;	/* duplicates on purpose */
		items[i].it_in = false;
	}
	for (step = 0; step < 20000; step++) {
		struct item *it = &items[rnd() % N];

		if (it->it_in) {
			rb_erase(&it->it_node, &root);
			it->it_in = false;
		} else {
			insert(it);
		}
		if (step % 97 == 0) {
			CHECK(check_node(root.rb_node, NULL) > 0);
			CHECK(!root.rb_node || !root.rb_node->rb_red);
			CHECK(check_order());
		}
	}
	CHECK(check_order());
}

static void test_sorted_insert_depth(void)
{
	int i, h;

	root = RB_ROOT;
	for (i = 0; i < N; i++) {
		items[i].it_key = i;
		insert(&items[i]);
	}
	h = check_node(root.rb_node, NULL);
	CHECK(h > 0);
	CHECK(h <= 12);		/* black height ~ log2(2000) */
	CHECK_EQ(rb_entry(rb_first(&root), struct item, it_node)->it_key, 0);
	CHECK_EQ(rb_entry(rb_last(&root), struct item, it_node)->it_key, N - 1);
	for (i = 0; i < N; i++)
		rb_erase(&items[i].it_node, &root);
	CHECK(rb_empty(&root));
	CHECK(rb_first(&root) == NULL);
}

static const struct unit_case cases[] = {
	{ "rbtree/random_ops", test_random_ops },
	{ "rbtree/sorted_insert_depth", test_sorted_insert_depth },
};

UNIT_MAIN("lib_rbtree", cases)
