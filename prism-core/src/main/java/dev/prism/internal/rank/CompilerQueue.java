package dev.prism.internal.rank;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * HotSpot's compiler queue, read through its {@code compilerQueue} diagnostic command (what {@code jcmd <pid>
 * Compiler.queue} prints): a "Current compiles:" section listing each compilation in progress, then one "… compile
 * queue:" section per compiler, each "Empty" or listing what waits.
 */
final class CompilerQueue {
    private static final String[] SIGNATURE = {String[].class.getName()};
    private final MBeanServer server;
    private final ObjectName command;

    private CompilerQueue(MBeanServer server, ObjectName command) {
        this.server = server;
        this.command = command;
    }

    /** @return the queue of this JVM's compiler, or empty where the JVM has no such command or prints it otherwise */
    static Optional<CompilerQueue> find() {
        try {
            CompilerQueue q = new CompilerQueue(ManagementFactory.getPlatformMBeanServer(),
                    new ObjectName("com.sun.management:type=DiagnosticCommand"));
            return isQueueListing(q.listing()) ? Optional.of(q) : Optional.empty();
        } catch (Exception | LinkageError e) {
            return Optional.empty();
        }
    }

    /** @return true when nothing is being compiled and nothing waits (false when the command fails) */
    boolean idle() {
        try {
            return idle(listing());
        } catch (Exception e) {
            return false;
        }
    }

    private String listing() throws Exception {
        return (String) server.invoke(command, "compilerQueue", new Object[]{null}, SIGNATURE);
    }

    /** @return true when {@code listing} has the sections this class reads */
    static boolean isQueueListing(String listing) {
        return listing != null && listing.contains("Current compiles:") && listing.contains("compile queue:");
    }

    /** @return true when {@code listing} shows no compilation in progress and every queue "Empty" */
    static boolean idle(String listing) {
        if (!isQueueListing(listing)) {
            return false;
        }
        String section = null;
        for (String raw : listing.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("Current compiles:")) {
                section = "current";
            } else if (line.endsWith("compile queue:")) {
                section = "queue";
            } else if (!("queue".equals(section) && line.equals("Empty"))) {
                return false; // a compilation in progress, or one waiting
            }
        }
        return true;
    }
}
