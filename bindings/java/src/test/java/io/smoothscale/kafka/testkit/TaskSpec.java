package io.smoothscale.kafka.testkit;

import java.util.List;

/**
 * One task of a neutral application state: its id parts, whether it keeps state, the sum of its
 * changelog end offsets, and the racks of its input and changelog partitions.
 *
 * @param subtopology    Kafka's subtopology (topic group) id
 * @param partition      the partition number within the subtopology
 * @param stateful       whether the task has state stores (and so a changelog and lags)
 * @param endOffset      the task's changelog end offset sum; a client that reports nothing lags by this much
 * @param inputRacks     racks of the input partition's replicas
 * @param changelogRacks racks of the changelog partition's replicas (empty for a stateless task)
 */
public record TaskSpec(int subtopology, int partition, boolean stateful, long endOffset,
                       List<String> inputRacks, List<String> changelogRacks) {

    /** The task as Kafka prints it, {@code subtopology_partition}. */
    public String name() {
        return subtopology + "_" + partition;
    }
}
