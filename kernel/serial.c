/*
 * 16550 UART on COM1: 115200 8N1 (FIFOs as found), polled output with a bounded
 * wait, interrupt-driven input (IRQ 4) into the console input ring.
 * Registers per the PC16550D data sheet.
 */
#include "kernel/console.h"
#include "kernel/io.h"
#include "kernel/irq.h"
#include "kernel/errno.h"
#include "kernel/spinlock.h"

#define COM1		0x3F8
#define COM1_IRQ	4

#define UART_RBR	0	/* receive buffer (read, DLAB=0) */
#define UART_THR	0	/* transmit holding (write, DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define  UART_IER_RDI	0x01	/* received data available */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_IIR	2	/* interrupt identification (read) */
#define  UART_IIR_NO_INT 0x01
#define  UART_IIR_FIFOS	0xC0	/* both set: FIFOs enabled */
#define UART_FCR	2	/* FIFO control (write) */
#define  UART_FCR_ENABLE 0x01
#define  UART_FCR_CLEAR_TX 0x04	/* clear the transmit FIFO */
#define  UART_FCR_TRIG14 0xC0	/* receive interrupt at 14 bytes */
#define UART_LCR	3	/* line control */
#define  UART_LCR_8N1	0x03
#define  UART_LCR_DLAB	0x80
#define UART_MCR	4	/* modem control */
#define  UART_MCR_DTR	0x01
#define  UART_MCR_RTS	0x02
#define  UART_MCR_OUT2	0x08	/* gates the interrupt line on PCs */
#define  UART_MCR_LOOP	0x10
#define UART_LSR	5	/* line status */
#define  UART_LSR_DR	0x01	/* data ready */
#define  UART_LSR_THRE	0x20	/* transmit holding register empty */
#define UART_SCR	7	/* scratch */

#define UART_CLOCK_DIV	1	/* 115200 baud from the 1.8432 MHz clock */
#define TX_SPIN_LIMIT	100000	/* polls of LSR per character (~ms at worst) */

struct uart {
	u16		port;
	bool		present;
	bool		throttled;	/* receive interrupt off: the input ring is full */
	struct console	con;
};

static struct uart com1 = { .port = COM1 };

static void uart_putc(struct uart *u, char c)
{
	unsigned n;

	for (n = 0; n < TX_SPIN_LIMIT; n++)
		if (inb(u->port + UART_LSR) & UART_LSR_THRE)
			break;
	outb(u->port + UART_THR, (u8)c);
}

static void uart_write(struct console *con, const char *s, size_t len)
{
	struct uart *u = container_of(con, struct uart, con);

	for (; len; len--, s++) {
		if (*s == '\n')
			uart_putc(u, '\r');
		uart_putc(u, *s);
	}
}

/*
 * Move what the UART has received into the console's input ring.  When
 * the ring is full, the rest stays in the UART with its interrupt off
 * (and QEMU holds back what comes after): a script piped into the serial
 * line arrives whole, however long.  Interrupts off.
 */
static bool uart_receive(struct uart *u)
{
	bool got = false;

	while (inb(u->port + UART_LSR) & UART_LSR_DR) {
		if (console_input_full()) {
			u->throttled = true;
			outb(u->port + UART_IER, 0);
			return true;
		}
		console_input((char)inb(u->port + UART_RBR));
		got = true;
	}
	return got;
}

static irqreturn_t uart_interrupt(unsigned irq, void *data)
{
	return uart_receive(data) ? IRQ_HANDLED : IRQ_NONE;
}

static void uart_unthrottle(struct console *con)
{
	struct uart *u = container_of(con, struct uart, con);

	if (!u->throttled)
		return;
	u->throttled = false;
	outb(u->port + UART_IER, UART_IER_RDI);
	uart_receive(u);
}

/* A missing UART reads back 0xFF; the scratch register tells. */
static bool uart_probe(struct uart *u)
{
	outb(u->port + UART_SCR, 0x5A);
	if (inb(u->port + UART_SCR) != 0x5A)
		return false;
	outb(u->port + UART_SCR, 0xA5);
	return inb(u->port + UART_SCR) == 0xA5;
}

/*
 * What was typed before the kernel came (while GRUB handed over, or into
 * QEMU before the guest ran) waits in the receive buffer or FIFO, and
 * must reach the shell.  The receive FIFO is never cleared, and FIFOs that
 * are off stay off: turning them on resets them (PC16550D, FCR bit 0),
 * which would drop a byte arriving meanwhile.  Without FIFOs every byte
 * interrupts, which a console can afford.
 */
void serial_early_init(void)
{
	struct uart *u = &com1;

	if (!uart_probe(u))
		return;
	outb(u->port + UART_IER, 0);
	outb(u->port + UART_LCR, UART_LCR_DLAB);
	outb(u->port + UART_DLL, UART_CLOCK_DIV & 0xff);
	outb(u->port + UART_DLM, UART_CLOCK_DIV >> 8);
	outb(u->port + UART_LCR, UART_LCR_8N1);
	if ((inb(u->port + UART_IIR) & UART_IIR_FIFOS) == UART_IIR_FIFOS)
		outb(u->port + UART_FCR, UART_FCR_ENABLE | UART_FCR_CLEAR_TX | UART_FCR_TRIG14);
	outb(u->port + UART_MCR, UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
	u->present = true;
	u->con.con_name = "ttyS0";
	u->con.con_write = uart_write;
	u->con.con_unthrottle = uart_unthrottle;
	console_register(&u->con);
}

int serial_irq_init(void)
{
	struct uart *u = &com1;
	unsigned long flags;
	int err;

	if (!u->present)
		return -ENODEV;
	err = request_irq(COM1_IRQ, uart_interrupt, u, "serial");
	if (err)
		return err;
	(void)inb(u->port + UART_IIR);
	outb(u->port + UART_IER, UART_IER_RDI);
	/* bytes that came while the interrupt was off raise none of their own */
	local_irq_save(flags);
	uart_receive(u);
	local_irq_restore(flags);
	return 0;
}
