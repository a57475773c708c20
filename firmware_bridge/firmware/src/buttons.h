#ifndef TABLEBOX_BUTTONS_H
#define TABLEBOX_BUTTONS_H
#include <stdint.h>
#define BUTTON_COUNT 10
void buttons_init(void);
/* Sample every button once (call every millisecond). Returns a bit mask of buttons that
 * became pressed in this sample, after debouncing. */
uint16_t buttons_sample(void);
#endif
