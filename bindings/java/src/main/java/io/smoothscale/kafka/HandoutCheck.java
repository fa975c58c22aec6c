package io.smoothscale.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.TaskId;

/**
 * Checks an assignment as Kafka Streams hands it to its members, whichever assignor computed it (ours or Kafka's
 * own), with smoothscale's {@code validate}: every task active on exactly one client, no client given a task twice
 * or in two roles, standbys only of stateful tasks, at least {@code min(num.standby.replicas, clients - 1)}
 * standbys per stateful task, and at most {@code max.warmup.replicas} standbys beyond that (Kafka sends a warm-up
 * as a standby, so a task's standbys past the configured number are its warm-ups). The check runs in the native
 * library; the message it sends is the handout message of {@code docs/crossing-format.md}.
 *
 * <pre>{@code
 * HandoutCheck check = new HandoutCheck(1, 2, statefulByTask);
 * check.client(activeOfProcess1, standbyOfProcess1);
 * check.client(activeOfProcess2, standbyOfProcess2);
 * check.violations().ifPresent(v -> log.error("invalid assignment: {}", v));
 * }</pre>
 */
public final class HandoutCheck {
    private static final int MAGIC = 0x48534D53; // "SMSH"
    private static final int VERSION = 1;

    private final int numStandbyReplicas;
    private final int maxWarmupReplicas;
    private final SortedMap<TaskId, Boolean> tasks;
    private final Map<TaskId, Integer> index = new TreeMap<>();
    private final List<Collection<TaskId>[]> clients = new ArrayList<>();

    /**
     * A check of an assignment of {@code statefulByTask}'s tasks.
     *
     * @param numStandbyReplicas the application's {@code num.standby.replicas}
     * @param maxWarmupReplicas the application's {@code max.warmup.replicas}
     * @param statefulByTask every task of the application, and whether it is stateful
     */
    public HandoutCheck(final int numStandbyReplicas, final int maxWarmupReplicas,
                        final Map<TaskId, Boolean> statefulByTask) {
        this.numStandbyReplicas = numStandbyReplicas;
        this.maxWarmupReplicas = maxWarmupReplicas;
        this.tasks = new TreeMap<>(statefulByTask);
        int i = 0;
        for (final TaskId task : tasks.keySet()) {
            index.put(task, i++);
        }
    }

    /**
     * Adds the next client (one Kafka Streams process) with what it was handed; a task listed twice stays listed
     * twice (two threads of one process given the same task is a violation).
     *
     * @param active the active tasks of all the process's consumers
     * @param standby the standby tasks (standbys and warm-ups) of all the process's consumers
     * @return this check
     * @throws IllegalArgumentException a task that is not one of the application's
     */
    @SuppressWarnings("unchecked")
    public HandoutCheck client(final Collection<TaskId> active, final Collection<TaskId> standby) {
        for (final Collection<TaskId> list : List.of(active, standby)) {
            for (final TaskId task : list) {
                if (!index.containsKey(task)) {
                    throw new IllegalArgumentException("client " + clients.size() + " is handed task " + task
                        + ", which is not one of the application's " + tasks.size() + " tasks");
                }
            }
        }
        clients.add(new Collection[] {List.copyOf(active), List.copyOf(standby)});
        return this;
    }

    /**
     * Runs the check.
     *
     * @return the violations in one line ({@code ; }-separated), or empty when the assignment keeps every rule;
     *     clients are named by the order they were added, {@code c0}, {@code c1}, … (zero-padded to one
     *     width from ten clients on)
     * @throws SmoothscaleException the native library failed
     */
    public Optional<String> violations() {
        return Optional.ofNullable(NativeBridge.checkHandout(message()));
    }

    /** The handout message (docs/crossing-format.md; held to {@code bindings/crossing/handout.bin}). */
    byte[] message() {
        final LittleEndianWriter out = new LittleEndianWriter(24 + 9 * tasks.size() + 8 * clients.size());
        out.i32(MAGIC);
        out.i32(VERSION);
        out.i32(numStandbyReplicas);
        out.i32(maxWarmupReplicas);
        out.i32(tasks.size());
        for (final Map.Entry<TaskId, Boolean> task : tasks.entrySet()) {
            out.i32(task.getKey().subtopology());
            out.i32(task.getKey().partition());
            out.u8(task.getValue() ? 1 : 0);
        }
        out.i32(clients.size());
        for (final Collection<TaskId>[] lists : clients) {
            for (final Collection<TaskId> list : lists) {
                out.i32(list.size());
                for (final TaskId task : list) {
                    out.i32(index.get(task));
                }
            }
        }
        return out.toByteArray();
    }
}
