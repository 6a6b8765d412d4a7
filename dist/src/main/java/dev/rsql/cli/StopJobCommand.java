package dev.rsql.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.util.concurrent.Callable;

/** Stops a job of a running server gracefully; its script stays under jobs/. */
@Command(name = "stop", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the job stopped",
                "1:the server is unreachable, or runs no such job",
                "2:wrong usage"},
        description = "Stop a job of a running server gracefully (its script stays; it starts again when the script"
                + " changes or the server restarts). Jobs started with bin/start.sh stop with bin/stop.sh.")
final class StopJobCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Parameters(index = "0", description = "Job name.")
    private String job;

    @Mixin
    private ServerOption server;

    @Override
    public Integer call() throws IOException {
        ServerClient client = server.client(cli.engineHome());
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
