/* The EEPROM journal (see journal.h). Layout:
 *   0..3    boot counter (entropy, see main.c)
 *   4..7    box id, 8..9 its CRC          written once, when missing or damaged
 *   16..    100 slots of 10 bytes: generation (2), next_seq (2), lost (4), CRC (2)
 * Each record goes to the slot after the previous one, so every slot is written once
 * per 100 records: at 100,000 writes a cell that is some ten million records. A record
 * is whole when its CRC matches; one torn by a power cut fails it, and the one before
 * is used. Records follow the events in the background: a restart goes on from the last
 * whole one, at most JOURNAL_LAG numbers behind what was sent (see PROTOCOL.md). */
#include <avr/eeprom.h>
#include "crc16.h"
#include "journal.h"

#define BOX_ID_ADDR 4
#define SLOTS_ADDR 16
#define SLOT_SIZE 10
#define SLOTS 100
/* A record's CRC starts from a journal-only byte, so a blank (all 0xFF) or a box id
 * region never reads as a record. */
#define RECORD_TAG 'J'

typedef struct {
    uint16_t gen;
    uint16_t next_seq;
    uint32_t lost;
    uint16_t crc;
} record_t;
_Static_assert(sizeof(record_t) == SLOT_SIZE, "a record fills its slot exactly");

static uint32_t box_id;
static record_t durable;   /* the last whole record (or the start: 1, 0) */
static record_t writing;   /* the one being written, byte by byte */
static uint8_t write_pos;  /* bytes of it issued; SLOT_SIZE: the last one is still
                              being written; IDLE: nothing in progress */
#define IDLE 0xFF
static uint8_t slot;       /* where the next record goes */
static uint16_t want_next;
static uint32_t want_lost;

static uint16_t record_crc(const record_t *r)
{
    uint16_t crc = crc16_update(0xFFFF, RECORD_TAG);
    const uint8_t *p = (const uint8_t *)r;
    for (uint8_t i = 0; i < SLOT_SIZE - 2; i++)
        crc = crc16_update(crc, p[i]);
    return crc;
}

static uint8_t *slot_addr(uint8_t i)
{
    return (uint8_t *)(uintptr_t)(SLOTS_ADDR + (uint16_t)i * SLOT_SIZE);
}

void journal_init(uint32_t new_box_id)
{
    uint8_t id[6];
    eeprom_read_block(id, (const void *)BOX_ID_ADDR, sizeof id);
    uint16_t crc = 0xFFFF;
    for (uint8_t i = 0; i < 4; i++)
        crc = crc16_update(crc, id[i]);
    uint32_t stored = (uint32_t)id[0] | ((uint32_t)id[1] << 8) | ((uint32_t)id[2] << 16)
                      | ((uint32_t)id[3] << 24);
    if (crc == (uint16_t)(id[4] | (id[5] << 8)) && stored) {
        box_id = stored;
    } else {
        /* A new box (or one whose EEPROM was erased): the host must not mistake it for
         * the box it knew, whose numbering this one does not continue. */
        box_id = new_box_id ? new_box_id : 1;
        for (uint8_t i = 0; i < 4; i++)
            id[i] = (uint8_t)(box_id >> (8 * i));
        crc = 0xFFFF;
        for (uint8_t i = 0; i < 4; i++)
            crc = crc16_update(crc, id[i]);
        id[4] = (uint8_t)crc;
        id[5] = (uint8_t)(crc >> 8);
        eeprom_update_block(id, (void *)BOX_ID_ADDR, sizeof id);
    }

    /* The newest whole record: generations are consecutive around the ring, so the
     * newest is the one furthest after any whole one (serial arithmetic). */
    uint8_t found = 0, best = 0;
    durable = (record_t){0, 1, 0, 0};
    for (uint8_t i = 0; i < SLOTS; i++) {
        record_t r;
        eeprom_read_block(&r, slot_addr(i), SLOT_SIZE);
        if (r.crc != record_crc(&r) || r.next_seq == 0)
            continue;
        if (!found || (int16_t)(r.gen - durable.gen) > 0) {
            durable = r;
            best = i;
            found = 1;
        }
    }
    slot = found ? (uint8_t)((best + 1) % SLOTS) : 0;
    if (!found)
        durable.gen = 0xFFFF; /* the first record written is generation 0 */
    write_pos = IDLE;
    want_next = durable.next_seq;
    want_lost = durable.lost;
}

uint32_t journal_box_id(void) { return box_id; }
uint16_t journal_next_seq(void) { return durable.next_seq; }
uint32_t journal_lost(void) { return durable.lost; }
uint16_t journal_durable_next(void) { return durable.next_seq; }
uint32_t journal_durable_lost(void) { return durable.lost; }

void journal_want(uint16_t next_seq, uint32_t lost)
{
    want_next = next_seq;
    want_lost = lost;
}

void journal_poll(void)
{
    if (write_pos == IDLE) {
        if (want_next == durable.next_seq && want_lost == durable.lost)
            return;
        /* Whatever changed while the last record was written goes in this one. */
        writing.gen = (uint16_t)(durable.gen + 1);
        writing.next_seq = want_next;
        writing.lost = want_lost;
        writing.crc = record_crc(&writing);
        write_pos = 0;
    }
    if (!eeprom_is_ready())
        return; /* a byte takes ~3.4 ms: never wait for it, the buttons are sampled */
    if (write_pos == SLOT_SIZE) { /* the CRC, written last, is in: the record is whole */
        durable = writing;
        slot = (uint8_t)((slot + 1) % SLOTS);
        write_pos = IDLE;
        return;
    }
    eeprom_update_byte(slot_addr(slot) + write_pos, ((const uint8_t *)&writing)[write_pos]);
    write_pos++;
}
