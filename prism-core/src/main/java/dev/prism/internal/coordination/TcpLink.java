package dev.prism.internal.coordination;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A {@link LineLink} over a TCP connection: one line per message, read through a buffer of its own. */
final class TcpLink implements LineLink {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private byte[] buffer = new byte[8192];
    private int start;
    private int end;

    TcpLink(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = new java.io.BufferedOutputStream(socket.getOutputStream(), 8192);
    }

    @Override
    public void write(String line) throws IOException {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
    }

    @Override
    public String read(long millis, int maxBytes) throws IOException {
        // the wait is for the whole line: a peer sending a byte now and then does not hold the link past it
        long until = System.nanoTime() + Math.min(millis, Long.MAX_VALUE / 2_000_000) * 1_000_000;
        try {
            int scanned = start;
            while (true) {
                for (int i = scanned; i < end; i++) {
                    if (buffer[i] == '\n') {
                        String line = new String(buffer, start, i - start, StandardCharsets.UTF_8);
                        start = i + 1;
                        if (start == end && buffer.length > 1 << 20) {
                            buffer = new byte[8192]; // a result's document came: the next messages are small
                            start = end = 0;
                        }
                        return line;
                    }
                }
                scanned = end;
                if (end - start > maxBytes) {
                    throw new ProtocolViolation("a line of over " + maxBytes + " bytes without its end");
                }
                if (end == buffer.length) {
                    if (start > 0) {
                        System.arraycopy(buffer, start, buffer, 0, end - start);
                        scanned -= start;
                        end -= start;
                        start = 0;
                    } else {
                        buffer = Arrays.copyOf(buffer, (int) Math.min((long) maxBytes + 2, buffer.length * 2L));
                    }
                }
                long left = (until - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new java.net.SocketTimeoutException("no whole line within " + millis + " ms");
                }
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
                int n = in.read(buffer, end, buffer.length - end);
                if (n < 0) {
                    return null;
                }
                end += n;
            }
        } catch (java.net.SocketException e) {
            if (socket.isClosed()) {
                return null;
            }
            throw e;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    @Override
    public boolean heartbeats() {
        return true;
    }

    @Override
    public InetSocketAddress peer() {
        return socket.getRemoteSocketAddress() instanceof InetSocketAddress a ? a : null;
    }

    @Override
    public String describePeer() {
        InetSocketAddress a = peer();
        return a == null ? "?" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }
}
