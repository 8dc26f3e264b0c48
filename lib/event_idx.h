/*
 * The event-index rule shared by virtio (1.1, 2.6.7.2: used_event and
 * avail_event) and NVMe's shadow doorbells (1.4, 7.13: EventIdx): a
 * producer moving a 16-bit index from old to new tells its consumer only
 * when the consumer asked to hear of an index in [old, new), all modulo
 * 2^16.  Portable: the kernel and the host tests share it.
 */
#ifndef LIB_EVENT_IDX_H
#define LIB_EVENT_IDX_H

#include "kernel/types.h"

/* True when the move from old_idx to new_idx passed event: notify. */
static inline bool event_idx_passed(u16 event, u16 new_idx, u16 old_idx)
{
	return (u16)(new_idx - event - 1) < (u16)(new_idx - old_idx);
}

#endif
