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
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.junit.jupiter.api.Test;

/**
 * {@code smoothscale.input.rates}: the key, the leader's memory of its tasks' input offsets across rebalances (each
 * with a new assignor, as Kafka Streams makes one per rebalance), the rates the core reads from them, and the
 * fallback to counts with one log line when the option is off or the end offsets cannot be listed (a real Admin
 * client, pointed where no broker listens).
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
     * Three rebalances, each by a new assignor sharing the application's observer. The first has no memory; by the
     * second, 10 s later, 1_0's partitions took 3,000 records (300/s) while in-1/1 did not answer (1_1 unknown); the
     * third, 5 s later, is too soon for a rate.
     */
    @Test
    void theLeaderRemembersItsInputOffsetsAcrossAssignorsAndTheCoreReadsTheRates() {
        final Map<TopicPartition, Long> offsets = new HashMap<>(Map.of(tp(0, 0), 100L, tp(1, 0), 200L, tp(0, 1), 0L,
            tp(1, 1), 50L));
        final InputRateObserver observer = new InputRateObserver("test", partitions -> {
            final Map<TopicPartition, Long> answered = new HashMap<>(offsets);
            answered.keySet().retainAll(partitions);
            return answered;
        });
        final TestClock clock = new TestClock();
        final Map<String, Object> on = Map.of(SmoothscaleConfig.INPUT_RATES, "true");
        final Supplier<long[]> rebalance = () -> rebalance(assignor(clock, observer, on));
        assertArrayEquals(new long[] {-1, -1}, rebalance.get());

        clock.advance(Duration.ofSeconds(10));
        offsets.putAll(Map.of(tp(0, 0), 1_100L, tp(1, 0), 2_200L, tp(0, 1), 70L));
        offsets.remove(tp(1, 1));
        assertArrayEquals(new long[] {300, -1}, rebalance.get());

        // 5 s: less than the core's shortest window, no rate.
        clock.advance(Duration.ofSeconds(5));
        offsets.putAll(Map.of(tp(0, 0), 1_600L, tp(1, 1), 90L));
        assertArrayEquals(new long[] {-1, -1}, rebalance.get());

        // Off, nothing is listed or sent; the memory waits for the option to come back.
        clock.advance(Duration.ofSeconds(5));
        assertArrayEquals(new long[] {-1, -1}, rebalance(assignor(clock, observer, Map.of())));
        clock.advance(Duration.ofSeconds(5));
        offsets.put(tp(1, 1), 190L);
        assertArrayEquals(new long[] {0, 10}, rebalance.get());
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
