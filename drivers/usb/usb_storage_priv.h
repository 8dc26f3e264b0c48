/*
 * The Bulk-Only transport's private state: one struct us_data per mass
 * storage interface, shared by usb_storage.c (probe, disconnect, the
 * command state machine) and usb_storage_eh.c (recovery, from deferred
 * work).  Not for other code.
 *
 * Lock legend: [I] set in probe before the first command, immutable
 * afterwards; [u] us_lock (interrupts off: URB completions take it);
 * [w] only the recovery work touches it.
 * Lock order: an sd queue lock, then us_lock.  sc_done and sd_run_queue
 * are called with us_lock released.
 */
#ifndef DRIVERS_USB_USB_STORAGE_PRIV_H
#define DRIVERS_USB_USB_STORAGE_PRIV_H

#include "drivers/scsi/sd.h"
#include "drivers/usb/usb.h"
#include "drivers/usb/usb_storage.h"
#include "kernel/spinlock.h"
#include "kernel/work.h"

/* DPRINTF masks (kernel/printk.h). */
#define US_D_CMD		0x4000
#define US_D_EH			0x8000

#define US_MAX_LUNS		8	/* units attached per stick; BOT allows 16 */
#define US_RESET_TIMEOUT_MS	5000u	/* ms: the class reset and each CLEAR_FEATURE */
#define US_IOBUF_CBW		0	/* offsets into us_iobuf */
#define US_IOBUF_CSW		64
#define US_IOBUF_SENSE		128
#define US_IOBUF_LEN		256

/* Where the command is (BOT 5.3): the phases, then the same for auto-sense. */
enum us_state {
	US_IDLE,
	US_CBW,
	US_DATA,
	US_CSW,
	US_SENSE_CBW,
	US_SENSE_DATA,
	US_SENSE_CSW,
	US_RECOVER,		/* the work owns the command */
	US_NR_STATES,
};
extern const char *const us_state_names[US_NR_STATES];

/* us_eh_flags: what the work is to do, in this order. */
#define US_EH_KILL		0x01	/* cancel the URB in flight (timeout) */
#define US_EH_RESET		0x02	/* reset recovery (BOT 5.3.4) */
#define US_EH_CLEAR_IN		0x04	/* CLEAR_FEATURE(ENDPOINT_HALT) bulk-in */
#define US_EH_CLEAR_OUT		0x08	/* ... bulk-out */
#define US_EH_CSW		0x10	/* then read the CSW again (BOT 6.7.2, 6.7.3) */

struct us_data {
	spinlock_t		us_lock;
	struct usb_device	*us_udev;		/* [I] referenced */
	struct usb_interface	*us_intf;		/* [I] */
	u8			us_ifnum;		/* [I] */
	u8			us_ep_in;		/* [I] bEndpointAddress */
	u8			us_ep_out;		/* [I] */
	u8			us_nluns;		/* [I] GET MAX LUN + 1 */
	char			us_name[40];		/* [I] "usb-storage 1.2" */
	struct sd_disk		*us_sd[US_MAX_LUNS];	/* [u] attached units */
	u8			*us_iobuf;		/* [I] CBW, CSW, sense: lowmem */

	enum us_state		us_state;		/* [u] */
	struct scsi_cmnd	*us_cmd;		/* [u] the command, NULL when idle */
	struct scsi_cmnd	us_sense;		/* [u] REQUEST SENSE for us_cmd */
	u32			us_tag;			/* [u] the last CBW's */
	u32			us_moved;		/* [u] bytes the data stage moved */
	bool			us_gone;		/* [u] unplugged */
	bool			us_aborting;		/* [u] sd gave up on us_cmd */
	bool			us_csw_retried;		/* [u] the CSW was read twice */
	u32			us_eh_flags;		/* [u] US_EH_* for the work */
	int			us_eh_result;		/* [u] us_cmd's sc_result after it */
	enum us_state		us_eh_resume;		/* [u] the phase recovery interrupted */
	bool			us_work_busy;		/* [u] scheduled or running */
	bool			us_free_pending;	/* [u] disconnect ran: the work frees */
	struct work		us_work;
	struct urb		us_urb;			/* [u] one transfer at a time */
	struct usb_sg		us_sg[USB_URB_MAX_SG];	/* [u] the data stage */

	u64			us_cmds;		/* [u] */
	u32			us_resets;		/* [u] reset recoveries */
	u32			us_stalls;		/* [u] halted endpoints cleared */
};

/* usb_storage.c */
/* Send the CSW read (state US_CSW or US_SENSE_CSW).  us_lock held. */
void __us_read_csw(struct us_data *us);
/*
 * Hand the command back: sc_result set, state idle, us_lock dropped,
 * then sc_done and the other units' queues run.  Called with us_lock
 * held (saved flags in *flags); returns with it released.
 */
void __us_finish(struct us_data *us, int result, unsigned long flags);
void us_free(struct us_data *us);

/* usb_storage_eh.c */
/* Give the command to the work: flags to do, result after.  us_lock held. */
void __us_schedule_eh(struct us_data *us, u32 flags, int result);
void us_eh_work(struct work *w);

#endif
