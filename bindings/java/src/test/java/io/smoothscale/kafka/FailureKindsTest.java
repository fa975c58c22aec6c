package io.smoothscale.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.errors.TaskAssignmentException;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.junit.jupiter.api.Test;

/**
 * Bad input and a bug reach Java as two exception types, each with the one-line message the command line prints
 * for the same failure ({@code smoothscale assign} prints {@code error: } and the same line).
 */
class FailureKindsTest {
    /** What heron-ffd says of eleven stateless tasks on one client of its default size. */
    private static final String NO_ROOM = "task 0_9 needs 1 cpu (default), 1024 ram_mb (default) and 1024 disk_mb "
        + "(default) but no client has room for its cpu, ram_mb and disk_mb: the most left after padding is 0 cpu "
        + "on c0, 0 ram_mb on c0 and 0 disk_mb on c0 (heron-ffd cannot add a client where Heron would add a "
        + "container)";

    private static ApplicationState elevenTasksOneClient() {
        final AppStates s = new AppStates().stateless(0, 11);
        s.client(0, 1);
        return s.build();
    }

    @Test
    void anUnknownStrategyIsBadInputListingTheKnownOnes() {
        final SmoothscaleInputException e = assertThrows(SmoothscaleInputException.class,
            () -> NativeBridge.assign("kip999", new byte[0]));
        assertEquals("strategy must be one of " + String.join(", ", NativeBridge.strategies()) + ", got \"kip999\"",
            e.getMessage());
        final SmoothscaleInputException preset = assertThrows(SmoothscaleInputException.class,
            () -> NativeBridge.generatePreset("nope", 1));
        assertTrue(preset.getMessage().startsWith("preset must be one of 6000t_2c, "), preset.getMessage());
        assertTrue(preset.getMessage().endsWith(", got \"nope\""), preset.getMessage());
    }

    @Test
    void anInputTheStrategyCannotServeIsBadInputWithTheCoresMessage() {
        final byte[] state = StateEncoder.encode(elevenTasksOneClient()).bytes();
        final SmoothscaleInputException e = assertThrows(SmoothscaleInputException.class,
            () -> NativeBridge.assign("heron-ffd", state));
        assertEquals(NO_ROOM, e.getMessage());
        // Kafka gets its TaskAssignmentException, the typed one as the cause.
        final SmoothscaleTaskAssignor assignor = new SmoothscaleTaskAssignor();
        assignor.configure(Map.of("smoothscale.strategy", "heron-ffd"));
        final TaskAssignmentException kafka = assertThrows(TaskAssignmentException.class,
            () -> assignor.assign(elevenTasksOneClient()));
        assertEquals("smoothscale heron-ffd could not assign: " + NO_ROOM, kafka.getMessage());
        assertEquals(SmoothscaleInputException.class, kafka.getCause().getClass());
        assertEquals(NO_ROOM, kafka.getCause().getMessage());
    }

    @Test
    void malformedMessagesAndNullsAreBadInputOnEveryExport() {
        final List<Runnable> calls = List.of(
            () -> NativeBridge.assign("kip441", new byte[] {'S', 'M', 'S', '1'}),
            () -> NativeBridge.assign(null, new byte[0]),
            () -> NativeBridge.checkHandout(new byte[] {'S', 'M', 'S', 'H'}),
            () -> NativeBridge.checkHandout(null),
            () -> NativeBridge.observeRestoreRate(new byte[] {'S', 'M', 'S', 'O'}),
            () -> NativeBridge.observeRestoreRate(null),
            () -> NativeBridge.inputRates(new byte[] {'S', 'M', 'S', '1'}),
            () -> NativeBridge.inputRates(null),
            () -> NativeBridge.generatePreset("6000t_2c", -1),
            () -> NativeBridge.timeNativeAssign("kip441", new byte[0], 1));
        for (final Runnable call : calls) {
            final SmoothscaleInputException e = assertThrows(SmoothscaleInputException.class, call::run);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertEquals("version (byte 4) must have 4 bytes, got 0 (the message ends at byte 4)",
            assertThrows(SmoothscaleInputException.class,
                () -> NativeBridge.observeRestoreRate(new byte[] {'S', 'M', 'S', 'O'})).getMessage());
        assertEquals("observation must not be null",
            assertThrows(SmoothscaleInputException.class, () -> NativeBridge.observeRestoreRate(null)).getMessage());
    }

    /** The two sides disagreeing on a plan message is a bug, not the input's fault. */
    @Test
    void aPlanMessageJavaCannotReadIsABug() {
        final EncodedState state = StateEncoder.encode(elevenTasksOneClient());
        final SmoothscaleInvariantException e = assertThrows(SmoothscaleInvariantException.class,
            () -> DecodedPlan.read(new byte[] {'S', 'M', 'S', 'P', 9, 0, 0, 0}, state));
        assertEquals("the native library answered an unknown plan format", e.getMessage());
    }

    /**
     * No registered strategy breaks an invariant on any state Java can send (the Rust tests run an unregistered
     * faulty strategy through the same path): what is checked here is that the classes the native library throws
     * by name exist as it calls them, a public {@code (String)} constructor each, both caught as
     * {@link SmoothscaleException}.
     */
    @Test
    void theNativeLibraryCanThrowBothKinds() throws ReflectiveOperationException {
        for (final String name : List.of("io.smoothscale.kafka.SmoothscaleInputException",
            "io.smoothscale.kafka.SmoothscaleInvariantException")) {
            final Class<?> type = Class.forName(name);
            assertTrue(SmoothscaleException.class.isAssignableFrom(type), name);
            final Constructor<?> made = type.getConstructor(String.class);
            assertTrue(Modifier.isPublic(made.getModifiers()), name);
            assertEquals("strategy x broke an invariant: y",
                ((SmoothscaleException) made.newInstance("strategy x broke an invariant: y")).getMessage());
        }
        assertFalse(SmoothscaleInputException.class.isAssignableFrom(SmoothscaleInvariantException.class));
        assertFalse(SmoothscaleInvariantException.class.isAssignableFrom(SmoothscaleInputException.class));
        assertFalse(Modifier.isFinal(SmoothscaleException.class.getModifiers()));
    }
}
