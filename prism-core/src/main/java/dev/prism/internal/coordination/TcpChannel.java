package dev.prism.internal.coordination;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A {@link Channel} over a TCP connection: one JSON message per line. */
public final class TcpChannel implements Channel {

    private final Socket socket;
    private final BufferedReader in;
    private final BufferedWriter out;

    public TcpChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8));
    }

    private final java.util.concurrent.locks.ReentrantLock sending = new java.util.concurrent.locks.ReentrantLock();

    @Override
    public void send(ObjectNode message) throws IOException {
        sending.lock();
        try {
            write(message);
        } finally {
            sending.unlock();
        }
    }

    /** A ping never waits behind another message: one being sent says as much. */
    @Override
    public void ping() throws IOException {
        if (sending.tryLock()) {
            try {
                write(Heartbeat.ping());
            } finally {
                sending.unlock();
            }
        }
    }

    private void write(ObjectNode message) throws IOException {
        out.write(MAPPER.writeValueAsString(message));
        out.write('\n');
        out.flush();
    }

    @Override
    public boolean heartbeats() {
        return true;
    }

    @Override
    public JsonNode receive() throws IOException {
        String line = in.readLine();
        return line == null ? null : MAPPER.readTree(line);
    }

    @Override
    public JsonNode receive(long millis) throws IOException {
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
        try {
            return receive();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    @Override
    public java.net.InetSocketAddress peer() {
        return socket.getRemoteSocketAddress() instanceof java.net.InetSocketAddress a ? a : null;
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
