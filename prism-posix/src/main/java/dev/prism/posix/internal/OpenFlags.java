package dev.prism.posix.internal;

import dev.prism.posix.Posix;

/** Writes open(2) flags the way a person reads them: {@code O_WRONLY|O_CREAT|O_EXCL}. */
public final class OpenFlags {
    private static final int[] BITS = {Posix.O_CREAT, Posix.O_EXCL, Posix.O_TRUNC, Posix.O_APPEND, Posix.O_DIRECT,
            Posix.O_DIRECTORY, Posix.O_NOFOLLOW, Posix.O_CLOEXEC};
    private static final String[] NAMES = {"O_CREAT", "O_EXCL", "O_TRUNC", "O_APPEND", "O_DIRECT", "O_DIRECTORY",
            "O_NOFOLLOW", "O_CLOEXEC"};

    private OpenFlags() {
    }

    public static String describe(int flags) {
        StringBuilder s = new StringBuilder(switch (flags & 3) {
            case 1 -> "O_WRONLY";
            case 2 -> "O_RDWR";
            default -> "O_RDONLY";
        });
        int rest = flags & ~3;
        if ((rest & Posix.O_SYNC) == Posix.O_SYNC) {
            s.append("|O_SYNC");
            rest &= ~Posix.O_SYNC;
        } else if ((rest & Posix.O_DSYNC) != 0) {
            s.append("|O_DSYNC");
            rest &= ~Posix.O_DSYNC;
        }
        for (int i = 0; i < BITS.length; i++) {
            if ((rest & BITS[i]) != 0) {
                s.append('|').append(NAMES[i]);
                rest &= ~BITS[i];
            }
        }
        if (rest != 0) {
            s.append("|0").append(Integer.toOctalString(rest));
        }
        return s.toString();
    }
}
