#ifndef TABLEBOX_JOURNAL_H
#define TABLEBOX_JOURNAL_H
#include <stdint.h>

/* Where the event stream stands, kept in EEPROM so that any restart, a power cut
 * included, goes on from there: the numbering of events continues across boots (so a
 * host sees exactly how many events it never got, as a gap in the numbers) and the
 * count of presses lost to a full queue is never forgotten. */

/* At boot (after the dice generator is seeded: a box without an id makes one). */
void journal_init(uint32_t new_box_id);
uint32_t journal_box_id(void);
uint16_t journal_next_seq(void); /* what the last record says */
uint32_t journal_lost(void);

/* Ask for (next_seq, lost) to be made durable; written one byte at a time by
 * journal_poll(), which never waits for the EEPROM. */
void journal_want(uint16_t next_seq, uint32_t lost);
void journal_poll(void);
/* What is durable: a restart numbers on from durable_next (events are sent ahead of it,
 * by at most JOURNAL_LAG), and the lost count the host is told is this one. */
uint16_t journal_durable_next(void);
uint32_t journal_durable_lost(void);
#endif
