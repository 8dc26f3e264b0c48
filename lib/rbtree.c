/*
 * Red-black trees (lib/rbtree.h): the classic algorithm of Guibas and
 * Sedgewick as presented in Cormen et al., "Introduction to Algorithms",
 * chapter 13, with NULL leaves instead of a sentinel, so the deletion
 * fix-up carries the parent of the (possibly NULL) node it repairs.
 *
 * Invariants: the root is black; a red node has black children; every
 * path from a node down to a leaf crosses the same number of black nodes.
 * Users: the deadline elevator's sector-sorted trees (block/), and any
 * ordered index that must not degrade on adversarial insert order.
 */
#include "lib/rbtree.h"

static bool is_red(const struct rb_node *n) { return n && n->rb_red; }

/* Make new take old's place under old's parent (or as the root). */
static void replace_child(struct rb_root *root, struct rb_node *old, struct rb_node *new)
{
	struct rb_node *p = old->rb_parent;

	if (!p)
		root->rb_node = new;
	else if (p->rb_left == old)
		p->rb_left = new;
	else
		p->rb_right = new;
	if (new)
		new->rb_parent = p;
}

/* x's right child y becomes x's parent. */
static void rotate_left(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->rb_right;

	x->rb_right = y->rb_left;
	if (y->rb_left)
		y->rb_left->rb_parent = x;
	replace_child(root, x, y);
	y->rb_left = x;
	x->rb_parent = y;
}

/* x's left child y becomes x's parent. */
static void rotate_right(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->rb_left;

	x->rb_left = y->rb_right;
	if (y->rb_right)
		y->rb_right->rb_parent = x;
	replace_child(root, x, y);
	y->rb_right = x;
	x->rb_parent = y;
}

void rb_insert_color(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *p, *g, *u;

	while ((p = z->rb_parent) && p->rb_red) {
		g = p->rb_parent;	/* exists: a red node is never the root */
		if (p == g->rb_left) {
			u = g->rb_right;
			if (is_red(u)) {
				p->rb_red = u->rb_red = false;
				g->rb_red = true;
				z = g;
				continue;
			}
			if (z == p->rb_right) {
				rotate_left(root, p);
				z = p;
				p = z->rb_parent;
			}
			p->rb_red = false;
			g->rb_red = true;
			rotate_right(root, g);
		} else {
			u = g->rb_left;
			if (is_red(u)) {
				p->rb_red = u->rb_red = false;
				g->rb_red = true;
				z = g;
				continue;
			}
			if (z == p->rb_left) {
				rotate_right(root, p);
				z = p;
				p = z->rb_parent;
			}
			p->rb_red = false;
			g->rb_red = true;
			rotate_left(root, g);
		}
	}
	root->rb_node->rb_red = false;
}

/* Repair a missing black on x (maybe NULL), whose parent is p. */
static void erase_fixup(struct rb_root *root, struct rb_node *x, struct rb_node *p)
{
	struct rb_node *w;

	while (x != root->rb_node && !is_red(x)) {
		if (x == p->rb_left) {
			w = p->rb_right;	/* non-NULL: p's right side has black height >= 1 */
			if (w->rb_red) {
				w->rb_red = false;
				p->rb_red = true;
				rotate_left(root, p);
				w = p->rb_right;
			}
			if (!is_red(w->rb_left) && !is_red(w->rb_right)) {
				w->rb_red = true;
				x = p;
				p = x->rb_parent;
				continue;
			}
			if (!is_red(w->rb_right)) {
				w->rb_left->rb_red = false;
				w->rb_red = true;
				rotate_right(root, w);
				w = p->rb_right;
			}
			w->rb_red = p->rb_red;
			p->rb_red = false;
			w->rb_right->rb_red = false;
			rotate_left(root, p);
			x = root->rb_node;
			break;
		} else {
			w = p->rb_left;
			if (w->rb_red) {
				w->rb_red = false;
				p->rb_red = true;
				rotate_right(root, p);
				w = p->rb_left;
			}
			if (!is_red(w->rb_left) && !is_red(w->rb_right)) {
				w->rb_red = true;
				x = p;
				p = x->rb_parent;
				continue;
			}
			if (!is_red(w->rb_left)) {
				w->rb_right->rb_red = false;
				w->rb_red = true;
				rotate_left(root, w);
				w = p->rb_left;
			}
			w->rb_red = p->rb_red;
			p->rb_red = false;
			w->rb_left->rb_red = false;
			rotate_right(root, p);
			x = root->rb_node;
			break;
		}
	}
	if (x)
		x->rb_red = false;
}

void rb_erase(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *x, *xp, *y;
	bool removed_red;

	if (!z->rb_left || !z->rb_right) {
		x = z->rb_left ? z->rb_left : z->rb_right;
		xp = z->rb_parent;
		removed_red = z->rb_red;
		replace_child(root, z, x);
	} else {
		/* y, z's successor, has no left child; it takes z's place. */
		y = z->rb_right;
		while (y->rb_left)
			y = y->rb_left;
		removed_red = y->rb_red;
		x = y->rb_right;
		if (y->rb_parent == z) {
			xp = y;
		} else {
			xp = y->rb_parent;
			replace_child(root, y, x);
			y->rb_right = z->rb_right;
			y->rb_right->rb_parent = y;
		}
		replace_child(root, z, y);
		y->rb_left = z->rb_left;
		y->rb_left->rb_parent = y;
		y->rb_red = z->rb_red;
	}
	z->rb_parent = z->rb_left = z->rb_right = NULL;
	if (!removed_red)
		erase_fixup(root, x, xp);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_right)
		n = n->rb_right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->rb_right) {
		n = n->rb_right;
		while (n->rb_left)
			n = n->rb_left;
		return (struct rb_node *)n;
	}
	while ((p = n->rb_parent) && n == p->rb_right)
		n = p;
	return (struct rb_node *)p;
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->rb_left) {
		n = n->rb_left;
		while (n->rb_right)
			n = n->rb_right;
		return (struct rb_node *)n;
	}
	while ((p = n->rb_parent) && n == p->rb_left)
		n = p;
	return (struct rb_node *)p;
}
