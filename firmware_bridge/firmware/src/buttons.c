/* Debouncing by integration, asymmetric for latency: each button has a counter that
 * moves one step per 1 ms sample toward its raw level. A press is reported as soon as
 * PRESS_MS samples read down (and the counter then jumps to the top), a release only
 * when the counter has come all the way down (DEBOUNCE_MS samples up). Bounce while held
 * never reaches the bottom; bounce after a release is ignored by a short lock-out, which
 * no human double press is quick enough to hit. */
#include <avr/io.h>
#include <util/atomic.h>
#include "buttons.h"
#include "config.h"

static uint8_t level[BUTTON_COUNT];
static uint8_t lockout[BUTTON_COUNT];
static uint16_t pressed;
/* Presses found by the interrupt, waiting for the main loop: a ring, in press order. */
#define PRESS_RING 16
static volatile uint8_t ring[PRESS_RING];
static volatile uint8_t ring_head, ring_tail, overflows;

void buttons_init(void)
{
    DDRD &= (uint8_t)~0x7C; /* PD2..PD6 inputs */
    PORTD |= 0x7C;           /* pull-ups */
    DDRB &= (uint8_t)~0x1F; /* PB0..PB4 inputs */
    PORTB |= 0x1F;
}

static uint16_t raw(void)
{
    uint8_t d = (uint8_t)(~PIND >> 2) & 0x1F; /* active low */
    uint8_t b = (uint8_t)(~PINB) & 0x1F;
    return (uint16_t)d | ((uint16_t)b << 5);
}

static uint16_t sample(void)
{
    uint16_t now = raw();
    uint16_t rising = 0;
    for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
        uint16_t bit = (uint16_t)1 << i;
        if (lockout[i])
            lockout[i]--;
        if (now & bit) {
            if (level[i] < DEBOUNCE_MS)
                level[i]++;
            if (!(pressed & bit) && level[i] >= PRESS_MS && !lockout[i]) {
                pressed |= bit;
                rising |= bit;
                level[i] = DEBOUNCE_MS;
            }
        } else if (level[i] > 0 && --level[i] == 0 && (pressed & bit)) {
            pressed &= (uint16_t)~bit;
            lockout[i] = LOCKOUT_MS;
        }
    }
    return rising;
}

void buttons_tick(void)
{
    uint16_t rising = sample();
    for (uint8_t i = 0; rising && i < BUTTON_COUNT; i++) {
        if (!(rising & ((uint16_t)1 << i)))
            continue;
        uint8_t next = (uint8_t)((ring_head + 1) % PRESS_RING);
        if (next == ring_tail) {
            overflows++; /* counted as lost by the main loop, never dropped unsaid */
            continue;
        }
        ring[ring_head] = i;
        ring_head = next;
    }
}

int8_t buttons_next(void)
{
    int8_t i = -1;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        if (ring_tail != ring_head) {
            i = (int8_t)ring[ring_tail];
            ring_tail = (uint8_t)((ring_tail + 1) % PRESS_RING);
        }
    }
    return i;
}

uint8_t buttons_overflows(void)
{
    uint8_t n;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        n = overflows;
        overflows = 0;
    }
    return n;
}
