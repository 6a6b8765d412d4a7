package dev.rsql.runtime.connector.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One connection to a Redis server speaking RESP2, the protocol every Redis (and compatible server) understands:
 * commands are arrays of bulk strings (UTF-8), replies are read as String (simple and bulk strings), Long, null or
 * List. Commands may be pipelined: {@link #send} several, then {@link #replies}. Not thread-safe: one per task.
 * A password never appears in an error.
 */
final class RedisConnection implements AutoCloseable {

    private final String address;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private int pending;

    /** Connects, authenticates when a password is given, and selects the database. */
    RedisConnection(String host, int port, String password, int database, int timeoutMillis) throws IOException {
        this.address = host + ":" + port;
        socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
            out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            if (password != null && !password.isEmpty()) {
                call("AUTH", password);
            }
            if (database != 0) {
                call("SELECT", Integer.toString(database));
            }
        } catch (RedisException e) {
            socket.close();
            throw e;
        } catch (IOException e) {
            socket.close();
            throw new IOException("redis " + address + ": " + e.getMessage(), e);
        }
    }

    String address() {
        return address;
    }

    /** Sends a command and returns its reply. */
    Object call(String... args) throws IOException {
        send(args);
        return replies().get(0);
    }

    /** Queues a command; its reply is among the next {@link #replies}. */
    void send(String... args) throws IOException {
        out.write('*');
        writeNumber(args.length);
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            out.write('$');
            writeNumber(b.length);
            out.write(b);
            out.write('\r');
            out.write('\n');
        }
        pending++;
    }

    /**
     * Sends what is queued and reads one reply per command, in order. A command the server refused is reported after
     * all replies are read, so that the connection stays usable.
     */
    List<Object> replies() throws IOException {
        out.flush();
        List<Object> replies = new ArrayList<>(pending);
        RedisException refused = null;
        try {
            for (; pending > 0; pending--) {
                try {
                    replies.add(read());
                } catch (RedisException e) {
                    refused = refused == null ? e : refused;
                    replies.add(null);
                }
            }
        } catch (IOException e) {
            pending = 0;
            throw new IOException("redis " + address + ": " + e.getMessage(), e);
        }
        if (refused != null) {
            throw refused;
        }
        return replies;
    }

    private Object read() throws IOException {
        int type = in.read();
        switch (type) {
            case '+':
                return line();
            case '-':
                throw new RedisException("redis " + address + " refused a command: " + line());
            case ':':
                return Long.parseLong(line());
            case '$': {
                int n = Integer.parseInt(line());
                if (n < 0) {
                    return null;
                }
                byte[] b = in.readNBytes(n);
                if (b.length < n || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("the connection closed in the middle of a reply");
                }
                return new String(b, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line());
                if (n < 0) {
                    return null;
                }
                List<Object> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    list.add(read());
                }
                return list;
            }
            case -1:
                throw new EOFException("the server closed the connection");
            default:
                throw new IOException("not a RESP reply (byte " + type + ")");
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(16);
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("the server closed the connection");
            }
            b.write(c);
        }
        if (in.read() != '\n') {
            throw new IOException("a reply line without its line feed");
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    private void writeNumber(int n) throws IOException {
        out.write(Integer.toString(n).getBytes(StandardCharsets.US_ASCII));
        out.write('\r');
        out.write('\n');
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with it
        }
    }

    /** The server answered a command with an error (wrong type, authentication, …): retrying will not help. */
    static final class RedisException extends IOException {
        RedisException(String message) {
            super(message);
        }
    }
}
