/* Host stand-ins for kernel/apic.h: see apic_fake.h. */
#include "tests/unit/fakes/apic_fake.h"
#include "kernel/apic.h"
#include "kernel/irqchip.h"
#include "kernel/errno.h"

bool host_ioapic_on;
int host_ioapic_pci_ret;
int host_ioapic_pci_last = -1;
int host_msi_next = 40;
int host_ioapic_gsi_ret;
int host_ioapic_gsi_last = -1;
bool host_ioapic_gsi_level_low;

bool ioapic_active(void)
{
	return host_ioapic_on;
}

int ioapic_isa_irq_pci(unsigned irq)
{
	host_ioapic_pci_last = (int)irq;
	return host_ioapic_pci_ret;
}

int msi_irq_alloc(u64 *addr, u32 *data)
{
	int irq = host_msi_next;

	if (irq < 0)
		return irq;
	host_msi_next++;
	msi_compose(0, (u8)(IRQ_VECTOR_BASE + irq), addr, data);
	return irq;
}

int ioapic_route_gsi(u32 gsi, bool level, bool active_low)
{
	host_ioapic_gsi_last = (int)gsi;
	host_ioapic_gsi_level_low = level && active_low;
	if (host_ioapic_gsi_ret < 0)
		return host_ioapic_gsi_ret;
	return (int)gsi + host_ioapic_gsi_ret;
}

struct host_msi_writer host_msi_writers[HOST_MSI_IRQS];

void msi_irq_set_writer(unsigned irq, msi_write_fn write, void *ctx, u32 cookie)
{
	if (irq >= HOST_MSI_IRQS)
		return;
	host_msi_writers[irq].write = write;
	host_msi_writers[irq].ctx = ctx;
	host_msi_writers[irq].cookie = cookie;
}

int host_msi_steer(unsigned irq, u8 dest)
{
	struct host_msi_writer *w = &host_msi_writers[irq];
	u64 addr;
	u32 data;

	if (irq >= HOST_MSI_IRQS || !w->write)
		return -EOPNOTSUPP;
	msi_compose(dest, (u8)(IRQ_VECTOR_BASE + irq), &addr, &data);
	return w->write(w->ctx, w->cookie, addr, data);
}
