package dev.rsql.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.util.concurrent.Callable;

/** Sends a script to a running server, which writes it under jobs/ and starts (or restarts) its job at once. */
@Command(name = "submit", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the job runs the script",
                "1:the server is unreachable, or the job cannot start (its state does not fit the new script, ...)",
                "2:the script is invalid (its error is printed), or wrong usage"},
        description = "Submit a script to a running server (bin/rsql server): checked, saved as jobs/NAME.sql,"
                + " started.")
final class SubmitCommand implements Callable<Integer> {

    @ParentCommand
    private RsqlCli cli;

    @Mixin
    private ScriptOptions scriptOptions;

    @Mixin
    private ServerOption server;

    @Override
    public Integer call() throws IOException {
        EngineHome home = cli.engineHome();
        ScriptArgument arg = scriptOptions.resolve(home);
        ServerClient client = server.client(home);
        ServerClient.Reply r;
        try {
            r = client.put(ServerClient.jobPath(arg.jobName), arg.text);
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
