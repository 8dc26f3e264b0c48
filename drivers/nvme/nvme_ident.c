/*
 * Identify data, parsed (NVMe 2.0 base 5.17.2; NVM command set 1.0,
 * 4.1.5): the text fields of Identify Controller, the logical block size
 * of a namespace and the controller's maximum transfer.  Portable.  The
 * data comes from the device: every index is checked before use.
 */
#include "drivers/nvme/nvme_lib.h"
#include "kernel/errno.h"
#include "lib/string.h"

void nvme_id_string(char *dst, size_t size, const char *src, size_t len)
{
	size_t n = len, i;

	if (!size)
		return;
	while (n > 0 && (src[n - 1] == ' ' || src[n - 1] == '\0'))
		n--;
	if (n > size - 1)
		n = size - 1;
	for (i = 0; i < n; i++) {
		char c = src[i];

		dst[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	dst[n] = '\0';
}

int nvme_ns_lba_shift(const struct nvme_id_ns *id)
{
	unsigned idx = NVME_NS_FLBAS_INDEX(id->flbas);
	const struct nvme_lbaf *f;

	if (!id->nsze || idx > id->nlbaf || idx >= ARRAY_SIZE(id->lbaf))
		return -EINVAL;
	f = &id->lbaf[idx];
	if (f->ms)
		return -EOPNOTSUPP;	/* metadata would ride in the data buffer */
	if (f->lbads != 9 && f->lbads != 12)
		return -EOPNOTSUPP;
	return f->lbads;
}

u32 nvme_mdts_bytes(u8 mdts, u32 mpsmin_bytes, u32 cap)
{
	u64 b;

	if (!mdts || mdts >= 32)
		return cap;
	b = (u64)mpsmin_bytes << mdts;
	return b < cap ? (u32)b : cap;
}
