package io.smoothscale.kafka.e2e;

import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What processing one record costs {@link CountApp}'s stream thread, in wall time the thread waits (as for a call
 * to another service), not in CPU: so a thread processes at most {@code 1,000,000 / micros} records a second
 * whatever the machine, and an instance added to the group adds that much capacity even on two cores shared by
 * the broker, the test and every instance. The waits are gathered per thread and taken once they reach a
 * millisecond (a sleep is not precise below that); a wait that overshoots is credited to the next records.
 */
final class ProcessingCost {
    /**
     * The instance setting ({@code key=value} after {@link CountApp}'s arguments) that gives the cost in µs a record;
     * taken out of the Streams configuration before Kafka Streams sees it. Absent: no cost.
     */
    static final String SETTING = "e2e.record.cost.us";

    /** Waits shorter than this are gathered first. */
    private static final long LEAST_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final long nanosPerRecord;
    /** Per stream thread: the wait owed so far (negative: the last wait overshot by that much). */
    private final ThreadLocal<long[]> owed = ThreadLocal.withInitial(() -> new long[1]);

    /** A cost of {@code micros} microseconds a record; 0 costs nothing. */
    ProcessingCost(final long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("a processing cost is at least 0 µs, not " + micros);
        }
        this.nanosPerRecord = TimeUnit.MICROSECONDS.toNanos(micros);
    }

    /** Takes {@link #SETTING} out of an instance's {@code config}: the cost it gives, else none. */
    static ProcessingCost take(final Properties config) {
        final Object micros = config.remove(SETTING);
        return new ProcessingCost(micros == null ? 0 : Long.parseLong(micros.toString()));
    }

    /** The records a second one thread can process at most under this cost (0 when the cost is 0: no limit). */
    static double perThreadLimit(final long micros) {
        return micros == 0 ? 0 : 1_000_000.0 / micros;
    }

    /** Charges one record to the calling thread, waiting when its debt reaches a millisecond. */
    void pay() {
        if (nanosPerRecord == 0) {
            return;
        }
        final long[] debt = owed.get();
        debt[0] += nanosPerRecord;
        if (debt[0] >= LEAST_WAIT_NS) {
            final long from = System.nanoTime();
            LockSupport.parkNanos(debt[0]);
            debt[0] -= System.nanoTime() - from;
        }
    }
}
