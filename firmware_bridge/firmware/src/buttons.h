#ifndef TABLEBOX_BUTTONS_H
#define TABLEBOX_BUTTONS_H
#include <stdint.h>
#define BUTTON_COUNT 10
void buttons_init(void);
/* Sample every button once and queue the presses found, in order. Called from the 1 ms
 * timer interrupt: sampling then never waits for the main loop, which a burst of host
 * lines can keep busy for longer than a short press lasts. */
void buttons_tick(void);
/* The next press queued (a button index), or -1 when none is waiting. */
int8_t buttons_next(void);
/* Presses that found the press queue full (the main loop away for over 16 presses). */
uint8_t buttons_overflows(void);
#endif
