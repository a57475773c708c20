#ifndef TABLEBOX_CRC16_H
#define TABLEBOX_CRC16_H
#include <stdint.h>
/* CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection. */
uint16_t crc16_update(uint16_t crc, uint8_t byte);
uint16_t crc16(const char *data, uint8_t len);
#endif
