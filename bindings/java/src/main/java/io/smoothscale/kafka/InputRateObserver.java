package io.smoothscale.kafka;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group leader's observation of its tasks' input, for the input rates the core reads as their load
 * ({@code Task::input_rate}, read by {@code smooth}), when {@code smoothscale.input.rates} is on. At each rebalance
 * it lists the latest end offsets of every task's source partitions ({@link TaskInfo#topicPartitions()} that are
 * {@link TaskTopicPartition#isSource()}) and sums them per task; it sends those sums, the sums of an earlier listing
 * it kept and the time between (a {@link Reading}) in the state message (docs/crossing-format.md), and the core
 * applies the rule ({@code smoothscale::input_rate::observe}) when it reads the message: the rule is not here. The
 * time is the assignor's clock when a listing answered.
 *
 * <p>Which earlier listing is the core's sample rule ({@code smoothscale::input_rate}'s module documentation; the
 * simulator's leader keeps the same): the observer keeps samples (a listing's time and sums); at a rebalance it
 * observes from the newest sample at least {@link #WINDOW_MS} old (none: nothing observed), drops the samples older
 * than that one, and keeps this listing as a sample if it is at least {@link #WINDOW_MS} newer than its newest one
 * (or it has none). A cooperative second round a moment after the first then observes from the same sample as the
 * first, and after the first {@link #WINDOW_MS} every rebalance has a rate, over at least that long. It keeps at most
 * two samples. A sample later than the clock now (the clock went back) is dropped.
 *
 * <p>Kafka Streams creates and configures a new {@code TaskAssignor} at every rebalance (its
 * {@code AssignorConfiguration.customTaskAssignor()} instantiates {@code task.assignor.class} each time), so this
 * memory cannot live in the assignor: one observer per application ({@code application.id} and
 * {@code bootstrap.servers}) lives in this class for the life of the JVM ({@link #forApplication}), shared by the
 * application's Streams instances in the JVM and by whichever of them leads the group next. End offsets are the
 * cluster's, not a process's, so what one leader listed is what another would have listed then.
 *
 * <p>Its Admin client is its own, built from the Streams configuration the assignor is given (the settings
 * {@link AdminClientConfig} names: bootstrap servers, security, timeouts), created at the first listing and reused;
 * {@code TaskAssignor} has no close hook, and the client's network thread is a daemon. A change of those settings
 * closes it, and the next listing creates another. A listing waits at most {@link #LIST_TIMEOUT}.
 *
 * <p>Nothing here throws out of the assignor: when the option is off, no Admin client can be made, or the listing
 * fails or does not answer in time, no input offsets are sent and the core weighs tasks by count; a task whose
 * source partitions did not all answer is unknown alone. One line is logged when the observer's state changes (on,
 * off, partly listed, failing for a new reason), never at every rebalance.
 */
final class InputRateObserver {
    /** How long a listing of end offsets may take. */
    static final Duration LIST_TIMEOUT = Duration.ofSeconds(3);
    /**
     * The shortest time between two samples that gives a rate, in milliseconds: the core's
     * ({@code smoothscale::input_rate::MIN_WINDOW_MS}, {@link NativeBridge#inputRateWindowMs()}).
     */
    static final long WINDOW_MS = NativeBridge.inputRateWindowMs();
    private static final Logger LOG = LoggerFactory.getLogger(InputRateObserver.class);
    /** The observers, by application: see {@link #forApplication}. */
    private static final Map<String, InputRateObserver> BY_APPLICATION = new TreeMap<>();

    private final String application;
    private EndOffsets source;
    /** The samples kept, oldest first. */
    private final List<Sample> samples = new ArrayList<>();
    private String state = "";

    /**
     * Where end offsets come from: Kafka's Admin client ({@link AdminEndOffsets}), or a stand-in in tests.
     */
    interface EndOffsets {
        /**
         * The latest end offset of each of {@code partitions} that answered.
         *
         * @throws Exception when none answered (the first cause)
         */
        Map<TopicPartition, Long> latest(Set<TopicPartition> partitions) throws Exception;

        /** Releases what the source holds (the Admin client); it is not used again. */
        default void close() {
        }
    }

    /**
     * A listing kept for later rebalances to observe from.
     *
     * @param at the assignor's clock when it answered
     * @param sums each task's end offset sum then (a task absent: unknown)
     */
    private record Sample(Instant at, SortedMap<TaskId, Long> sums) {
    }

    /**
     * What the leader sends the core for the input rates of one rebalance: per task, the end offset sum of its
     * source partitions at the sample it observes from and now, and the milliseconds between; a task absent from a
     * map, and an elapsed time of −1, are unknown.
     *
     * @param elapsedMs milliseconds since the sample (at least {@link #WINDOW_MS}), or −1 when there is none
     * @param thenSums the sums at the sample
     * @param nowSums the sums now
     */
    record Reading(long elapsedMs, SortedMap<TaskId, Long> thenSums, SortedMap<TaskId, Long> nowSums) {
        /** Nothing observed: every task's input rate unknown. */
        static final Reading NONE = new Reading(-1, Collections.emptySortedMap(), Collections.emptySortedMap());

        /** The task's sum at the sample, or −1. */
        long then(final TaskId task) {
            return thenSums.getOrDefault(task, -1L);
        }

        /** The task's sum now, or −1. */
        long now(final TaskId task) {
            return nowSums.getOrDefault(task, -1L);
        }
    }

    /** An observer of {@code application} (for the log) whose end offsets come from {@code source}. */
    InputRateObserver(final String application, final EndOffsets source) {
        this.application = application;
        this.source = source;
    }

    /**
     * The observer of the application {@code streamsConfig} configures: one per {@code application.id} and
     * {@code bootstrap.servers} in the JVM, whose Admin client follows the latest configuration.
     */
    static InputRateObserver forApplication(final Map<String, ?> streamsConfig) {
        final String application = String.valueOf(streamsConfig.get(StreamsConfig.APPLICATION_ID_CONFIG));
        final String key = application + " @ " + streamsConfig.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
        final Map<String, Object> adminConfig = adminConfig(application, streamsConfig);
        final InputRateObserver observer;
        synchronized (BY_APPLICATION) {
            observer = BY_APPLICATION.computeIfAbsent(key,
                k -> new InputRateObserver(application, new AdminEndOffsets(adminConfig, LIST_TIMEOUT)));
        }
        observer.useAdmin(adminConfig);
        return observer;
    }

    /**
     * The Admin client's settings: those of {@code streamsConfig} that {@link AdminClientConfig} names, with a
     * client id of the assignor's own.
     */
    static Map<String, Object> adminConfig(final String application, final Map<String, ?> streamsConfig) {
        final Map<String, Object> out = new TreeMap<>();
        for (final String name : AdminClientConfig.configNames()) {
            final Object value = streamsConfig.get(name);
            if (value != null) {
                out.put(name, value);
            }
        }
        out.put(AdminClientConfig.CLIENT_ID_CONFIG, application + "-smoothscale-input-rates");
        return out;
    }

    /** Keeps the Admin client when its settings are {@code adminConfig}, else closes it for a new one. */
    private synchronized void useAdmin(final Map<String, Object> adminConfig) {
        if (source instanceof AdminEndOffsets admin && !admin.config.equals(adminConfig)) {
            admin.close();
            source = new AdminEndOffsets(adminConfig, admin.timeout);
        }
    }

    /** Input rates are off: nothing is listed; logs that once. */
    synchronized void off() {
        tell("off", false, "smoothscale input rates are off (" + SmoothscaleConfig.INPUT_RATES
            + " is not true): tasks weigh by count");
    }

    /**
     * Lists the end offsets of {@code app}'s source partitions and sums them per task, at the time on {@code clock};
     * returns them with the sample the rule picks, and keeps or drops samples by it (see the class). Never throws: a
     * failed listing is {@link Reading#NONE}, and the samples stay as they were.
     */
    synchronized Reading observe(final ApplicationState app, final Clock clock) {
        final SortedMap<TaskId, List<TopicPartition>> sources;
        final Map<TopicPartition, Long> listed;
        try {
            sources = sources(app);
            final Set<TopicPartition> partitions = Collections.newSetFromMap(new LinkedHashMap<>());
            sources.values().forEach(partitions::addAll);
            listed = partitions.isEmpty() ? Map.of() : source.latest(partitions);
            final Instant now = clock.instant();
            final SortedMap<TaskId, Long> sums = sums(sources, listed);
            final int missing = (int) partitions.stream().filter(p -> !listed.containsKey(p)).count();
            if (missing == 0) {
                tell("on", false, "smoothscale input rates are on: listing the end offsets of " + partitions.size()
                    + " source partitions of " + sources.size() + " tasks at each rebalance");
            } else {
                tell("partial", true, "smoothscale input rates: the end offsets of " + missing + " of "
                    + partitions.size() + " source partitions could not be listed; their tasks weigh by count");
            }
            return sample(now, sums);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(e);
        } catch (final Exception e) {
            return failed(e);
        }
    }

    /** The reading of a listing at {@code now} with {@code sums}, keeping or dropping samples by the rule. */
    private Reading sample(final Instant now, final SortedMap<TaskId, Long> sums) {
        samples.removeIf(sample -> sample.at().isAfter(now));
        int base = samples.size() - 1;
        while (base >= 0 && millisBetween(samples.get(base).at(), now) < WINDOW_MS) {
            base--;
        }
        final Reading reading = base < 0 ? new Reading(-1, Collections.emptySortedMap(), sums)
            : new Reading(millisBetween(samples.get(base).at(), now), samples.get(base).sums(), sums);
        samples.subList(0, Math.max(0, base)).clear();
        if (samples.isEmpty() || millisBetween(samples.get(samples.size() - 1).at(), now) >= WINDOW_MS) {
            samples.add(new Sample(now, sums));
        }
        return reading;
    }

    private static long millisBetween(final Instant then, final Instant now) {
        return Duration.between(then, now).toMillis();
    }

    private Reading failed(final Exception e) {
        final StringBuilder why = new StringBuilder(e.toString());
        for (Throwable cause = e.getCause(); cause != null && why.length() < 1_000; cause = cause.getCause()) {
            why.append("; caused by ").append(cause);
        }
        tell("failed " + e.getClass().getName(), true, "smoothscale input rates are unavailable, tasks weigh by count:"
            + " the end offsets of the source partitions could not be listed: " + why);
        return Reading.NONE;
    }

    /** Logs {@code line} when the observer's state becomes {@code next}. */
    private void tell(final String next, final boolean warn, final String line) {
        if (next.equals(state)) {
            return;
        }
        state = next;
        if (warn) {
            LOG.warn("{} (application {})", line, application);
        } else {
            LOG.info("{} (application {})", line, application);
        }
    }

    /** Each task's source partitions, in task order. */
    private static SortedMap<TaskId, List<TopicPartition>> sources(final ApplicationState app) {
        final SortedMap<TaskId, List<TopicPartition>> out = new TreeMap<>();
        for (final Map.Entry<TaskId, TaskInfo> task : app.allTasks().entrySet()) {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final TaskTopicPartition p : task.getValue().topicPartitions()) {
                if (p.isSource()) {
                    partitions.add(p.topicPartition());
                }
            }
            partitions.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            out.put(task.getKey(), partitions);
        }
        return out;
    }

    /**
     * The end offset sum of each task whose source partitions all answered (a task with none, or whose sum
     * overflows, is left out: unknown).
     */
    private static SortedMap<TaskId, Long> sums(final SortedMap<TaskId, List<TopicPartition>> sources,
                                                final Map<TopicPartition, Long> listed) {
        final SortedMap<TaskId, Long> out = new TreeMap<>();
        for (final Map.Entry<TaskId, List<TopicPartition>> task : sources.entrySet()) {
            long sum = 0;
            boolean known = !task.getValue().isEmpty();
            for (final TopicPartition p : task.getValue()) {
                final Long offset = listed.get(p);
                if (offset == null || offset < 0 || sum > Long.MAX_VALUE - offset) {
                    known = false;
                    break;
                }
                sum += offset;
            }
            if (known) {
                out.put(task.getKey(), sum);
            }
        }
        return out;
    }

    /**
     * End offsets from an Admin client of the assignor's own ({@code Admin.listOffsets} with
     * {@link OffsetSpec#latest()}), created at the first listing.
     */
    static final class AdminEndOffsets implements EndOffsets {
        private final Map<String, Object> config;
        private final Duration timeout;
        private Admin admin = null;

        /** A source whose Admin client has the settings {@code config}, each listing bounded by {@code timeout}. */
        AdminEndOffsets(final Map<String, Object> config, final Duration timeout) {
            this.config = Map.copyOf(config);
            this.timeout = timeout;
        }

        @Override
        public synchronized Map<TopicPartition, Long> latest(final Set<TopicPartition> partitions) throws Exception {
            if (admin == null) {
                admin = Admin.create(config);
            }
            final Map<TopicPartition, OffsetSpec> specs = new LinkedHashMap<>();
            partitions.forEach(p -> specs.put(p, OffsetSpec.latest()));
            final ListOffsetsResult result = admin.listOffsets(specs,
                new ListOffsetsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            // The Admin client fails its calls after the timeout; the wait is bounded here too, with a little slack.
            final long deadline = System.nanoTime() + timeout.toNanos() + TimeUnit.MILLISECONDS.toNanos(500);
            final Map<TopicPartition, Long> out = new LinkedHashMap<>();
            Exception first = null;
            for (final TopicPartition p : partitions) {
                try {
                    final long left = Math.max(0, deadline - System.nanoTime());
                    out.put(p, result.partitionResult(p).get(left, TimeUnit.NANOSECONDS).offset());
                } catch (final ExecutionException e) {
                    first = first != null ? first
                        : e.getCause() instanceof Exception cause ? cause : e;
                } catch (final TimeoutException e) {
                    first = first != null ? first : e;
                }
            }
            if (out.isEmpty() && first != null) {
                throw first;
            }
            return out;
        }

        @Override
        public synchronized void close() {
            if (admin != null) {
                admin.close(Duration.ZERO);
                admin = null;
            }
        }
    }
}
