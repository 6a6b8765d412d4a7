package dev.rsql.cli;

import java.io.IOException;
import java.util.List;

/** Stops a job of a running server gracefully; its script stays under jobs/. */
final class StopJobCommand implements CliCommand {

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("stop", "Stop a job of a running server gracefully (its script stays; it starts again"
                + " when the script changes or the server restarts). Jobs started with bin/start.sh stop with"
                + " bin/stop.sh.", List.of(ServerOption.OPTION), CliParameter.one("JOB", "Job name."),
                "0:the job stopped",
                "1:the server is unreachable, or runs no such job",
                "2:wrong usage");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        String job = args.parameter();
        ServerClient client = ServerOption.client(home, args);
        ServerClient.Reply r;
        try {
            r = client.post(ServerClient.jobPath(job) + "/stop", "");
        } catch (IOException e) {
            System.err.println("ERROR  " + e.getMessage());
            return 1;
        }
        if (r.status() == 200) {
            System.out.println("stopped " + job + ": " + r.object().getString("state"));
            return 0;
        }
        System.err.println("ERROR  " + r.error());
        return 1;
    }
}
