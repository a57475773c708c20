/* The event queue: events keep their sequence number until the host acknowledges them,
 * and are resent in order until then, so a press is never lost (while the queue has
 * room) and the host can drop a duplicate by its number. */
#include "events.h"

static event_t queue[EVENT_QUEUE];
static uint8_t head, count;
static uint16_t next_seq, acked;

void events_init(uint16_t first_seq)
{
    head = count = 0;
    next_seq = first_seq;
    acked = (uint16_t)(first_seq - 1);
}

uint16_t events_push(const event_t *ev)
{
    if (count == EVENT_QUEUE)
        return 0;
    event_t *slot = &queue[(uint8_t)((head + count) % EVENT_QUEUE)];
    *slot = *ev;
    slot->seq = next_seq++;
    if (next_seq == 0)
        next_seq = 1; /* 0 is never a sequence number */
    count++;
    return slot->seq;
}

/* Serial-number comparison: is a at or before b, modulo 2^16? */
static uint8_t not_after(uint16_t a, uint16_t b)
{
    return (uint16_t)(b - a) < 0x8000u;
}

void events_ack(uint16_t seq)
{
    while (count && not_after(queue[head].seq, seq)) {
        acked = queue[head].seq;
        head = (uint8_t)((head + 1) % EVENT_QUEUE);
        count--;
    }
}

uint8_t events_pending(void) { return count; }
uint16_t events_next_seq(void) { return next_seq; }
uint16_t events_acked(void) { return acked; }

const event_t *events_at(uint8_t i)
{
    return &queue[(uint8_t)((head + i) % EVENT_QUEUE)];
}

uint8_t face_bits(uint8_t sides)
{
    uint8_t bits = 3; /* at least 3: a d2 to a d8 all pack the same way */
    while (bits < 8 && (uint16_t)(1u << bits) < sides)
        bits++;
    return bits;
}

uint8_t max_dice(uint8_t sides)
{
    /* 24 dice of up to 8 sides; then what 80 bits hold, and at most 17 two-digit faces
     * (a d16 roll of 17 is the longest frame: 92 bytes) */
    static const uint8_t most[6] = {24, 17, 16, 13, 11, 10};
    return most[face_bits(sides) - 3];
}

void face_set(event_t *ev, uint8_t i, uint8_t v)
{
    uint8_t w = face_bits(ev->what);
    uint16_t bit = (uint16_t)i * w;
    for (uint8_t k = 0; k < w; k++, bit++) {
        uint8_t mask = (uint8_t)(1 << (bit & 7));
        if (v & (1 << k))
            ev->faces[bit >> 3] |= mask;
        else
            ev->faces[bit >> 3] &= (uint8_t)~mask;
    }
}

uint8_t face_get(const event_t *ev, uint8_t i)
{
    uint8_t w = face_bits(ev->what);
    uint16_t bit = (uint16_t)i * w;
    uint8_t v = 0;
    for (uint8_t k = 0; k < w; k++, bit++)
        if (ev->faces[bit >> 3] & (1 << (bit & 7)))
            v |= (uint8_t)(1 << k);
    return v;
}
