#ifndef TABLEBOX_EVENTS_H
#define TABLEBOX_EVENTS_H
#include <stdint.h>
#include "config.h"

enum { EV_BUTTON = 1, EV_ROLL = 2 };
enum { ROLL_INIT = 0, ROLL_ATTACK = 1 };

/* One event waiting for the host's acknowledgement. 18 bytes. */
typedef struct {
    uint16_t seq;
    uint16_t req;      /* host request id of a ROLL, 0 for a button roll */
    uint8_t type;
    uint8_t player;    /* 0 none, 1 p1, 2 p2 */
    uint8_t what;      /* button index, or roll kind */
    uint8_t n;         /* number of dice */
    uint8_t faces[10]; /* 3 bits per die, up to MAX_DICE dice; values 0..5 */
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
void face_set(event_t *ev, uint8_t i, uint8_t v);
uint8_t face_get(const event_t *ev, uint8_t i);
#endif
