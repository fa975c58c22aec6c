package io.smoothscale.kafka.testkit;

import java.util.SortedMap;
import java.util.SortedSet;

/**
 * One Kafka Streams client (process) of a neutral application state. Tasks are named by their
 * position in {@link AppSpec#tasks()}.
 *
 * @param capacity     number of stream threads
 * @param rack         the client's rack, or {@code null} when it has none
 * @param tags         client tags ({@code client.tag.*})
 * @param prevActive   tasks it ran as active in the previous assignment
 * @param prevStandby  tasks it held as standby (or warm-up) in the previous assignment
 * @param reported     the lag it reported per stateful task: ≥ 0 a lag, −2 running (Kafka's
 *                     {@code Task.LATEST_OFFSET}), −3 unknown; a stateful task missing here lags by its end offset
 */
public record ClientSpec(int capacity, String rack, SortedMap<String, String> tags,
                         SortedSet<Integer> prevActive, SortedSet<Integer> prevStandby,
                         SortedMap<Integer, Long> reported) {
}
