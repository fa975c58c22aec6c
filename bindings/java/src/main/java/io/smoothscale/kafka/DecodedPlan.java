package io.smoothscale.kafka;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.streams.processor.TaskId;

/**
 * A plan message read back (docs/crossing-format.md), in the state message's orders.
 *
 * @param clients per client of the state message: its tasks by role
 * @param followupMs the delay of the follow-up rebalance the plan asks for, if any
 * @param followupWhenCaughtUp the tasks whose warm-ups the plan waits for (KIP-441's learner design)
 * @param diagnostics the strategy's notes (a skipped KIP-925 optimisation, say)
 */
record DecodedPlan(List<ClientPlan> clients, OptionalLong followupMs, List<TaskId> followupWhenCaughtUp,
                   List<String> diagnostics) {
    private static final int MAGIC = 0x50534D53; // "SMSP"

    /**
     * One client's tasks.
     *
     * @param active its active tasks
     * @param standby its standby replicas
     * @param warmup its warm-up replicas (Kafka receives them as standbys)
     */
    record ClientPlan(List<TaskId> active, List<TaskId> standby, List<TaskId> warmup) {
    }

    /** Reads {@code bytes}, answered for {@code state}. */
    static DecodedPlan read(final byte[] bytes, final EncodedState state) {
        final ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC || in.getInt() != 1) {
            throw new SmoothscaleInvariantException("the native library answered an unknown plan format");
        }
        final boolean followup = in.get() == 1;
        final long ms = in.getLong();
        final int n = in.getInt();
        if (n != state.clients().size()) {
            throw new SmoothscaleInvariantException("the plan has " + n + " clients, the state " + state.clients().size());
        }
        final List<ClientPlan> clients = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            clients.add(new ClientPlan(tasks(in, state), tasks(in, state), tasks(in, state)));
        }
        final List<TaskId> caughtUp = tasks(in, state);
        final int notes = in.getInt();
        final List<String> diagnostics = new ArrayList<>(notes);
        for (int i = 0; i < notes; i++) {
            final byte[] utf8 = new byte[in.getInt()];
            in.get(utf8);
            diagnostics.add(new String(utf8, StandardCharsets.UTF_8));
        }
        return new DecodedPlan(clients, followup ? OptionalLong.of(ms) : OptionalLong.empty(), caughtUp, diagnostics);
    }

    private static List<TaskId> tasks(final ByteBuffer in, final EncodedState state) {
        final int n = in.getInt();
        final List<TaskId> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(state.tasks().get(in.getInt()));
        }
        return out;
    }
}
