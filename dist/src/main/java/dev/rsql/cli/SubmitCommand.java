package dev.rsql.cli;

import java.io.IOException;
import java.util.List;

/** Sends a script to a running server, which writes it under jobs/ and starts (or restarts) its job at once. */
final class SubmitCommand implements CliCommand {

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("submit", "Submit a script to a running server (bin/rsql server): checked, saved as"
                + " jobs/NAME.sql, started.", List.of(ScriptOptions.NAME, ServerOption.OPTION), ScriptOptions.SCRIPT,
                "0:the job runs the script",
                "1:the server is unreachable, or the job cannot start (its state does not fit the new script, ...)",
                "2:the script is invalid (its error is printed), or wrong usage");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        ScriptArgument arg = ScriptOptions.resolve(home, args);
        ServerClient client = ServerOption.client(home, args);
        ServerClient.Reply r;
        try {
            r = client.put(ServerClient.jobPath(arg.jobName), arg.text());
        } catch (IOException e) {
            System.err.println("ERROR  " + e.getMessage());
            return 1;
        }
        if (r.status() == 200) {
            System.out.println("submitted " + arg.jobName + " to " + client.url() + ": "
                    + r.object().getString("state"));
            return 0;
        }
        System.err.println("ERROR  " + arg.file + ": " + r.error());
        return r.status() == 400 ? 2 : 1;
    }
}
