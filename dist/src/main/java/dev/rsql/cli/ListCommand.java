package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;

import java.io.IOException;
import java.util.List;

/** Lists the jobs of a running server: state, records in and out, and a script's last error. */
final class ListCommand implements CliCommand {

    private static final CliOption JSON_OUTPUT = CliOption.flag("--json",
            "Print the server's JSON (one object per job, as status --json).");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("list", "List the jobs of a running server.", List.of(ServerOption.OPTION, JSON_OUTPUT),
                null,
                "0:jobs listed (also when there are none)",
                "1:the server is unreachable",
                "2:wrong usage");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws IOException {
        ServerClient client = ServerOption.client(home, args);
        ServerClient.Reply r;
        try {
            r = client.get("/api/jobs");
        } catch (IOException e) {
            System.err.println("ERROR  " + e.getMessage());
            return 1;
        }
        if (r.status() != 200 || !(r.body() instanceof JSONArray)) {
            System.err.println("ERROR  " + client.url() + " answered " + r.status());
            return 1;
        }
        JSONArray jobs = (JSONArray) r.body();
        if (args.has(JSON_OUTPUT)) {
            System.out.println(JSON.toJSONString(jobs));
            return 0;
        }
        if (jobs.isEmpty()) {
            System.out.println("no jobs on " + client.url());
            return 0;
        }
        String row = "%-30s %-12s %12s %12s  %s%n";
        System.out.printf(row, "JOB", "STATE", "RECORDS IN", "ROWS OUT", "SCRIPT");
        for (int i = 0; i < jobs.size(); i++) {
            JSONObject j = jobs.getJSONObject(i);
            System.out.printf(row, j.getString("job"), j.getString("state"), j.getLongValue("recordsIn"),
                    j.getLongValue("rowsOut"), j.getString("script"));
            if (j.getString("scriptError") != null) {
                System.out.println("  not started: " + j.getString("scriptError"));
            }
        }
        return 0;
    }
}
