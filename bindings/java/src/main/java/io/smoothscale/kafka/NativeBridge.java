package io.smoothscale.kafka;

/**
 * The native entry points of the {@code smoothscale-jni} library. Public for this module's tests and
 * benchmarks only: applications use {@link SmoothscaleTaskAssignor}. On failure every method throws a
 * {@link SmoothscaleException} with the one-line message the command line prints for the same failure:
 * {@link SmoothscaleInputException} when the input is at fault (an unknown strategy or preset, a malformed
 * message, an invalid state, an input the strategy cannot serve, a {@code null} argument),
 * {@link SmoothscaleInvariantException} for a bug (a plan breaking an invariant, a strategy failing inside, a
 * panic in the Rust core).
 */
public final class NativeBridge {
    static {
        NativeLibrary.load();
    }

    private NativeBridge() {
    }

    /**
     * The registered strategy names, in the core's registry order.
     *
     * @return the names, {@code kip441} first
     */
    public static native String[] strategies();

    /**
     * Runs a strategy on a state message (docs/crossing-format.md) and checks the plan.
     *
     * @param strategy a registered strategy name
     * @param state the state message
     * @return the plan message
     */
    public static native byte[] assign(String strategy, byte[] state);

    /**
     * Checks a handout message (docs/crossing-format.md): an assignment as Kafka hands it out.
     *
     * @param handout the handout message
     * @return {@code null} when the assignment keeps every rule, else its violations in one line
     */
    public static native String checkHandout(byte[] handout);

    /**
     * The restore rate the group leader observes, by the core's rule ({@code smoothscale::restore_rate::observe}).
     *
     * @param observation the observation message (docs/crossing-format.md)
     * @return records per second, or −1 when the observation gives none
     */
    public static native long observeRestoreRate(byte[] observation);

    /**
     * The input rate the core reads for each task of a state message (docs/crossing-format.md): from the leader's
     * input offsets, by the core's rule ({@code smoothscale::input_rate::observe}).
     *
     * @param state the state message
     * @return records per second for each task, in the message's task order; −1 where unknown
     */
    public static native long[] inputRates(byte[] state);

    /**
     * The shortest time between two samples of a task's input offsets that gives an input rate
     * ({@code smoothscale::input_rate::MIN_WINDOW_MS}): the group leader keeps its samples by it
     * ({@link InputRateObserver}).
     *
     * @return milliseconds
     */
    public static native long inputRateWindowMs();

    /**
     * The state message of a {@code smoothscale generate} preset.
     *
     * @param preset the preset name, such as {@code 10000t_1000c}
     * @param seed the generator's seed, at least 0
     * @return the state message
     */
    public static native byte[] generatePreset(String preset, long seed);

    /**
     * Times the core alone: {@code iterations} runs of a strategy on the decoded state; decoding and one run
     * through the invariant check come first, untimed, and fail as {@link #assign} would.
     *
     * @param strategy a registered strategy name
     * @param state the state message
     * @param iterations how many runs, at least 0
     * @return nanoseconds for all runs
     */
    public static native long timeNativeAssign(String strategy, byte[] state, int iterations);
}
