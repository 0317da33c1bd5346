package dev.prism.posix.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * {@link SystemCalls} through {@code java.lang.foreign} downcall handles (JDK 22 and later), errno captured with
 * {@code Linker.Option.captureCallState("errno")} into a per-thread segment. PRISM compiles for Java 17, where
 * {@code java.lang.foreign} is not yet final, so the handles are looked up by reflection once, when this class
 * initialises; each is adapted to take its capture segment as {@code Object} and kept in a {@code static final}
 * field, which the JIT treats as a constant and calls as directly as source code written against the API would.
 * Only {@link Binding} loads this class, and only on a JVM whose feature version is 22 or more.
 */
final class ForeignSystemCalls implements SystemCalls {
    private static final MethodHandle OPENAT;
    private static final MethodHandle CLOSE;
    private static final MethodHandle READ;
    private static final MethodHandle PREAD;
    private static final MethodHandle WRITE;
    private static final MethodHandle PWRITE;
    private static final MethodHandle FSYNC;
    private static final MethodHandle FDATASYNC;
    private static final MethodHandle POSIX_FADVISE;
    private static final MethodHandle LINK;
    private static final MethodHandle LINKAT;
    private static final MethodHandle FLOCK;
    private static final MethodHandle STATVFS;
    private static final MethodHandle RENAMEAT;
    private static final MethodHandle UNLINKAT;
    private static final MethodHandle MKDIRAT;
    private static final MethodHandle STATX;
    private static final MethodHandle GETDENTS64;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MINCORE;
    private static final MethodHandle SYSCONF;
    private static final MethodHandle STRERROR;
    /** MemorySegment.ofBuffer(buffer).address(), as (ByteBuffer)long. */
    private static final MethodHandle BUFFER_ADDRESS;
    /** MemorySegment.ofAddress(address).reinterpret(size).getString(0), for strerror's result. */
    private static final Method OF_ADDRESS;
    private static final Method REINTERPRET;
    private static final Method GET_STRING;
    private static final MethodHandle SEGMENT_OF_BUFFER;
    private static final long ERRNO_OFFSET;
    private static final int STATE_SIZE;

    private static final ThreadLocal<CallState> STATE = ThreadLocal.withInitial(CallState::new);

    /** A thread's capture segment, over a direct buffer that reads errno back. */
    private static final class CallState {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(STATE_SIZE).order(ByteOrder.nativeOrder());
        final Object segment;

        CallState() {
            try {
                segment = SEGMENT_OF_BUFFER.invoke((Buffer) buffer);
            } catch (Throwable e) {
                throw new IllegalStateException("cannot make a segment over a direct buffer", e);
            }
        }
    }

    static {
        try {
            Lookup api = new Lookup();
            OPENAT = api.downcall("openat", true, api.jint, api.jint, api.jlong, api.jint, api.jint);
            CLOSE = api.downcall("close", true, api.jint, api.jint);
            READ = api.downcall("read", true, api.jlong, api.jint, api.jlong, api.jlong);
            PREAD = api.downcall("pread", true, api.jlong, api.jint, api.jlong, api.jlong, api.jlong);
            WRITE = api.downcall("write", true, api.jlong, api.jint, api.jlong, api.jlong);
            PWRITE = api.downcall("pwrite", true, api.jlong, api.jint, api.jlong, api.jlong, api.jlong);
            FSYNC = api.downcall("fsync", true, api.jint, api.jint);
            FDATASYNC = api.downcall("fdatasync", true, api.jint, api.jint);
            POSIX_FADVISE = api.downcall("posix_fadvise", false, api.jint, api.jint, api.jlong, api.jlong, api.jint);
            LINK = api.downcall("link", true, api.jint, api.jlong, api.jlong);
            LINKAT = api.downcall("linkat", true, api.jint, api.jint, api.jlong, api.jint, api.jlong, api.jint);
            FLOCK = api.downcall("flock", true, api.jint, api.jint, api.jint);
            STATVFS = api.downcall("statvfs", true, api.jint, api.jlong, api.jlong);
            RENAMEAT = api.downcall("renameat", true, api.jint, api.jint, api.jlong, api.jint, api.jlong);
            UNLINKAT = api.downcall("unlinkat", true, api.jint, api.jint, api.jlong, api.jint);
            MKDIRAT = api.downcall("mkdirat", true, api.jint, api.jint, api.jlong, api.jint);
            STATX = api.downcall("statx", true, api.jint, api.jint, api.jlong, api.jint, api.jint, api.jlong);
            GETDENTS64 = api.downcall("getdents64", true, api.jlong, api.jint, api.jlong, api.jlong);
            MMAP = api.downcall("mmap", true, api.jlong, api.jlong, api.jlong, api.jint, api.jint, api.jint, api.jlong);
            MUNMAP = api.downcall("munmap", true, api.jint, api.jlong, api.jlong);
            MINCORE = api.downcall("mincore", true, api.jint, api.jlong, api.jlong, api.jlong);
            SYSCONF = api.downcall("sysconf", false, api.jlong, api.jint);
            STRERROR = api.downcall("strerror", false, api.jlong, api.jint);
            SEGMENT_OF_BUFFER = api.publicLookup.findStatic(api.segment, "ofBuffer", MethodType.methodType(api.segment, Buffer.class));
            MethodHandle address = api.publicLookup.findVirtual(api.segment, "address", MethodType.methodType(long.class));
            BUFFER_ADDRESS = MethodHandles.filterReturnValue(SEGMENT_OF_BUFFER, address)
                    .asType(MethodType.methodType(long.class, ByteBuffer.class));
            OF_ADDRESS = api.segment.getMethod("ofAddress", long.class);
            REINTERPRET = api.segment.getMethod("reinterpret", long.class);
            GET_STRING = api.segment.getMethod("getString", long.class);
            ERRNO_OFFSET = api.errnoOffset;
            STATE_SIZE = api.stateSize;
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException("java.lang.foreign is not usable on this JVM: " + e, e);
        }
    }

