package io.smoothscale.kafka.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smoothscale.kafka.HandoutCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.streams.processor.TaskId;

/**
 * One live scenario on the real broker: {@link CountApp} instances as their own processes ({@code i0},
 * {@code i1}, …), a {@link Workload} at a {@link Load}, the input's {@link Backlog}, the events the test scripts
 * (in the simulator's kinds), and at the end the checks and the timeline report
 * ({@code target/e2e/SCENARIO-ASSIGNOR.json}).
 *
 * <p>Checks: every key's committed count equals what was produced; when the group has settled after each event,
 * the assignment the instances themselves report (their active and standby tasks) passes {@link HandoutCheck};
 * with our assignor, every assignment Kafka handed out passes it too ({@code handout} events of the leader), and
 * with {@code kip441} Kafka's own assignor computes the same plan on every live state, unless its plan there
 * depends on hash order ({@code kafka-agreement} events).
 */
final class LiveRun implements AutoCloseable {
    /** The steady write rate, records per second over all keys. */
    static final int PRODUCE_PER_SECOND = 300;
    /** Records written before the first instance starts: the state the instances begin with. */
    static final int PRELOAD = 24_000;

    /**
     * What a run writes and what processing a record costs.
     *
     * @param perSecond the steady write rate, records per second over all keys
     * @param preload records written before the first instance starts: the state the instances begin with
     * @param costMicros each record's processing cost ({@link ProcessingCost}; 0: none)
     */
    record Load(int perSecond, int preload, long costMicros) {
        /** The scale-out's and the churn's load: cheap records, well within what any instance processes. */
        static final Load STEADY = new Load(PRODUCE_PER_SECOND, PRELOAD, 0);

        /** A backlog of at most this (one second of input) counts as drained. */
        long drainedBelow() {
            return perSecond;
        }
    }

    private final String scenario;
    private final String assignor;
    private final String bootstrap;
    private final String app;
    private final Workload load;
    private final Map<String, String> settings;
    private final Load rate;
    private final List<Instance> instances = new ArrayList<>();
    private final List<TimelineReport.Scripted> scripted = new ArrayList<>();
    private final int initial;
    private long start;
    private long changelogAtStart;
    private Backlog backlog;

    /** Creates the topics, preloads them and starts {@code initial} instances, waiting until they run. */
    LiveRun(final String scenario, final String assignor, final String bootstrap, final int initial) throws Exception {
        this(scenario, assignor, bootstrap, initial, Map.of());
    }

    /** As {@link #LiveRun(String, String, String, int)}, each instance with the further Streams {@code settings}. */
    LiveRun(final String scenario, final String assignor, final String bootstrap, final int initial,
            final Map<String, String> settings) throws Exception {
        this(scenario, assignor, bootstrap, initial, Load.STEADY, settings);
    }

    /**
     * Creates the topics, preloads them and starts {@code initial} instances, waiting until they run and have
     * counted the preload; then starts the producer and the backlog's readings.
     *
     * @param settings further Streams settings of every instance; the load's cost is added to them
     *     ({@link ProcessingCost#SETTING})
     */
    LiveRun(final String scenario, final String assignor, final String bootstrap, final int initial, final Load rate,
            final Map<String, String> settings) throws Exception {
        this.scenario = scenario;
        this.assignor = assignor;
        this.bootstrap = bootstrap;
        this.initial = initial;
        this.rate = rate;
        final Map<String, String> all = new TreeMap<>(settings);
        if (rate.costMicros() > 0) {
            all.put(ProcessingCost.SETTING, Long.toString(rate.costMicros()));
        }
        this.settings = Map.copyOf(all);
        this.app = "smoothscale-" + scenario + "-" + assignor + "-" + UUID.randomUUID();
        this.load = new Workload(bootstrap, app);
        load.preload(rate.preload());
        for (int i = 0; i < initial; i++) {
            add();
        }
        for (final Instance instance : instances) {
            instance.awaitRunning(Duration.ofSeconds(90));
        }
        load.awaitExactCounts(Duration.ofSeconds(90));
        awaitSettledAndValid();
        start = System.currentTimeMillis();
        changelogAtStart = load.changelogRecords();
        backlog = new Backlog(bootstrap, app, load.input(), Workload.PARTITIONS);
        load.startProducing(rate.perSecond());
    }

    private Instance add() throws IOException {
        final Instance instance = Instance.start(bootstrap, app, load.input(), load.output(), assignor, settings);
        instances.add(instance);
        return instance;
    }

