package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.junit.jupiter.api.Test;

/**
 * {@code smoothscale.input.rates}: the key, the leader's samples of its tasks' input offsets across rebalances (each
 * with a new assignor, as Kafka Streams makes one per rebalance) kept by the core's rule, the rates the core reads
 * from them, and the fallback to counts with one log line when the option is off or the end offsets cannot be listed
 * (a real Admin client, pointed where no broker listens).
 */
class InputRatesTest {
    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        private Instant now = T0;

        void advance(final Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(final ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Two stateless tasks, 1_0 and 1_1, each reading partition 0 or 1 of topics in-0 and in-1; two processes. */
    private static ApplicationState app() {
        final int[] fetches = {0};
        final AppStates s = new AppStates()
            .statelessWithRacks(1, 0, List.of(Set.of("r1"), Set.of("r1")), fetches)
            .statelessWithRacks(1, 1, List.of(Set.of("r1"), Set.of("r1")), fetches);
        s.client(0, 1);
        s.client(1, 1);
        return s.build();
    }

    private static TopicPartition tp(final int topic, final int partition) {
        return new TopicPartition("in-" + topic, partition);
    }

    /** A new assignor, as Kafka Streams makes one at every rebalance, configured with {@code configs}. */
    private static SmoothscaleTaskAssignor assignor(final Clock clock, final InputRateObserver observer,
                                                    final Map<String, ?> configs) {
        final SmoothscaleTaskAssignor a = observer == null ? new SmoothscaleTaskAssignor(clock)
            : new SmoothscaleTaskAssignor(clock, observer);
        a.configure(configs);
        return a;
    }

    /** The input rates the core read at {@code a}'s rebalance of {@link #app()}: 1_0's, then 1_1's. */
    private static long[] rebalance(final SmoothscaleTaskAssignor a) {
        a.assign(app());
        return NativeBridge.inputRates(a.lastState().orElseThrow().bytes());
    }

    /** The lines {@code body} logs through slf4j-simple (standard error). */
    private static List<String> logged(final Runnable body) {
        final PrintStream err = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(err);
        }
        final String out = captured.toString(StandardCharsets.UTF_8);
        err.print(out);
        return out.lines().toList();
    }

    private static long count(final List<String> lines, final String text) {
        return lines.stream().filter(l -> l.contains(text)).count();
    }

    private static String application() {
        return "input-rates-test-" + UUID.randomUUID();
    }

    @Test
    void theKeyIsOffUnlessTrueAndABadValueNamesKeyAndValue() {
        final String key = SmoothscaleConfig.INPUT_RATES;
        assertEquals("smoothscale.input.rates", key);
        assertFalse(SmoothscaleConfig.from(Map.of()).inputRates());
        assertFalse(SmoothscaleConfig.from(Map.of(key, false)).inputRates());
        assertFalse(SmoothscaleConfig.from(Map.of(key, "False")).inputRates());
        assertTrue(SmoothscaleConfig.from(Map.of(key, true)).inputRates());
        assertTrue(SmoothscaleConfig.from(Map.of(key, " TRUE ")).inputRates());
        assertEquals("kip441", SmoothscaleConfig.from(Map.of(key, "true")).strategy());
        for (final Object bad : List.of("yes", 1, "")) {
            final ConfigException e = assertThrows(ConfigException.class,
                () -> new SmoothscaleTaskAssignor().configure(Map.of(key, bad)));
            assertEquals("Invalid value " + bad + " for configuration smoothscale.input.rates: must be true or false",
                e.getMessage());
        }
        // A typo of the key is still one, and the message lists both options.
        final ConfigException typo = assertThrows(ConfigException.class,
            () -> SmoothscaleConfig.from(Map.of("smoothscale.input.rate", "true")));
        assertTrue(typo.getMessage().contains("[smoothscale.strategy, smoothscale.input.rates]"), typo.getMessage());
    }

    /**
     * A leader's observer over a stand-in for the Admin client ({@link #offsets}, or a failure while {@link #fail}),
     * on a clock the test moves; the rule tests below are written for the core's 10 s window.
     */
    private static final class Leader {
        private static final Map<String, Object> ON = Map.of(SmoothscaleConfig.INPUT_RATES, "true");
        final Map<TopicPartition, Long> offsets = new HashMap<>();
        final TestClock clock = new TestClock();
        boolean fail = false;
        final InputRateObserver observer = new InputRateObserver("test", partitions -> {
            if (fail) {
                throw new IOException("no broker answered");
            }
            final Map<TopicPartition, Long> answered = new HashMap<>(offsets);
            answered.keySet().retainAll(partitions);
            return answered;
        });

        Leader() {
            assertEquals(Duration.ofSeconds(10), Duration.ofMillis(InputRateObserver.WINDOW_MS),
                "these cases are written for the core's window");
        }

        /** Sets the end offsets of 1_0's partitions (in-0/0, in-1/0) and 1_1's (in-0/1, in-1/1). */
        Leader set(final long in00, final long in10, final long in01, final long in11) {
            offsets.putAll(Map.of(tp(0, 0), in00, tp(1, 0), in10, tp(0, 1), in01, tp(1, 1), in11));
            return this;
        }

        /** A rebalance {@code seconds} later by a new assignor with the option on: 1_0's and 1_1's rates. */
        long[] after(final long seconds) {
            clock.advance(Duration.ofSeconds(seconds));
            return rebalance(assignor(clock, observer, ON));
        }
    }

    /**
     * Rebalances each by a new assignor sharing the application's observer, which keeps its samples by the core's
     * rule. The first has none; 10 s later, 1_0's partitions took 3,000 records (300/s) while in-1/1 did not answer
     * (1_1 unknown); 5 s later, a second round observes from the same first sample, over 15 s; with the option off
     * nothing is listed and the samples wait; 10 s later the sample of 10 s, whose 1_1 was unknown, is the newest
     * old enough; and 10 s after that, the one taken then.
     */
    @Test
    void theLeaderKeepsItsInputSamplesAcrossAssignorsAndTheCoreReadsTheRates() {
        final Leader leader = new Leader().set(100, 200, 0, 50);
        assertArrayEquals(new long[] {-1, -1}, leader.after(0));

        leader.set(1_100, 2_200, 70, 0).offsets.remove(tp(1, 1));
        assertArrayEquals(new long[] {300, -1}, leader.after(10));

        // 1_0 at 3,900 (3,600 over 15 s), 1_1 at 170 (120 over 15 s).
        leader.set(1_700, 2_200, 70, 100);
        assertArrayEquals(new long[] {240, 8}, leader.after(5));

        leader.clock.advance(Duration.ofSeconds(5));
        assertArrayEquals(new long[] {-1, -1}, rebalance(assignor(leader.clock, leader.observer, Map.of())));

        // From the sample of 10 s (15 s before): 1_0 took 1,500 records; 1_1 was unknown then.
        leader.set(2_600, 2_200, 70, 100);
        assertArrayEquals(new long[] {100, -1}, leader.after(5));

        leader.set(2_600, 2_200, 70, 200);
        assertArrayEquals(new long[] {0, 10}, leader.after(10));
    }

    /**
     * A rebalance 15 s after the first, then a second round 2 s later: the second still observes from the first
     * sample (over 17 s), not from the one 2 s before; 8 s later the newest sample at least 10 s old is the one of
     * the rebalance at 15 s. A failed listing changes nothing: 2 s after it, the rates come from that sample still.
     */
    @Test
    void aSecondRoundMomentsAfterARebalanceObservesFromTheSampleBeforeIt() {
        final Leader leader = new Leader().set(0, 0, 0, 0);
        assertArrayEquals(new long[] {-1, -1}, leader.after(0));

        leader.set(1_500, 1_500, 150, 0);
        assertArrayEquals(new long[] {200, 10}, leader.after(15));

        leader.set(1_900, 1_500, 170, 0);
        assertArrayEquals(new long[] {200, 10}, leader.after(2));

        // Since 15 s: 1_0 took 1,000 records, 1_1 20, in 10 s.
        leader.set(2_500, 1_500, 170, 0);
        assertArrayEquals(new long[] {100, 2}, leader.after(8));

        leader.fail = true;
        assertArrayEquals(new long[] {-1, -1}, leader.after(3));
        leader.fail = false;
        // Still from the sample at 15 s, 15 s before (the one at 25 s is 5 s old).
        leader.set(3_000, 1_500, 170, 0);
        assertArrayEquals(new long[] {100, 1}, leader.after(2));
    }

    /** A clock that goes back drops the samples after it: no rate, then rates from the sample taken then. */
    @Test
    void aClockGoingBackDropsTheSamplesAfterIt() {
        final Leader leader = new Leader().set(0, 0, 0, 0);
        leader.after(0);
        leader.set(1_000, 0, 100, 0);
        assertArrayEquals(new long[] {100, 10}, leader.after(10));
        leader.clock.advance(Duration.ofMinutes(-1));
        assertArrayEquals(new long[] {-1, -1}, leader.after(0));
        leader.set(3_000, 0, 100, 0);
        assertArrayEquals(new long[] {200, 0}, leader.after(10));
    }

    /** The window the observer keeps samples by is the core's: a reading over it gives a rate, one less none. */
    @Test
    void theWindowIsTheShortestTheCoresRuleReads() {
        final ApplicationState app = app();
        final long window = InputRateObserver.WINDOW_MS;
        for (final long elapsed : new long[] {window - 1, window}) {
            final InputRateObserver.Reading reading = new InputRateObserver.Reading(elapsed,
                new TreeMap<>(Map.of(new TaskId(1, 0), 0L)), new TreeMap<>(Map.of(new TaskId(1, 0), elapsed)));
            final byte[] state = StateEncoder.encode(app, app.kafkaStreamsStates(true), OptionalLong.empty(), reading)
                .bytes();
            assertArrayEquals(new long[] {elapsed < window ? -1 : 1_000, -1}, NativeBridge.inputRates(state),
                "over " + elapsed + " ms");
        }
    }

    /** A port on loopback where nothing listens. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * A real Admin client pointed where no broker listens, with a short timeout: every rebalance goes on by counts,
     * each within the timeout, and the failure is logged once.
     */
    @Test
    void aListingThatFailsGivesCountsAndOneLogLine() throws IOException {
        final String app = application();
        final Map<String, Object> admin = InputRateObserver.adminConfig(app, Map.of(
            "bootstrap.servers", "127.0.0.1:" + closedPort(), "application.id", app, "group.id", app));
        assertEquals(Map.of("bootstrap.servers", admin.get("bootstrap.servers"),
            "client.id", app + "-smoothscale-input-rates"), admin);
        final InputRateObserver observer = new InputRateObserver(app,
            new InputRateObserver.AdminEndOffsets(admin, Duration.ofMillis(300)));
        final Map<String, Object> on = Map.of(SmoothscaleConfig.INPUT_RATES, true);
        final long[][] rates = new long[3][];
        final List<String> lines = logged(() -> {
            for (int r = 0; r < rates.length; r++) {
                final long start = System.nanoTime();
                rates[r] = rebalance(assignor(Clock.systemUTC(), observer, on));
                final long ms = (System.nanoTime() - start) / 1_000_000;
                assertTrue(ms < 5_000, "rebalance " + r + " took " + ms + " ms");
            }
        });
        for (final long[] r : rates) {
            assertArrayEquals(new long[] {-1, -1}, r);
        }
        assertEquals(1, count(lines, "smoothscale input rates are unavailable, tasks weigh by count"), lines.toString());
        assertEquals(1, count(lines, "(application " + app + ")"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("WARN") && l.contains("TimeoutException")), lines.toString());
    }

    /**
     * Through Kafka's path (the observer of the application, chosen at {@code configure}): with the option on but no
     * {@code bootstrap.servers}, no Admin client can be made; with it off, nothing is listed. Each is logged once
     * over three rebalances, and each rebalance goes on by counts.
     */
    @Test
    void anAbsentAdminClientOrTheOptionOffGiveCountsAndOneLogLineEach() {
        for (final boolean on : new boolean[] {true, false}) {
            final String app = application();
            final Map<String, Object> configs = on
                ? Map.of("application.id", app, SmoothscaleConfig.INPUT_RATES, "true")
                : Map.of("application.id", app);
            final List<String> lines = logged(() -> {
                for (int r = 0; r < 3; r++) {
                    assertArrayEquals(new long[] {-1, -1}, rebalance(assignor(Clock.systemUTC(), null, configs)));
                }
            });
            final String line = on ? "smoothscale input rates are unavailable, tasks weigh by count"
                : "smoothscale input rates are off (smoothscale.input.rates is not true): tasks weigh by count";
            assertEquals(1, count(lines, line), lines.toString());
            assertEquals(1, count(lines, "(application " + app + ")"), lines.toString());
        }
    }
}
