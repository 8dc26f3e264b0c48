/*
 * Intrusive circular doubly linked lists, in the shape Linux made familiar:
 * a struct list_head embedded in each element, the head a sentinel.
 * No allocation, no locking: the owner of the list provides both.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "kernel/compiler.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Insert n right after head (stack order). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

/* Insert n right before head, i.e. at the tail (queue order). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

/* Unlink e and leave it pointing at itself, so list_empty(e) holds. */
static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

static inline void list_del(struct list_head *e)
{
	list_del_init(e);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add_tail(e, head);
}

static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add(e, head);
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

/* Move every element of from to the tail of to; from becomes empty. */
static inline void list_splice_tail_init(struct list_head *from, struct list_head *to)
{
	if (list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	INIT_LIST_HEAD(from);
}

#define list_entry(p, type, member)	container_of(p, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_last_entry(h, type, member) list_entry((h)->prev, type, member)

#define list_for_each(p, h) \
	for (p = (h)->next; p != (h); p = p->next)

#define list_for_each_entry(e, h, member) \
	for (e = list_entry((h)->next, __typeof__(*e), member); \
	     &e->member != (h); \
	     e = list_entry(e->member.next, __typeof__(*e), member))

#define list_for_each_entry_reverse(e, h, member) \
	for (e = list_entry((h)->prev, __typeof__(*e), member); \
	     &e->member != (h); \
	     e = list_entry(e->member.prev, __typeof__(*e), member))

/* Safe against removal of the current element. */
#define list_for_each_entry_safe(e, t, h, member) \
	for (e = list_entry((h)->next, __typeof__(*e), member), \
	     t = list_entry(e->member.next, __typeof__(*e), member); \
	     &e->member != (h); \
	     e = t, t = list_entry(t->member.next, __typeof__(*t), member))

#endif
