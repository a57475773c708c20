#ifndef TABLEBOX_EVENTS_H
#define TABLEBOX_EVENTS_H
#include <stdint.h>
#include "config.h"

enum { EV_BUTTON = 1, EV_ROLL = 2 };

/* One event waiting for the host's acknowledgement. 18 bytes. */
typedef struct {
    uint16_t seq;
    uint16_t req;      /* host request id of a ROLL, 0 for a button roll */
    uint8_t type;
    uint8_t player;    /* 0 none, 1 p1, 2 p2 */
    uint8_t what;      /* button index, or the dice's number of sides */
    uint8_t n;         /* number of dice */
    uint8_t faces[10]; /* face_bits(sides) bits per die, values 0..sides-1: 80 bits,
                          which max_dice() keeps every roll within */
} event_t;

void events_init(uint16_t first_seq);
/* Queue an event; returns its sequence number, or 0 if the queue is full. */
uint16_t events_push(const event_t *ev);
/* The host acknowledged everything up to and including seq (cumulative). */
void events_ack(uint16_t seq);
uint8_t events_pending(void);
const event_t *events_at(uint8_t i); /* i-th oldest unacknowledged event */
uint16_t events_next_seq(void);
uint16_t events_acked(void);
/* Bits to hold a face of a die with this many sides (3 for a d6, 8 for a d250). */
uint8_t face_bits(uint8_t sides);
/* The most dice of this many sides one roll may hold (PROTOCOL.md): what fits both the
 * 80 bits an event keeps and a 96-byte frame. */
uint8_t max_dice(uint8_t sides);
void face_set(event_t *ev, uint8_t i, uint8_t v);
uint8_t face_get(const event_t *ev, uint8_t i);
#endif
