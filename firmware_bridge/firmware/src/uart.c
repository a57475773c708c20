/* Interrupt-driven UART0 with ring buffers. A full receive buffer drops bytes (counted):
 * the framing layer then sees a broken line and the sender's retransmission repairs it. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include "config.h"
#include "uart.h"

#define RX_SIZE 128
#define TX_SIZE 255

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;
volatile uint16_t uart_rx_jitter;
volatile uint8_t uart_rx_overflows;

void uart_init(void)
{
    /* Double speed: 16 MHz / (8 * (16 + 1)) = 117647 baud, 2.1 % from 115200. */
    UCSR0A = _BV(U2X0);
    UBRR0 = (uint16_t)(F_CPU / (8UL * BAUD) - 1);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
}

ISR(USART_RX_vect)
{
    uint8_t status = UCSR0A;
    uint8_t byte = UDR0;
    uart_rx_jitter = (uint16_t)(uart_rx_jitter * 31u + TCNT1);
    if (status & (_BV(FE0) | _BV(DOR0)))
        uart_rx_overflows++;
    uint8_t next = (uint8_t)((rx_head + 1) % RX_SIZE);
    if (next == rx_tail) {
        uart_rx_overflows++;
        return;
    }
    rx_buf[rx_head] = byte;
    rx_head = next;
}

int16_t uart_getc(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t b = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) % RX_SIZE);
    return b;
}

uint8_t uart_tx_free(void)
{
    uint8_t used = (uint8_t)((tx_head + TX_SIZE - tx_tail) % TX_SIZE);
    return (uint8_t)(TX_SIZE - 1 - used);
}

void uart_write(const char *s, uint8_t len)
{
    for (uint8_t i = 0; i < len; i++) {
        uint8_t next = (uint8_t)((tx_head + 1) % TX_SIZE);
        while (next == tx_tail) {
            /* Callers check uart_tx_free first; waiting here is a last resort. */
        }
        tx_buf[tx_head] = (uint8_t)s[i];
        tx_head = next;
    }
    UCSR0B |= _BV(UDRIE0);
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) % TX_SIZE);
}
