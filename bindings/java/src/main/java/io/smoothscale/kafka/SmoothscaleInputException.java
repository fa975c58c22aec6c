package io.smoothscale.kafka;

/**
 * The input's fault: a state the core rejects (naming the field and value), an input the strategy cannot serve
 * (a Heron packing with no room, say), an unknown strategy or preset, a malformed message, or what the crossing
 * format cannot express (a named topology). The command line exits with 2 on the same failure, and Python raises
 * {@code ValueError}. The native library throws it by this name, with its {@code (String)} constructor.
 */
public class SmoothscaleInputException extends SmoothscaleException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the failure's one-line message.
     *
     * @param message what is wrong with the input
     */
    public SmoothscaleInputException(final String message) {
        super(message);
    }
}
