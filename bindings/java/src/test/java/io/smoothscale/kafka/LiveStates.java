package io.smoothscale.kafka;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/**
 * What the live tests need of the adapter's encoder: a live {@code ApplicationState} as a state message, and the
 * input rates the core read from the message the assignor sent.
 */
public final class LiveStates {
    private LiveStates() {
    }

    /**
     * The state message our assignor sends the core for this state, and the process ids in its client order.
     *
     * @param state a live application state
     * @return the message and the process ids
     */
    public static Encoded encode(final ApplicationState state) {
        final EncodedState encoded = StateEncoder.encode(state);
        return new Encoded(encoded.bytes(), encoded.clients());
    }

    /**
     * The input rates the core read from the state message {@code assignor} sent at its last rebalance, by task.
     *
     * @param assignor an assignor that assigned at least once
     * @return records per second by task, −1 where unknown
     */
    public static SortedMap<TaskId, Long> inputRates(final SmoothscaleTaskAssignor assignor) {
        final EncodedState state = assignor.lastState().orElseThrow();
        final long[] rates = NativeBridge.inputRates(state.bytes());
        final SortedMap<TaskId, Long> out = new TreeMap<>();
        for (int t = 0; t < rates.length; t++) {
            out.put(state.tasks().get(t), rates[t]);
        }
        return out;
    }

    /**
     * A state message and its clients.
     *
     * @param message the state message (docs/crossing-format.md)
     * @param clients the process ids, in the message's client order
     */
    public record Encoded(byte[] message, List<ProcessId> clients) {
    }
}
