package io.smoothscale.kafka;

/**
 * A bug, never the input's fault: a plan that breaks one of smoothscale's invariants
 * ({@code strategy kip441 broke an invariant: …}), a strategy failing inside, a panic inside the Rust core, or the
 * two sides of the crossing disagreeing on a message. The command line exits with 1 on the same failure, and
 * Python raises {@code InvariantViolation}. The native library throws it by this name, with its {@code (String)}
 * constructor.
 */
public class SmoothscaleInvariantException extends SmoothscaleException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the failure's one-line message.
     *
     * @param message what broke
     */
    public SmoothscaleInvariantException(final String message) {
        super(message);
    }
}
