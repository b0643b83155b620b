package io.seqlink.spring.listener;

/**
 * A {@link ChannelListener} method failed with a {@link Throwable} that is not an {@link Exception}
 * (an {@link AssertionError}, say), or could not be invoked. Wrapping it lets the retry and the
 * dead-letter hook handle it like any other failure instead of killing the launcher's loop.
 */
public class ChannelListenerExecutionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChannelListenerExecutionException(String message, Throwable cause) {
        super(message, cause);
    }
}
