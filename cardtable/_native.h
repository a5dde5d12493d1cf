/* What both games' compiled cores share: card masks and a seeded generator of their own.
 *
 * The cores (cardtable/pasur/_core.c, cardtable/durak/_core.c) keep the pure-Python
 * engine's representation: a set of cards is a 52-bit mask with bit (rank - 1) * 4 + suit,
 * exactly ``Card.mask``, so masks cross between the two engines unchanged.
 */
#ifndef CARDTABLE_NATIVE_H
#define CARDTABLE_NATIVE_H

#include <stdint.h>

typedef uint64_t ct_mask;

static inline int ct_count(ct_mask mask) { return __builtin_popcountll(mask); }

/* The index of the lowest card in a non-empty mask. */
static inline int ct_low(ct_mask mask) { return __builtin_ctzll(mask); }

/* The generator the cores' playouts use: xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64 from one 64-bit number, so a playout is reproducible from the seed the Python
 * side draws from its own random.Random. */
typedef struct { uint64_t s[4]; } ct_rng;

static inline uint64_t ct_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void ct_rng_seed(ct_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = ct_splitmix64(&seed);
}

static inline uint64_t ct_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ct_next(ct_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = ct_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ct_rotl(s[3], 45);
    return result;
}

/* A whole number in [0, n), n > 0, without modulo bias (Lemire's method). */
static inline uint32_t ct_below(ct_rng *rng, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(ct_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (uint64_t)(uint32_t)(ct_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A double in [0, 1). */
static inline double ct_unit(ct_rng *rng) { return (double)(ct_next(rng) >> 11) * 0x1.0p-53; }

#endif
