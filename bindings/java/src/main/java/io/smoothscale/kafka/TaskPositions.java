package io.smoothscale.kafka;

import java.util.Arrays;
import java.util.List;
import org.apache.kafka.streams.processor.TaskId;

/**
 * Task id → position in the sorted task list, by binary search over packed {@code (subtopology, partition)}
 * keys: no hashing of {@link TaskId} (whose hash code allocates) on the encoder's hot path.
 */
final class TaskPositions {
    private final long[] keys;

    /** Positions of {@code sorted}, which holds no named-topology task and is in {@link TaskId} order. */
    TaskPositions(final List<TaskId> sorted) {
        keys = new long[sorted.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = key(sorted.get(i));
        }
    }

    /** Subtopology and partition are non-negative, so the packed order is {@link TaskId}'s. */
    private static long key(final TaskId id) {
        return ((long) id.subtopology() << 32) | (id.partition() & 0xFFFF_FFFFL);
    }

    /** The position of {@code id}, or −1 when it is not a task of the application. */
    int of(final TaskId id) {
        if (id.topologyName() != null) {
            return -1;
        }
        final int i = Arrays.binarySearch(keys, key(id));
        return i >= 0 ? i : -1;
    }
}
