package io.smoothscale.kafka;

/**
 * A failure of the native library or of the adapter, with a one-line message: the message the {@code smoothscale}
 * command line prints for the same failure (after {@code error: }). It is one of two kinds, told apart by type:
 * {@link SmoothscaleInputException}, the input's fault (a state the core rejects, naming the field and value; an
 * input a strategy cannot serve; an unknown strategy or preset; a malformed message), and
 * {@link SmoothscaleInvariantException}, a bug (a plan that fails smoothscale's invariant check, a strategy failing
 * inside, a panic inside the Rust core). {@link SmoothscaleTaskAssignor} wraps either in Kafka's
 * {@code TaskAssignmentException}, as its cause; the JVM itself is never taken down.
 */
public class SmoothscaleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a one-line message.
     *
     * @param message what went wrong
     */
    public SmoothscaleException(final String message) {
        super(message);
    }
}
