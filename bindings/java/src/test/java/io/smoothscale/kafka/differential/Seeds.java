package io.smoothscale.kafka.differential;

/** Derives independent seeds from the run's seed, a state index and a purpose, with SplitMix64's finalizer. */
final class Seeds {
    private Seeds() {
    }

    /** A seed that depends on every argument. */
    static long mix(final long seed, final long index, final long purpose) {
        return finish(finish(finish(seed) ^ index) ^ purpose);
    }

    private static long finish(final long value) {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
