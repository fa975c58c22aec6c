package io.smoothscale.kafka;

import java.util.List;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.ProcessId;

/** What the live tests need of the adapter's encoder: a live {@code ApplicationState} as a state message. */
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
     * A state message and its clients.
     *
     * @param message the state message (docs/crossing-format.md)
     * @param clients the process ids, in the message's client order
     */
    public record Encoded(byte[] message, List<ProcessId> clients) {
    }
}