    /** {@code count} new instances join; waits until they run. */
    void scaleOut(final int count) throws Exception {
        scripted.add(new TimelineReport.Scripted(System.currentTimeMillis(), "scale_out", "count=" + count));
        final List<Instance> added = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            added.add(add());
        }
        for (final Instance instance : added) {
            instance.awaitRunning(Duration.ofSeconds(90));
        }
    }

    /** Kills instance {@code i} (SIGKILL). */
    void crash(final int i) throws InterruptedException {
        scripted.add(new TimelineReport.Scripted(System.currentTimeMillis(), "crash", "i" + i));
        instances.get(i).crash();
    }

    /** Restarts instance {@code i} on the state it left; waits until it runs. */
    void restart(final int i) throws Exception {
        scripted.add(new TimelineReport.Scripted(System.currentTimeMillis(), "restart", "i" + i));
        instances.get(i).restart();
        instances.get(i).awaitRunning(Duration.ofSeconds(90));
    }

    /** Stops instance {@code i} cleanly (the simulator's scale-in of one member). */
    void stop(final int i) throws Exception {
        scripted.add(new TimelineReport.Scripted(System.currentTimeMillis(), "scale_in", "i" + i));
        instances.get(i).stop();
    }

    /** Waits {@code duration} while the producer writes. */
    void hold(final Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    /**
     * Waits until the group has settled (every live instance RUNNING, no task list changed for 3 s), then checks
     * the assignment the instances report with {@link HandoutCheck}.
     */
    void awaitSettledAndValid() throws Exception {
        final long deadline = System.currentTimeMillis() + 90_000;
        while (true) {
            final Optional<List<List<TimelineReport.Event>>> settled = settled();
            if (settled.isPresent()) {
                final Map<TaskId, Boolean> tasks = new TreeMap<>();
                IntStream.range(0, Workload.PARTITIONS).forEach(p -> tasks.put(new TaskId(0, p), true));
                final HandoutCheck check = new HandoutCheck(1, CountApp.MAX_WARMUP_REPLICAS, tasks);
                for (final List<TimelineReport.Event> events : settled.get()) {
                    final String fields = lastTasks(events);
                    check.client(ids(fields, "active="), ids(fields, "standby="));
                }
                final Optional<String> violations = check.violations();
                assertEquals(Optional.empty(), violations, "the instances' own assignment");
                return;
            }
            assertTrue(System.currentTimeMillis() < deadline, "the group did not settle within 90 s");
            Thread.sleep(500);
        }
    }

    /** The live instances' events when all run and none changed its tasks or state in the last 3 s. */
    private Optional<List<List<TimelineReport.Event>>> settled() throws IOException {
        final List<List<TimelineReport.Event>> live = new ArrayList<>();
        final long now = System.currentTimeMillis();
        if (!scripted.isEmpty()) {
            final TimelineReport.Scripted last = scripted.get(scripted.size() - 1);
            // A crash is noticed only after the session timeout: until then the group looks settled.
            final long quiet = last.kind().equals("crash") ? CountApp.SESSION_TIMEOUT_MS + 3_000 : 3_000;
            if (now - last.at() < quiet) {
                return Optional.empty();
            }
        }
        for (final Instance instance : instances) {
            if (!instance.alive()) {
                continue;
            }
            final List<TimelineReport.Event> events = TimelineReport.events("", instance.currentOutput());
            final Optional<TimelineReport.Event> state = events.stream().filter(e -> e.kind().equals("state"))
                .reduce((a, b) -> b);
            final long last = events.stream().filter(e -> e.kind().equals("state") || e.kind().equals("tasks"))
                .mapToLong(TimelineReport.Event::at).max().orElse(now);
            if (state.isEmpty() || !state.get().fields().endsWith(" RUNNING") || now - last < 3_000) {
                return Optional.empty();
            }
            live.add(events);
        }
        return Optional.of(live);
    }

    /** Every event so far of every instance, named {@code i0}, {@code i1}, …, in time order. */
    List<TimelineReport.Event> events() throws IOException {
        final List<TimelineReport.Event> events = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            events.addAll(instances.get(i).events("i" + i));
        }
        events.sort(java.util.Comparator.comparingLong(TimelineReport.Event::at));
        return events;
    }

    /** The live instances' active tasks as they last reported them, by instance name. */
    Map<String, List<TaskId>> actives() throws IOException {
        final Map<String, List<TaskId>> out = new TreeMap<>();
        for (int i = 0; i < instances.size(); i++) {
            if (instances.get(i).alive()) {
                out.put("i" + i, ids(lastTasks(TimelineReport.events("", instances.get(i).currentOutput())),
                    "active="));
            }
        }
        return out;
    }

    /** When the test scripted its first event (epoch ms). */
    long firstScripted() {
        return scripted.get(0).at();
    }

    /** The input's backlog, read since the producer started. */
    Backlog backlog() {
        return backlog;
    }

    /** The fields of the last {@code tasks} event (empty when there is none). */
    private static String lastTasks(final List<TimelineReport.Event> events) {
        return events.stream().filter(e -> e.kind().equals("tasks")).reduce((a, b) -> b)
            .map(TimelineReport.Event::fields).orElse("");
    }

    /** The tasks listed after {@code key} in a {@code tasks} event's fields. */
    private static List<TaskId> ids(final String fields, final String key) {
        return TimelineReport.parse(fields, key).stream().sorted().map(TaskId::parse).toList();
    }

    /**
     * Stops the producer, waits for exact counts and a settled, valid group, checks every handout, and writes the
     * report; returns its JSON.
     */
    String finish() throws Exception {
        backlog.stop();
        load.stopProducing();
        assertEquals(load.producedTotal(), load.inputRecords(), "records in the input topic");
        load.awaitExactCounts(Duration.ofSeconds(90));
        awaitSettledAndValid();
        final long end = System.currentTimeMillis();
        final List<TimelineReport.Event> events = events();
        final Map<String, Long> config = new LinkedHashMap<>();
        config.put("instances", (long) initial);
        config.put("threads", 1L);
        config.put("tasks", (long) Workload.PARTITIONS);
        config.put("num_standby_replicas", 1L);
        config.put("acceptable_recovery_lag", CountApp.ACCEPTABLE_RECOVERY_LAG);
        config.put("max_warmup_replicas", (long) CountApp.MAX_WARMUP_REPLICAS);
        config.put("probing_rebalance_interval_ms", CountApp.PROBING_MS);
        config.put("session_timeout_ms", (long) CountApp.SESSION_TIMEOUT_MS);
        config.put("commit_interval_ms", (long) CountApp.COMMIT_INTERVAL_MS);
        config.put("produce_per_second", (long) rate.perSecond());
        config.put("preload_records", (long) rate.preload());
        config.put("process_cost_us", rate.costMicros());
        config.put("produced_records", load.producedTotal());
        final Path report = Path.of("target", "e2e", scenario + "-" + assignor + ".json");
        final long lastScripted = scripted.isEmpty() ? start : scripted.get(scripted.size() - 1).at();
        final String json = TimelineReport.write(report, scenario, assignor, config, scripted, events, start, end,
            IntStream.range(0, Workload.PARTITIONS).mapToObj(p -> "0_" + p).toList(),
            new long[] {changelogAtStart, load.changelogRecords()},
            List.of(backlog.json(start, lastScripted, rate.drainedBelow())));
        final List<String> handouts = events.stream().filter(e -> e.kind().equals("handout"))
            .map(TimelineReport.Event::fields).toList();
        if (!assignor.equals("kafka")) {
            assertTrue(handouts.stream().anyMatch(h -> h.startsWith("valid")), "no handout was checked");
        }
        assertTrue(handouts.stream().allMatch(h -> h.startsWith("valid")), "handouts: " + handouts);
        final List<String> agreement = events.stream().filter(e -> e.kind().equals("kafka-agreement"))
            .map(TimelineReport.Event::fields).toList();
        assertTrue(agreement.stream().allMatch(a -> a.equals("agrees") || a.equals("order-undefined")),
            "Kafka's HighAvailabilityTaskAssignor on the same live state: " + agreement);
        System.out.println("live " + scenario + " (" + assignor + "): " + load.producedTotal()
            + " records counted exactly once; " + handouts.size() + " handouts valid; Kafka's own assignor on the same"
            + " states: " + agreement + "; backlog: peak " + backlog.peak().map(Backlog.Sample::records).orElse(0L)
            + " records, drained (at most " + rate.drainedBelow() + ") " + backlog.drainedAfter(lastScripted,
                rate.drainedBelow()).map(s -> String.format(java.util.Locale.ROOT, "%.1f s",
                    Math.max(0, s.at() - lastScripted) / 1000.0)).orElse("never") + " after the last event; timeline in "
            + report);
        return json;
    }

    @Override
    public void close() throws Exception {
        try {
            for (final Instance instance : instances) {
                instance.stop();
            }
        } finally {
            try {
                if (backlog != null) {
                    backlog.close();
                }
            } finally {
                load.close();
            }
        }
    }
}
