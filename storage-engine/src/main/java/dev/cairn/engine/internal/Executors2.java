package dev.cairn.engine.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/** The engine's background threads: single, named daemon threads, so an unclosed engine never keeps a JVM alive. */
final class Executors2 {
    private Executors2() {
    }

    static ExecutorService newSingle(String name) {
        return Executors.newSingleThreadExecutor(daemon(name));
    }

    static ScheduledExecutorService newScheduled(String name) {
        return Executors.newSingleThreadScheduledExecutor(daemon(name));
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
