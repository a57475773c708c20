/* Debouncing by integration, asymmetric for latency: each button has a counter that
 * moves one step per 1 ms sample toward its raw level. A press is reported as soon as
 * PRESS_MS samples read down (and the counter then jumps to the top), a release only
 * when the counter has come all the way down (DEBOUNCE_MS samples up). Bounce while held
 * never reaches the bottom; bounce after a release is ignored by a short lock-out, which
 * no human double press is quick enough to hit. */
#include <avr/io.h>
#include "buttons.h"
#include "config.h"

static uint8_t level[BUTTON_COUNT];
static uint8_t lockout[BUTTON_COUNT];
static uint16_t pressed;

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

uint16_t buttons_sample(void)
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
