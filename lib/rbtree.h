/*
 * Red-black trees, intrusive: a struct rb_node is embedded in each element
 * and the caller does the ordered descent itself (it knows the key), then
 * links the new node with rb_link_node() and rebalances with
 * rb_insert_color().  Height stays below 2*log2(n+1), so every walk is
 * bounded.  No allocation, no locking: the owner of the tree provides both.
 */
#ifndef LIB_RBTREE_H
#define LIB_RBTREE_H

#include "kernel/compiler.h"

struct rb_node {
	struct rb_node	*rb_parent;
	struct rb_node	*rb_left;
	struct rb_node	*rb_right;
	bool		rb_red;
};

struct rb_root {
	struct rb_node	*rb_node;
};

#define RB_ROOT		((struct rb_root){ NULL })
#define rb_entry(p, type, member)	container_of(p, type, member)

static inline bool rb_empty(const struct rb_root *root) { return root->rb_node == NULL; }

/* Hang node at *link (a child slot of parent, or the root slot), red. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->rb_parent = parent;
	node->rb_left = node->rb_right = NULL;
	node->rb_red = true;
	*link = node;
}

/* Restore the red-black invariants after rb_link_node(). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
/* Unlink node from the tree and rebalance. */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order neighbours and ends; NULL past either end or on an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

#endif