    /** The reflective lookups, used while the class initialises and then dropped. */
    private static final class Lookup {
        final MethodHandles.Lookup publicLookup = MethodHandles.publicLookup();
        final Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        final Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
        final Class<?> descriptor = Class.forName("java.lang.foreign.FunctionDescriptor");
        final Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        final Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
        final Class<?> pathElement = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
        final Object linker = linkerType.getMethod("nativeLinker").invoke(null);
        final Class<?> symbolLookup = Class.forName("java.lang.foreign.SymbolLookup");
        final Object symbols = linkerType.getMethod("defaultLookup").invoke(linker);
        final Object jint = Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_INT").get(null);
        final Object jlong = Class.forName("java.lang.foreign.ValueLayout").getField("JAVA_LONG").get(null);
        final Object captureErrno = option.getMethod("captureCallState", String[].class).invoke(null, (Object) new String[]{"errno"});
        final Object stateLayout = option.getMethod("captureStateLayout").invoke(null);
        final long errnoOffset = (long) layout.getMethod("byteOffset", pathElement.arrayType())
                .invoke(stateLayout, arrayOf(pathElement, pathElement.getMethod("groupElement", String.class).invoke(null, "errno")));
        final int stateSize = Math.toIntExact((long) layout.getMethod("byteSize").invoke(stateLayout));

        Lookup() throws ReflectiveOperationException {
        }

        /** @return the downcall to libc's {@code name}; when it captures errno, its first parameter is the segment, as Object */
        MethodHandle downcall(String name, boolean capture, Object result, Object... parameters) throws ReflectiveOperationException {
            Object address = ((Optional<?>) symbolLookup.getMethod("find", String.class).invoke(symbols, name))
                    .orElseThrow(() -> new NoSuchMethodException("libc has no " + name));
            Object function = descriptor.getMethod("of", layout, layout.arrayType())
                    .invoke(null, result, arrayOf(layout, parameters));
            Object options = capture ? arrayOf(option, captureErrno) : arrayOf(option);
            MethodHandle handle = (MethodHandle) linkerType.getMethod("downcallHandle", segment, descriptor, option.arrayType())
                    .invoke(linker, address, function, options);
            if (!capture) {
                return handle;
            }
            return handle.asType(handle.type().changeParameterType(0, Object.class));
        }

        private static Object arrayOf(Class<?> type, Object... elements) {
            Object array = Array.newInstance(type, elements.length);
            for (int i = 0; i < elements.length; i++) {
                Array.set(array, i, elements[i]);
            }
            return array;
        }
    }

    private static Object state() {
        return STATE.get().segment;
    }

    private static RuntimeException failed(String function, Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(function + " through java.lang.foreign: " + e, e);
    }

    @Override
    public String description() {
        return "java.lang.foreign (JDK " + Runtime.version() + ")";
    }

    @Override
    public long address(ByteBuffer direct) {
        try {
            return (long) BUFFER_ADDRESS.invokeExact(direct);
        } catch (Throwable e) {
            throw failed("MemorySegment.ofBuffer", e);
        }
    }

    @Override
    public int lastErrno() {
        return STATE.get().buffer.getInt((int) ERRNO_OFFSET);
    }

    @Override
    public int openat(int dirfd, long path, int flags, int mode) {
        try {
            return (int) OPENAT.invokeExact(state(), dirfd, path, flags, mode);
        } catch (Throwable e) {
            throw failed("openat", e);
        }
    }

