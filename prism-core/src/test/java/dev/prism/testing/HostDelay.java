package dev.prism.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a loaded host adds to a bound on how soon something ends, observed over each test: a {@link SchedulingDelay}
 * watched from before the test to after it, times the wake-ups a chain of events takes from the event to the test's
 * seeing its end (a watcher noticing, a process exiting and being reaped, a clean-up, a result reaching the test's
 * thread), each of which may wait as long as the longest delay seen. Registered as a JUnit extension on a field.
 *
 * <pre>{@code
 * // @org.junit.jupiter.api.extension.RegisterExtension
 * dev.prism.testing.HostDelay host = new dev.prism.testing.HostDelay(5);
 * // in a test: assertThat(seconds).isLessThan(10 + host.allowanceSeconds());
 * }</pre>
 */
public final class HostDelay implements BeforeEachCallback, AfterEachCallback {
    private final int handOffs;
    private SchedulingDelay delay;

    /** @param handOffs the wake-ups between the event a bound counts from and the test's seeing its end */
    public HostDelay(int handOffs) {
        this.handOffs = handOffs;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        delay = SchedulingDelay.watch();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        delay.close();
    }

    /** @return seconds a loaded host adds to the chain of hand-offs, by the longest delay observed so far in the test */
    public double allowanceSeconds() {
        return handOffs * delay.longest().toNanos() / 1e9;
    }
}
