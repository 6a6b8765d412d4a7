package dev.rsql.cli;

import java.io.IOException;

/** The {@code --server URL} option of the commands that talk to a running server. */
final class ServerOption {

    static final CliOption OPTION = CliOption.value("--server", "URL", "Server URL, e.g. http://host:8081 (default:"
            + " the server of this installation, run/server.json, else http.host and http.port of conf/rsql.conf).");

    private ServerOption() {
    }

    /** The server given, else the installation's. */
    static ServerClient client(EngineHome home, CommandArgs args) throws IOException {
        return ServerClient.of(home, args.value(OPTION));
    }
}
