/*
 * libFuzzer target: USB descriptor parsing, drivers/usb/usb_desc.c.  The
 * input is what a device could return for GET_DESCRIPTOR(CONFIGURATION)
 * (and, from its first 18 bytes, DEVICE); the parsed endpoints must lie
 * inside the tables and point into the device they belong to.
 */
#include "drivers/usb/usb_desc.h"
#include "lib/string.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct usb_device dev;
	unsigned i, j;

	memset(&dev, 0, sizeof(dev));
	usb_parse_device_desc(&dev, data, size);
	if (usb_parse_config(&dev, data, size) != 0)
		return 0;
	if (dev.ud_nintf > USB_MAX_INTERFACES)
		abort();
	for (i = 0; i < dev.ud_nintf; i++) {
		const struct usb_interface *intf = &dev.ud_intf[i];

		if (intf->intf_nep > USB_MAX_ENDPOINTS || intf->intf_dev != &dev)
			abort();
		for (j = 0; j < intf->intf_nep; j++) {
			const struct usb_host_endpoint *ep = intf->intf_ep[j];

			if (ep < &dev.ud_ep[0][0] || ep > &dev.ud_ep[1][15] ||
			    (ep->ep_addr & USB_ENDPOINT_NUMBER_MASK) == 0 || ep->ep_maxp == 0)
				abort();
		}
	}
	return 0;
}
