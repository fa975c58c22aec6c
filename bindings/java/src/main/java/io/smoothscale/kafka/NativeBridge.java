package io.smoothscale.kafka;

/**
 * The native entry points of the {@code smoothscale-jni} library. Public for this module's tests and
 * benchmarks only: applications use {@link SmoothscaleTaskAssignor}. Every method throws
 * {@link SmoothscaleException} with a one-line message on failure.
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
     * The state message of a {@code smoothscale generate} preset.
     *
     * @param preset the preset name, such as {@code 10000t_1000c}
     * @param seed the generator's seed, at least 0
     * @return the state message
     */
    public static native byte[] generatePreset(String preset, long seed);

    /**
     * Times the core alone: {@code iterations} runs of a strategy on the decoded state, decoding untimed.
     *
     * @param strategy a registered strategy name
     * @param state the state message
     * @param iterations how many runs, at least 0
     * @return nanoseconds for all runs
     */
    public static native long timeNativeAssign(String strategy, byte[] state, int iterations);
}
