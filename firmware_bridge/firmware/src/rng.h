#ifndef TABLEBOX_RNG_H
#define TABLEBOX_RNG_H
#include <stdint.h>
/* Mix entropy (analog noise, timing jitter, host seed bytes) into the pool. */
void rng_mix(uint32_t value);
uint32_t rng_next(void);
/* A uniform value in 0..n-1 (n <= 256) without modulo bias (rejection sampling). */
uint8_t rng_below(uint8_t n);
#endif
