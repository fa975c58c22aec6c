package io.smoothscale.kafka.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The application's backlog over a run: every {@link #EVERY_MS} ms, the records of its input topic the group has
 * not committed yet (each partition's end offset less the group's committed offset, 0 when it has none, summed),
 * read with an Admin client of its own from a background thread. The input's producer is not transactional, so an
 * end offset counts records only. A sample the broker did not answer within a second is counted and left out. Each
 * sample is printed too ({@code backlog <epoch ms> <records>}), so a failed run's output shows the curve.
 */
final class Backlog implements AutoCloseable {
    /** One reading: when (epoch ms, as the reading began) and the records behind. */
    record Sample(long at, long records) {
    }

    /** How often it reads. */
    static final long EVERY_MS = 500;

    private final Admin admin;
    private final String group;
    private final Map<TopicPartition, OffsetSpec> ends = new TreeMap<>(
        (a, b) -> Integer.compare(a.partition(), b.partition()));
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService reader;
    private long missed;

    /** Starts reading the backlog of {@code group} on {@code topic}'s {@code partitions} partitions. */
    Backlog(final String bootstrap, final String group, final String topic, final int partitions) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        this.group = group;
        for (int p = 0; p < partitions; p++) {
            ends.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        reader = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "backlog");
            t.setDaemon(true);
            return t;
        });
        reader.scheduleWithFixedDelay(this::read, 0, EVERY_MS, TimeUnit.MILLISECONDS);
    }

    private void read() {
        final long at = System.currentTimeMillis();
        try {
            final Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(ends).all().get(1, TimeUnit.SECONDS);
            final Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(1, TimeUnit.SECONDS);
            long behind = 0;
            for (final Map.Entry<TopicPartition, ListOffsetsResultInfo> e : end.entrySet()) {
                final OffsetAndMetadata done = committed.get(e.getKey());
                behind += e.getValue().offset() - (done == null ? 0 : done.offset());
            }
            synchronized (this) {
                samples.add(new Sample(at, behind));
            }
            System.out.println("backlog " + at + " " + behind);
        } catch (final InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (final Exception unanswered) {
            synchronized (this) {
                missed++;
            }
        }
    }

    /** Every sample so far, in time order. */
    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The last sample, if any. */
    synchronized Optional<Sample> latest() {
        return samples.isEmpty() ? Optional.empty() : Optional.of(samples.get(samples.size() - 1));
    }

    /** The largest sample, the first of equals, if any. */
    synchronized Optional<Sample> peak() {
        return samples.stream().reduce((a, b) -> b.records() > a.records() ? b : a);
    }

    /**
     * When the backlog came down to at most {@code threshold} records for good after {@code after} (epoch ms):
     * the first sample from {@code after} on from which every later sample is at most that, if the last is.
     */
    synchronized Optional<Sample> drainedAfter(final long after, final long threshold) {
        Sample since = null;
        for (final Sample s : samples) {
            if (s.at() < after) {
                continue;
            }
            if (s.records() > threshold) {
                since = null;
            } else if (since == null) {
                since = s;
            }
        }
        return Optional.ofNullable(since);
    }

    /** Whether the backlog has been at most {@code threshold} since {@code after} for at least {@code stay}. */
    synchronized boolean drainedFor(final long after, final long threshold, final Duration stay) {
        final Optional<Sample> since = drainedAfter(after, threshold);
        return since.isPresent() && samples.get(samples.size() - 1).at() - since.get().at() >= stay.toMillis();
    }

    /**
     * The report's {@code backlog} member: the threshold, the peak, the backlog at the last event, when it drained
     * for good after it (null if it had not), the samples missed and every sample, times in ms from {@code start}.
     */
    synchronized String json(final long start, final long lastEvent, final long threshold) {
        final String peak = peak().map(p -> "{\"records\": " + p.records() + ", \"t_ms\": " + (p.at() - start) + "}")
            .orElse("null");
        final String atEvent = samples.stream().filter(s -> s.at() <= lastEvent).reduce((a, b) -> b)
            .map(s -> Long.toString(s.records())).orElse("null");
        final String drained = drainedAfter(lastEvent, threshold).map(s -> Long.toString(Math.max(0, s.at() - lastEvent)))
            .orElse("null");
        return "\"backlog\": {\"threshold_records\": " + threshold + ", \"every_ms\": " + EVERY_MS
            + ", \"peak\": " + peak + ", \"records_at_last_event\": " + atEvent
            + ", \"drained_ms_after_last_event\": " + drained + ", \"missed_samples\": " + missed
            + ", \"samples\": [" + samples.stream().map(s -> "[" + (s.at() - start) + ", " + s.records() + "]")
                .collect(Collectors.joining(", ")) + "]}";
    }

    /** Stops reading; the samples stay. */
    void stop() throws InterruptedException {
        reader.shutdownNow();
        reader.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Stops reading and closes the Admin client. */
    @Override
    public void close() throws InterruptedException {
        stop();
        admin.close(Duration.ofSeconds(10));
    }
}
