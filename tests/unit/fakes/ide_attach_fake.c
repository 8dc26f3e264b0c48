/*
 * Host fake of the IDE core's attach/detach for tests of the PCI glue
 * alone (ide_pci.c): nothing is probed; the glue's decisions are read
 * from the softc by the test.  Also the initcall the glue registers,
 * which needs pci_register_driver() to link.
 */
#include "drivers/ide/idevar.h"
#include "drivers/pci/pci.h"
#include "kernel/errno.h"

int ide_attach(struct ide_softc *sc) { return 0; }
void ide_detach(struct ide_softc *sc) { }
int pci_register_driver(const struct pci_driver *drv) { return -ENODEV; }