    @Override
    public int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(state(), fd);
        } catch (Throwable e) {
            throw failed("close", e);
        }
    }

    @Override
    public long read(int fd, long buffer, long count) {
        try {
            return (long) READ.invokeExact(state(), fd, buffer, count);
        } catch (Throwable e) {
            throw failed("read", e);
        }
    }

    @Override
    public long pread(int fd, long buffer, long count, long offset) {
        try {
            return (long) PREAD.invokeExact(state(), fd, buffer, count, offset);
        } catch (Throwable e) {
            throw failed("pread", e);
        }
    }

    @Override
    public long write(int fd, long buffer, long count) {
        try {
            return (long) WRITE.invokeExact(state(), fd, buffer, count);
        } catch (Throwable e) {
            throw failed("write", e);
        }
    }

    @Override
    public long pwrite(int fd, long buffer, long count, long offset) {
        try {
            return (long) PWRITE.invokeExact(state(), fd, buffer, count, offset);
        } catch (Throwable e) {
            throw failed("pwrite", e);
        }
    }

    @Override
    public int fsync(int fd) {
        try {
            return (int) FSYNC.invokeExact(state(), fd);
        } catch (Throwable e) {
            throw failed("fsync", e);
        }
    }

    @Override
    public int fdatasync(int fd) {
        try {
            return (int) FDATASYNC.invokeExact(state(), fd);
        } catch (Throwable e) {
            throw failed("fdatasync", e);
        }
    }

    @Override
    public int posix_fadvise(int fd, long offset, long length, int advice) {
        try {
            return (int) POSIX_FADVISE.invokeExact(fd, offset, length, advice);
        } catch (Throwable e) {
            throw failed("posix_fadvise", e);
        }
    }

    @Override
    public int link(long existing, long newPath) {
        try {
            return (int) LINK.invokeExact(state(), existing, newPath);
        } catch (Throwable e) {
            throw failed("link", e);
        }
    }

    @Override
    public int linkat(int existingDirfd, long existing, int newDirfd, long newPath, int flags) {
        try {
            return (int) LINKAT.invokeExact(state(), existingDirfd, existing, newDirfd, newPath, flags);
        } catch (Throwable e) {
            throw failed("linkat", e);
        }
    }

    @Override
    public int flock(int fd, int operation) {
        try {
            return (int) FLOCK.invokeExact(state(), fd, operation);
        } catch (Throwable e) {
            throw failed("flock", e);
        }
    }

    @Override
    public int statvfs(long path, long buffer) {
        try {
            return (int) STATVFS.invokeExact(state(), path, buffer);
        } catch (Throwable e) {
            throw failed("statvfs", e);
        }
    }

    @Override
    public int renameat(int oldDirfd, long oldPath, int newDirfd, long newPath) {
        try {
            return (int) RENAMEAT.invokeExact(state(), oldDirfd, oldPath, newDirfd, newPath);
        } catch (Throwable e) {
            throw failed("renameat", e);
        }
    }

    @Override
    public int unlinkat(int dirfd, long path, int flags) {
        try {
            return (int) UNLINKAT.invokeExact(state(), dirfd, path, flags);
        } catch (Throwable e) {
            throw failed("unlinkat", e);
        }
    }

    @Override
    public int mkdirat(int dirfd, long path, int mode) {
        try {
            return (int) MKDIRAT.invokeExact(state(), dirfd, path, mode);
        } catch (Throwable e) {
            throw failed("mkdirat", e);
        }
    }

    @Override
    public int statx(int dirfd, long path, int flags, int mask, long statxBuffer) {
        try {
            return (int) STATX.invokeExact(state(), dirfd, path, flags, mask, statxBuffer);
        } catch (Throwable e) {
            throw failed("statx", e);
        }
    }

    @Override
    public long getdents64(int fd, long buffer, long count) {
        try {
            return (long) GETDENTS64.invokeExact(state(), fd, buffer, count);
        } catch (Throwable e) {
            throw failed("getdents64", e);
        }
    }

    @Override
    public long mmap(long address, long length, int protection, int flags, int fd, long offset) {
        try {
            return (long) MMAP.invokeExact(state(), address, length, protection, flags, fd, offset);
        } catch (Throwable e) {
            throw failed("mmap", e);
        }
    }

    @Override
    public int munmap(long address, long length) {
        try {
            return (int) MUNMAP.invokeExact(state(), address, length);
        } catch (Throwable e) {
            throw failed("munmap", e);
        }
    }

    @Override
    public int mincore(long address, long length, long vector) {
        try {
            return (int) MINCORE.invokeExact(state(), address, length, vector);
        } catch (Throwable e) {
            throw failed("mincore", e);
        }
    }

    @Override
    public long sysconf(int name) {
        try {
            return (long) SYSCONF.invokeExact(name);
        } catch (Throwable e) {
            throw failed("sysconf", e);
        }
    }

    @Override
    public String strerror(int errnum) {
        try {
            long text = (long) STRERROR.invokeExact(errnum);
            Object segment = REINTERPRET.invoke(OF_ADDRESS.invoke(null, text), 1024L);
            return (String) GET_STRING.invoke(segment, 0L);
        } catch (Throwable e) {
            throw failed("strerror", e);
        }
    }
}
