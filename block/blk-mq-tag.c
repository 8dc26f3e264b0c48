/*
 * The blk-mq tag allocator (contract in block/blk-mq-tag.h).
 *
 * Each range (reserved, normal) is a bitmap of 32-bit words.  Taking a
 * tag: starting at the hint word, find a word with a clear bit inside the
 * range and set that bit with a compare-and-swap; a lost race retries the
 * same word.  The hint moves to the word that gave a tag, and back to a
 * word when a tag in it is freed, so the common case (the map is not
 * nearly full) looks at one word.  Giving back is one atomic AND.
 *
 * The GCC __atomic builtins make this lock-free on the kernel (lock
 * cmpxchg) and on the host (where the tests run it under ASan/UBSan).
 */
#include "block/blk-mq-tag.h"
#include "block/blk-mq.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"

static int bm_init(struct blk_mq_bitmap *bm, u32 first, u32 nr)
{
	bm->bm_first = first;
	bm->bm_nr = nr;
	bm->bm_words = (nr + 31) / 32;
	bm->bm_hint = 0;
	bm->bm_map = NULL;
	if (!nr)
		return 0;
	bm->bm_map = kcalloc(bm->bm_words, sizeof(u32), GFP_KERNEL);
	return bm->bm_map ? 0 : -ENOMEM;
}

/* The bits of word w that name tags of the range. */
static u32 bm_word_mask(const struct blk_mq_bitmap *bm, u32 w)
{
	u32 left = bm->bm_nr - w * 32;

	return left >= 32 ? ~0u : (1u << left) - 1;
}

/* Claim a clear bit of word w; its index in the range, or -1 if w is full. */
static int bm_take_in_word(struct blk_mq_bitmap *bm, u32 w)
{
	u32 mask = bm_word_mask(bm, w);
	u32 old = __atomic_load_n(&bm->bm_map[w], __ATOMIC_RELAXED);
	u32 free, bit;

	for (;;) {
		free = ~old & mask;
		if (!free)
			return -1;
		bit = free & -free;
		if (__atomic_compare_exchange_n(&bm->bm_map[w], &old, old | bit, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return (int)(w * 32 + (u32)__builtin_ctz(bit));
	}
}

static int bm_get(struct blk_mq_bitmap *bm)
{
	u32 start, i, w;
	int idx;

	if (!bm->bm_nr)
		return BLK_MQ_NO_TAG;
	start = __atomic_load_n(&bm->bm_hint, __ATOMIC_RELAXED);
	if (start >= bm->bm_words)
		start = 0;
	for (i = 0; i < bm->bm_words; i++) {
		w = (start + i) % bm->bm_words;
		idx = bm_take_in_word(bm, w);
		if (idx >= 0) {
			if (w != start)
				__atomic_store_n(&bm->bm_hint, w, __ATOMIC_RELAXED);
			return (int)bm->bm_first + idx;
		}
	}
	return BLK_MQ_NO_TAG;
}

struct blk_mq_tags *blk_mq_init_tags(u32 depth, u32 reserved)
{
	struct blk_mq_tags *tags;

	if (!depth || depth > BLK_MQ_MAX_DEPTH || reserved >= depth)
		return NULL;
	tags = kzalloc(sizeof(*tags), GFP_KERNEL);
	if (!tags)
		return NULL;
	tags->nr_tags = depth;
	tags->nr_reserved = reserved;
	if (bm_init(&tags->reserved, 0, reserved) || bm_init(&tags->normal, reserved, depth - reserved))
		goto fail;
	tags->rqs = kcalloc(depth, sizeof(*tags->rqs), GFP_KERNEL);
	tags->static_rqs = kcalloc(depth, sizeof(*tags->static_rqs), GFP_KERNEL);
	if (!tags->rqs || !tags->static_rqs)
		goto fail;
	return tags;

fail:
	blk_mq_free_tags(tags);
	return NULL;
}

void blk_mq_free_tags(struct blk_mq_tags *tags)
{
	if (!tags)
		return;
	kfree(tags->reserved.bm_map);
	kfree(tags->normal.bm_map);
	kfree(tags->rqs);
	kfree(tags->static_rqs);
	kfree(tags);
}

int blk_mq_get_tag(struct blk_mq_tags *tags, bool reserved)
{
	int tag = bm_get(reserved ? &tags->reserved : &tags->normal);

	if (tag != BLK_MQ_NO_TAG)
		__atomic_add_fetch(&tags->busy, 1, __ATOMIC_RELAXED);
	return tag;
}

void blk_mq_put_tag(struct blk_mq_tags *tags, u32 tag)
{
	struct blk_mq_bitmap *bm = tag < tags->nr_reserved ? &tags->reserved : &tags->normal;
	u32 idx = tag - bm->bm_first, w = idx / 32, bit = 1u << (idx % 32);
	u32 old;

	KASSERT(tag < tags->nr_tags);
	old = __atomic_fetch_and(&bm->bm_map[w], ~bit, __ATOMIC_RELEASE);
	KASSERT(old & bit);
	__atomic_sub_fetch(&tags->busy, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&bm->bm_hint, w, __ATOMIC_RELAXED);
}

bool blk_mq_tag_busy(const struct blk_mq_tags *tags, u32 tag)
{
	const struct blk_mq_bitmap *bm = tag < tags->nr_reserved ? &tags->reserved : &tags->normal;
	u32 idx = tag - bm->bm_first;

	if (tag >= tags->nr_tags)
		return false;
	return (__atomic_load_n(&bm->bm_map[idx / 32], __ATOMIC_RELAXED) >> (idx % 32)) & 1;
}
