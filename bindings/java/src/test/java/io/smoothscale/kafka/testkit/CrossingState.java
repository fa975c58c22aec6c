package io.smoothscale.kafka.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a state message of the JNI crossing format (docs/crossing-format.md) into a neutral state, for what starts
 * from a message: the benchmark's {@code NativeBridge.generatePreset} states ({@code AssignBench}) and the live
 * states the adapter encoded ({@code KafkaAgreement}), both fed to Kafka's own assignors. The traffic and
 * non-overlap costs, the hosts, the observed restore rate and the input offsets are not part of a neutral state and
 * are skipped.
 * {@code CrossingFixturesTest} holds it to {@code bindings/crossing/state.bin}, as the Rust decoder is held.
 */
public final class CrossingState {
    /** The bytes "SMS1" read as a little-endian u32 (the Rust side's {@code u32::from_le_bytes(*b"SMS1")}). */
    private static final int MAGIC = 0x31534D53;
    private static final String[] RACK_STRATEGIES = {"none", "min_traffic", "balance_subtopology"};

    private CrossingState() {
    }

    /** The neutral state the message describes. */
    public static AppSpec decode(final byte[] message) {
        final ByteBuffer in = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC || in.getInt() != 3) {
            throw new IllegalArgumentException("not a version 3 state message");
        }
        final int standbys = in.getInt();
        final long acceptable = in.getLong();
        final int warmups = in.getInt();
        final long probing = in.getLong();
        final String rackStrategy = RACK_STRATEGIES[in.get()];
        in.getInt();
        in.getInt();
        final int[] tagRefs = new int[in.getInt()];
        for (int k = 0; k < tagRefs.length; k++) {
            tagRefs[k] = in.getInt();
        }
        final String[] strings = new String[in.getInt()];
        for (int s = 0; s < strings.length; s++) {
            final byte[] utf8 = new byte[in.getInt()];
            in.get(utf8);
            strings[s] = new String(utf8, StandardCharsets.UTF_8);
        }
        final List<String> tagKeys = new ArrayList<>();
        for (final int ref : tagRefs) {
            tagKeys.add(strings[ref]);
        }
        final List<TaskSpec> tasks = new ArrayList<>();
        for (int t = in.getInt(); t > 0; t--) {
            final int subtopology = in.getInt();
            final int partition = in.getInt();
            final boolean stateful = in.get() == 1;
            final long endOffset = in.getLong();
            in.getLong(); // the task's input offsets now
            tasks.add(new TaskSpec(subtopology, partition, stateful, endOffset, strings(in, strings),
                strings(in, strings)));
        }
        final List<ClientSpec> clients = new ArrayList<>();
        for (int c = in.getInt(); c > 0; c--) {
            final int capacity = in.getInt();
            final int rack = in.getInt();
            in.getInt();
            final SortedMap<String, String> tags = new TreeMap<>();
            for (int k = in.getInt(); k > 0; k--) {
                tags.put(strings[in.getInt()], strings[in.getInt()]);
            }
            final SortedSet<Integer> prevActive = indices(in);
            final SortedSet<Integer> prevStandby = indices(in);
            final SortedMap<Integer, Long> reported = new TreeMap<>();
            for (int k = in.getInt(); k > 0; k--) {
                reported.put(in.getInt(), in.getLong());
            }
            clients.add(new ClientSpec(capacity, rack < 0 ? null : strings[rack], tags, prevActive, prevStandby,
                reported));
        }
        // The leader's memory is not part of a neutral state: the observed restore rate, the input elapsed time, each
        // task's input offsets then.
        in.getLong();
        in.getLong();
        tasks.forEach(t -> in.getLong());
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " bytes after the leader's memory");
        }
        return new AppSpec(standbys, acceptable, warmups, probing, tagKeys, rackStrategy, tasks, clients);
    }

    private static List<String> strings(final ByteBuffer in, final String[] strings) {
        final List<String> out = new ArrayList<>();
        for (int k = in.getInt(); k > 0; k--) {
            out.add(strings[in.getInt()]);
        }
        return out;
    }

    private static SortedSet<Integer> indices(final ByteBuffer in) {
        final SortedSet<Integer> out = new TreeSet<>();
        for (int k = in.getInt(); k > 0; k--) {
            out.add(in.getInt());
        }
        return out;
    }
}
