"""Juror's specified random stream (`crates/juror-core/src/base/rng.rs`), in plain Python.

The reference scripts use it to draw exactly the bootstrap resamples that the Rust code draws,
so bootstrap intervals can be compared to the last digit instead of statistically.

Specification (from rng.rs): the key is SHA-256("juror/plan/v1" 0x00 || seed as 8 bytes LE ||
purpose || 0x00 || a as 8 bytes LE || b as 8 bytes LE); it seeds ChaCha20 (rand_chacha's
ChaCha20Rng: 20 rounds, 64-bit block counter from 0, stream 0). `next_u64` takes two
consecutive 32-bit output words, low word first. `below(n)` rejects x > 2^64 - 1 -
((2^64 - 1) mod n + 1) mod n and returns x mod n.
"""

import hashlib
import struct

_MASK = 0xFFFFFFFF
_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"


def _rotl(v, c):
    return ((v << c) & _MASK) | (v >> (32 - c))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & _MASK
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & _MASK
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & _MASK
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & _MASK
    s[b] = _rotl(s[b] ^ s[c], 7)


def _block(key_words, counter):
    init = list(_CONSTANTS) + list(key_words) + [counter & _MASK, counter >> 32, 0, 0]
    s = list(init)
    for _ in range(10):
        _quarter(s, 0, 4, 8, 12)
        _quarter(s, 1, 5, 9, 13)
        _quarter(s, 2, 6, 10, 14)
        _quarter(s, 3, 7, 11, 15)
        _quarter(s, 0, 5, 10, 15)
        _quarter(s, 1, 6, 11, 12)
        _quarter(s, 2, 7, 8, 13)
        _quarter(s, 3, 4, 9, 14)
    return [(x + y) & _MASK for x, y in zip(s, init)]


class Stream:
    def __init__(self, seed, purpose, a, b):
        h = hashlib.sha256()
        h.update(b"juror/plan/v1\0")
        h.update(struct.pack("<Q", seed))
        h.update(purpose.encode())
        h.update(b"\0")
        h.update(struct.pack("<Q", a))
        h.update(struct.pack("<Q", b))
        self._key = struct.unpack("<8I", h.digest())
        self._counter = 0
        self._words = []

    def next_u64(self):
        if len(self._words) < 2:
            self._words += _block(self._key, self._counter)
            self._counter += 1
        lo, hi = self._words[0], self._words[1]
        del self._words[:2]
        return (hi << 32) | lo

    def below(self, n):
        if n <= 1:
            return 0
        m = (1 << 64) - 1
        zone = m - (m % n + 1) % n
        while True:
            x = self.next_u64()
            if x <= zone:
                return x % n


if __name__ == "__main__":
    s = Stream(42, "order", 1, 0)
    draws = [s.below(1000) for _ in range(8)]
    assert draws == [911, 778, 83, 49, 151, 454, 303, 917], draws
    print("frozen draws reproduced:", draws)
