package io.seqlink.channel.consumer;

/**
 * The threads seqlink runs listeners on (the launcher's device loops and the ports' listener threads): a producer
 * called from one may still publish while a runtime drains all its channels together, so channels chained by
 * listeners empty in any order. Every method is safe from any thread.
 */
public final class ListenerThreads {

    private ListenerThreads() {
    }

    /** A daemon thread of seqlink's for {@code task}. */
    public static Thread create(Runnable task, String name) {
        return new ListenerThread(task, name);
    }

    /** Whether the calling thread is one of seqlink's listener threads. */
    public static boolean current() {
        return Thread.currentThread() instanceof ListenerThread;
    }

    private static final class ListenerThread extends Thread {
        ListenerThread(Runnable task, String name) {
            super(task, name);
            setDaemon(true);
        }
    }
}
