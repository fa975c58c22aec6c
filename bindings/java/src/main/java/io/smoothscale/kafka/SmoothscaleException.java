package io.smoothscale.kafka;

/**
 * A failure of the native assignment: a state the core rejects (naming the field and value), an input a
 * strategy cannot serve, a plan that fails smoothscale's invariant check, or a panic inside the Rust core.
 * The message is one line. {@link SmoothscaleTaskAssignor} wraps it in Kafka's
 * {@code TaskAssignmentException}; the JVM itself is never taken down.
 */
public final class SmoothscaleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a one-line message (thrown by the native library).
     *
     * @param message what went wrong
     */
    public SmoothscaleException(final String message) {
        super(message);
    }
}
