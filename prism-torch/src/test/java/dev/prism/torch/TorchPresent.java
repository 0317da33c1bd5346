package dev.prism.torch;

import dev.prism.testing.Required;

/** What the torch tests need before they run: a Python with torch, or a skip (a failure under PRISM_REQUIRE_TORCH=1). */
final class TorchPresent {
    private TorchPresent() {
    }

    /** Skips the test class (or fails it, under PRISM_REQUIRE_TORCH=1) unless torch can be run. */
    static void require() {
        String missing = null;
        try {
            TorchRun.builder().build().checkTorch();
        } catch (TorchException e) {
            missing = e.getMessage();
        }
        Required.require(missing == null, "PRISM_REQUIRE_TORCH", "no torch: " + missing);
    }
}
