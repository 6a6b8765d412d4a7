package dev.rsql.cli;

import picocli.CommandLine.Option;

import java.io.IOException;

/** The {@code --server URL} option of the commands that talk to a running server. */
final class ServerOption {

    @Option(names = "--server", description = "Server URL, e.g. http://host:8081 (default: the server of this"
            + " installation, run/server.json, else http.host and http.port of conf/rsql.conf).")
    private String server;

    /** The server given, else the installation's. */
    ServerClient client(EngineHome home) throws IOException {
        return ServerClient.of(home, server);
    }
}
