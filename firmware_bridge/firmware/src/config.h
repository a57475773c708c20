/* Table box firmware: build-time settings and the pin map (see ../HARDWARE.md). */
#ifndef TABLEBOX_CONFIG_H
#define TABLEBOX_CONFIG_H

#define FW_VERSION "3.1.0"
#define PROTOCOL_VERSION 3
#define BAUD 115200UL

#define HEARTBEAT_MS 500      /* HB frame period */
#define RETRANSMIT_MS 60      /* resend unacknowledged events after this long */
#define RETRANSMIT_WINDOW 8   /* at most this many events per resend pass */
#define PRESS_MS 2            /* a press counts after this many 1 ms samples read down */
#define DEBOUNCE_MS 5         /* ... and a release after this many read up */
#define LOCKOUT_MS 15         /* no new press this soon after a release (release bounce) */
#define JOURNAL_LAG 32        /* events sent ahead of the journal's saved number, at most */
#define EVENT_QUEUE 40        /* unacknowledged events kept (RAM: 18 bytes each) */
#define MAX_SIDES 250         /* the largest die: a 54-card deck is one such roll */
#define LINE_MAX 96           /* longest frame, including "*CRC\n" */

/* Buttons, active low with pull-ups: p1 on PD2..PD6, p2 on PB0..PB4, in this order:
 * roll, ready, shift, strike, undo. */
#define BUTTONS_PER_PLAYER 5

/* Lights: PC0 p1's turn, PC1 p2's turn, PC2 attention, PC3 box ok; PB5 the Uno's LED. */

/* Entropy: ADC4 and ADC5 (A4, A5) are left floating; their noise seeds the dice. */
#define NOISE_CHANNEL_A 4
#define NOISE_CHANNEL_B 5

#endif
