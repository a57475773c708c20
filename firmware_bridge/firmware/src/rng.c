/* Dice randomness: a xorshift64* generator whose state absorbs every bit of entropy the
 * box can gather. Mixing never replaces the state, so a weak source cannot make the
 * dice predictable once a good one has contributed. */
#include "rng.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;

static uint64_t step(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

void rng_mix(uint32_t value)
{
    state ^= (uint64_t)value * 0xBF58476D1CE4E5B9ULL;
    if (state == 0)
        state = 0x9E3779B97F4A7C15ULL;
    (void)step();
}

uint32_t rng_next(void)
{
    return (uint32_t)(step() >> 32);
}

uint8_t rng_below(uint8_t n)
{
    /* Accept only bytes below the largest multiple of n: every result equally likely. */
    uint16_t limit = (uint16_t)(256u - (256u % n));
    for (;;) {
        uint32_t r = rng_next();
        for (uint8_t i = 0; i < 4; i++) {
            uint8_t b = (uint8_t)(r >> (8 * i));
            if (b < limit)
                return (uint8_t)(b % n);
        }
    }
}
