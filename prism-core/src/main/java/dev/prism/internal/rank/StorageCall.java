package dev.prism.internal.rank;

import dev.prism.internal.output.Durations;

import dev.prism.PrismException;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A call on the target that the driver makes itself (creating, probing and preparing the run directory), made in a
 * daemon thread of its own and waited for no longer than a limit: storage that never answers (a FUSE daemon that
 * hangs, a hard NFS mount whose server is gone) cannot hold the driver past the run's timeout. A call given up on
 * runs on; when it returns at last, {@code undo} takes back what it made, so a late {@code mkdir} leaves nothing.
 */
public final class StorageCall {
    private StorageCall() {
    }

    /** Why a call on the target was given up on: it did not return within its limit. */
    public static final class Hung extends PrismException {
        Hung(String message) {
            super(message);
        }
    }

    /**
     * @param what  the call as a person reads it: {@code creating the run directory /mnt/x/prism-1}
     * @param limit how long to wait for it
     * @param undo  run with the call's result when it returns after it was given up on; may be null
     * @return what the call returned
     * @throws Hung when it did not return within {@code limit}
     * @throws Exception whatever the call threw
     */
    public static <T> T within(String what, Duration limit, Callable<T> call, Consumer<T> undo) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                T value = call.call();
                if (!result.complete(value) && undo != null) {
                    undo.accept(value); // given up on: take back what the late call made
                }
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "prism-storage-call");
        thread.setDaemon(true);
        thread.start();
        try {
            return unwrapped(result, limit);
        } catch (TimeoutException e) {
            if (result.cancel(false)) {
                throw new Hung(what + " did not return within " + Durations.format(limit) + " (the storage may hang)");
            }
            return unwrapped(result, Duration.ZERO); // it returned just now
        }
    }

    private static <T> T unwrapped(CompletableFuture<T> result, Duration limit) throws Exception {
        try {
            return limit.isZero() ? result.get() : result.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            throw (Error) cause;
        }
    }
}
