package io.smoothscale.kafka.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.TaskId;

/**
 * An instance's side of the run's timeline: one {@code EVENT <epoch ms> <kind> …} line on standard output per
 * state change, restoration of an active (start with the changelog offsets, end with the records), change of the
 * instance's active and standby tasks (sampled every 100 ms), a replica's first catching up to within
 * {@code acceptable.recovery.lag} (records loaded, milliseconds taken), and, once a second, the changelog records
 * its standbys and warm-ups loaded since the last such line. {@link TimelineReport} turns the lines of all instances
 * into JSON.
 */
final class Timeline {
    private Timeline() {
    }

    /** Prints this instance's events from now on; the sampler stops with the JVM. */
    static void attach(final KafkaStreams streams) {
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(final TopicPartition partition, final String store, final long start,
                                       final long end) {
                event("restore-start", partition.partition() + " " + start + " " + end);
            }

            @Override
            public void onBatchRestored(final TopicPartition partition, final String store, final long batchEnd,
                                        final long records) {
                // the end event carries the total
            }

            @Override
            public void onRestoreEnd(final TopicPartition partition, final String store, final long records) {
                event("restore-end", partition.partition() + " " + records);
            }
        });
        final AtomicLong replicaRecords = new AtomicLong();
        final Map<TopicPartition, long[]> catchingUp = new ConcurrentHashMap<>();
        streams.setStandbyUpdateListener(new StandbyUpdateListener() {
            @Override
            public void onUpdateStart(final TopicPartition partition, final String store, final long start) {
                catchingUp.put(partition, new long[] {System.currentTimeMillis(), start});
            }

            @Override
            public void onBatchLoaded(final TopicPartition partition, final String store, final TaskId task,
                                      final long batchEnd, final long batchSize, final long endOffset) {
                replicaRecords.addAndGet(batchSize);
                final long[] began = catchingUp.get(partition);
                if (began != null && endOffset - batchEnd <= CountApp.ACCEPTABLE_RECOVERY_LAG) {
                    catchingUp.remove(partition);
                    event("replica-caught-up", partition.partition() + " " + (batchEnd - began[1]) + " "
                        + (System.currentTimeMillis() - began[0]));
                }
            }

            @Override
            public void onUpdateSuspended(final TopicPartition partition, final String store, final long offset,
                                          final long endOffset, final SuspendReason reason) {
                // the task moved or was promoted; nothing to count
            }
        });
        final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "timeline");
            t.setDaemon(true);
            return t;
        });
        final String[] last = {""};
        sampler.scheduleAtFixedRate(() -> {
            try {
                final List<ThreadMetadata> threads = List.copyOf(streams.metadataForLocalThreads());
                final String now = "active=" + ids(threads, true) + " standby=" + ids(threads, false);
                if (!now.equals(last[0])) {
                    last[0] = now;
                    event("tasks", now);
                }
            } catch (final RuntimeException notRunning) {
                // between states; sample again
            }
        }, 0, Duration.ofMillis(100).toMillis(), TimeUnit.MILLISECONDS);
        sampler.scheduleAtFixedRate(() -> {
            final long loaded = replicaRecords.getAndSet(0);
            if (loaded > 0) {
                event("replica-records", Long.toString(loaded));
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    private static String ids(final List<ThreadMetadata> threads, final boolean active) {
        final Set<String> ids = new TreeSet<>();
        for (final ThreadMetadata t : threads) {
            (active ? t.activeTasks() : t.standbyTasks()).forEach(task -> ids.add(task.taskId().toString()));
        }
        return ids.stream().collect(Collectors.joining(","));
    }

    /** Prints one event line, now. */
    static synchronized void event(final String kind, final String fields) {
        System.out.println("EVENT " + System.currentTimeMillis() + " " + kind + " " + fields);
        System.out.flush();
    }
}
