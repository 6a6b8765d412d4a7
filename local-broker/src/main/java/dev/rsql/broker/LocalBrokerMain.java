package dev.rsql.broker;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link LocalRocketMq} in the foreground until the process is terminated (SIGTERM, SIGINT): the entry point
 * behind {@code bin/broker.sh start}.
 *
 * <pre>
 * LocalBrokerMain --dir DIR [--namesrv-port 9876] [--broker-port 10911] [--host 127.0.0.1] [--listen ADDRESS]
 * </pre>
 *
 * <p>When both are ready it prints exactly one line to standard output, ending with the name server address:
 * {@code RocketMQ ready: name server 127.0.0.1:9876}. The name server and broker listen on the {@code --listen}
 * address, by default the {@code --host} the broker is advertised at (127.0.0.1: this machine only); {@code --listen
 * 0.0.0.0} listens on every interface. On termination a shutdown hook stops the broker (flushing the
 * store) and the name server. Exit code 2 for bad arguments, 1 when start-up fails.
 */
public final class LocalBrokerMain {

    static final String READY_PREFIX = "RocketMQ ready: name server ";

    private LocalBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Args parsed;
        try {
            parsed = Args.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        if (parsed == null) {
            usage(System.out);
            return;
        }
        LocalRocketMq mq;
        try {
            mq = LocalRocketMq.start(parsed.dir, parsed.host, parsed.listen == null ? parsed.host : parsed.listen,
                    parsed.namesrvPort, parsed.brokerPort);
        } catch (Exception e) {
            System.err.println("error: cannot start RocketMQ under " + parsed.dir + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                mq.close();
            } finally {
                stopped.countDown();
            }
        }, "rsql-local-broker-shutdown"));
        System.out.println(READY_PREFIX + mq.nameServerAddress());
        System.out.flush();
        stopped.await();
    }

    private static void usage(PrintStream out) {
        out.println("usage: LocalBrokerMain --dir DIR [--namesrv-port 9876] [--broker-port 10911] [--host 127.0.0.1]"
                + " [--listen ADDRESS]");
        out.println("  Runs a RocketMQ name server and broker in this process until terminated;");
        out.println("  they listen on ADDRESS (default: the host; 0.0.0.0 for every interface).");
        out.println("  data and RocketMQ logs go under DIR. A port of 0 picks a free port.");
    }

    static final class Args {
        Path dir;
        int namesrvPort = 9876;
        int brokerPort = 10911;
        String host = "127.0.0.1";
        String listen;

        /** Null when help was asked for. */
        static Args parse(String[] args) {
            Args a = new Args();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String value = null;
                int eq = arg.indexOf('=');
                if (arg.startsWith("--") && eq > 0) {
                    value = arg.substring(eq + 1);
                    arg = arg.substring(0, eq);
                }
                switch (arg) {
                    case "-h":
                    case "--help":
                        return null;
                    case "--dir":
                        a.dir = Path.of(value != null ? value : next(args, ++i, arg));
                        break;
                    case "--namesrv-port":
                        a.namesrvPort = port(value != null ? value : next(args, ++i, arg), arg);
                        break;
                    case "--broker-port":
                        a.brokerPort = port(value != null ? value : next(args, ++i, arg), arg);
                        break;
                    case "--host":
                        a.host = value != null ? value : next(args, ++i, arg);
                        break;
                    case "--listen":
                        a.listen = value != null ? value : next(args, ++i, arg);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
            if (a.dir == null) {
                throw new IllegalArgumentException("--dir is required");
            }
            if (a.brokerPort != 0 && a.brokerPort < 3) {
                throw new IllegalArgumentException("--broker-port must be 0 or at least 3 (the broker also uses port - 2)");
            }
            return a;
        }

        private static String next(String[] args, int i, String name) {
            if (i >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[i];
        }

        private static int port(String text, String name) {
            try {
                int p = Integer.parseInt(text.trim());
                if (p < 0 || p > 65534) {
                    throw new NumberFormatException();
                }
                return p;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a port number, got '" + text + "'");
            }
        }
    }
}
