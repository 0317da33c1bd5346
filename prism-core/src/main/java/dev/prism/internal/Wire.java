package dev.prism.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** One connection between the coordinator and a rank: JSON messages, one per line. Sends are thread-safe. */
final class Wire implements AutoCloseable {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private final Socket socket;
    private final BufferedReader in;
    private final BufferedWriter out;

    Wire(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8));
    }

    static ObjectNode message(String type) {
        return MAPPER.createObjectNode().put("type", type);
    }

    synchronized void send(ObjectNode message) throws IOException {
        out.write(MAPPER.writeValueAsString(message));
        out.write('\n');
        out.flush();
    }

    /** @return the next message, or null when the other side closed the connection */
    JsonNode receive() throws IOException {
        String line = in.readLine();
        return line == null ? null : MAPPER.readTree(line);
    }

    /**
     * @return the next message, or null at end of stream
     * @throws SocketTimeoutException when none came within {@code millis}
     */
    JsonNode receive(long millis) throws IOException {
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
        try {
            return receive();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    String peer() {
        return String.valueOf(socket.getRemoteSocketAddress());
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
