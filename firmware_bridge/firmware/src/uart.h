#ifndef TABLEBOX_UART_H
#define TABLEBOX_UART_H
#include <stdint.h>
void uart_init(void);
/* Received bytes; returns -1 when none is waiting. */
int16_t uart_getc(void);
/* Free room in the transmit buffer. */
uint8_t uart_tx_free(void);
void uart_write(const char *s, uint8_t len);
/* Timer1 count at the last received byte: timing jitter feeds the entropy pool. */
extern volatile uint16_t uart_rx_jitter;
extern volatile uint8_t uart_rx_overflows;
#endif
